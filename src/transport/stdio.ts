/**
 * The stdio transport: newline-delimited UTF-8 JSON-RPC over a readable and a writable stream.
 *
 * Requests are handled concurrently; replies are written compactly, one per line, with
 * backpressure (reading pauses while the output needs `drain` or too many requests are in
 * flight). On end of input the in-flight replies are flushed, then `closed` resolves. A session's
 * life is a small state machine: {@link StdioPhase}. Framing is line-buffer.ts; writing (and the
 * escapes every line reader needs) is line-writer.ts.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio.
 * @module baremcp/stdio
 */
import type { Readable, Writable } from 'node:stream';
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import { isRequestId } from '../protocol/messages.js';
import type { JsonRpcMessage, RequestId } from '../protocol/messages.js';
import type { Connection, Reply } from '../server/connection.js';
import type { Server } from '../server/server.js';
import { jsonLine } from './json-line.js';
import { LineBuffer, type Fault, type LineSink } from './line-buffer.js';
import { LineWriter } from './line-writer.js';
import { isolatedProtocolFd, protocolOutput, PROTOCOL_FD_ENV, spawnIsolated } from './isolate.js';
import { claimStdin, stdinSession } from './stdin-session.js';
import { installStdoutGuard } from './stdout-guard.js';

/** Options for {@link serve} and {@link serveStdio}. */
export interface StdioOptions {
  /**
   * Largest accepted line, in bytes. A longer line is answered with `-32600` and skipped.
   * @default 8388608 (8 MiB)
   */
  maxLineBytes?: number;
  /**
   * Requests handled at once; reading pauses at this number and resumes below it.
   * @default 256
   */
  maxInFlight?: number;
  /**
   * Requests read and waiting for a place in flight; reading pauses at this number. Notifications
   * (a cancel, say) and responses are never held back.
   * @default 4 × maxInFlight
   */
  maxQueued?: number;
  /**
   * After end of input, how long the session waits without progress (no reply settled, no output
   * drained), in milliseconds, before it aborts what is left and ends.
   * @default 2000
   */
  endGraceMs?: number;
  /**
   * Only for {@link serveStdio}: serve from a child process whose stdout (fd 1) is this process's
   * stderr, so that nothing the server runs, native code included, can write onto the protocol
   * stream; the protocol goes over an inherited descriptor. The script runs again in the child
   * (same `process.execArgv` and `process.argv`), so call `serveStdio` before any other work;
   * this process only waits and exits with the child's code. Costs a second Node.js process
   * (bench/RESULTS.md). SECURITY.md says what each mode covers.
   * @default false
   */
  isolate?: boolean;
}

/** A running stdio session. */
export interface StdioSession {
  /** The server connection behind the session. */
  readonly connection: Connection;
  /** Where the session is in its life (see {@link StdioPhase}). */
  readonly phase: StdioPhase;
  /** Resolves once input ended and every reply was written, or the output closed. */
  readonly closed: Promise<void>;
  /** Stops reading, aborts requests in flight, and resolves `closed` once pending writes end. */
  close(): void;
}

/** Default largest line: 8 MiB. */
export const DEFAULT_MAX_LINE_BYTES: number = 8 * 1024 * 1024;

/**
 * Where a {@link StdioSession} is in its life. It moves only forward, `reading` → `input-ended`
 * → `flushing` → `finished`, and from any phase before `finished` to `broken`:
 * - `reading`: input is read; requests start, or wait in the backlog for a place in flight.
 *   Reading pauses while the output waits for `drain` or the backlog is full.
 * - `input-ended`: end of input, an input error, or {@link StdioSession.close}: nothing more is
 *   read. Requests in flight and in the backlog are still answered (`close()` aborts them and
 *   empties the backlog); after `endGraceMs` without progress the rest are abandoned.
 * - `flushing`: every request settled or was abandoned and the connection is closed: the last
 *   replies are being written; nothing new is.
 * - `finished`: every reply was written; `closed` resolved.
 * - `broken`: the output failed (EPIPE: the client is gone); nothing more is written; `closed`
 *   resolved.
 */
export type StdioPhase = 'reading' | 'input-ended' | 'flushing' | 'finished' | 'broken';

/**
 * Reads the top-level `"id"` of a too-long line from its first bytes, when it can be read
 * cheaply: a scan that tracks strings and nesting, so an `"id"` inside `params` is not taken.
 */
function idFromHead(head: string): RequestId | undefined {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      const start = i;
      for (i++; i < head.length && head[i] !== '"'; i++) if (head[i] === '\\') i++;
      if (depth === 1 && head.slice(start, i + 1) === '"id"') {
        const match = /^\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/.exec(head.slice(i + 1));
        if (match === null) return undefined;
        try {
          const id = JSON.parse(match[1] as string) as unknown;
          return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
        } catch {
          return undefined;
        }
      }
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

const NOT_JSON = 'Parse error: a line is not valid JSON';
const NOT_UTF8 = 'Parse error: a line is not valid UTF-8';
const NOT_SERIALISABLE = 'Internal error: the result could not be serialised as JSON';

/** Whether a decoded message is a valid request (it then waits for a place in flight). */
function isRequestMessage(message: unknown): boolean {
  return !Array.isArray(message) && classify(message).kind === 'request';
}

/** One connection served over a pair of streams: see {@link serve}. */
class Session implements StdioSession {
  readonly connection: Connection;
  readonly closed: Promise<void>;
  #phase: StdioPhase = 'reading';
  /** Requests handed to the connection and not settled yet. */
  #inFlight = 0;
  /** Requests read while no place was free in flight, oldest first. */
  readonly #backlog: unknown[] = [];
  /** True while reading is paused for backpressure (only in `reading`). */
  #paused = false;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #resolveClosed: () => void = () => {};

  readonly #input: Readable;
  readonly #server: Server;
  readonly #buffer: LineBuffer;
  readonly #writer: LineWriter;
  readonly #maxInFlight: number;
  readonly #maxQueued: number;
  readonly #endGraceMs: number;

  constructor(input: Readable, output: Writable, server: Server, options: StdioOptions) {
    this.#input = input;
    this.#server = server;
    this.#maxInFlight = Math.max(1, options.maxInFlight ?? 256);
    this.#maxQueued = Math.max(1, options.maxQueued ?? 4 * this.#maxInFlight);
    this.#endGraceMs = options.endGraceMs ?? 2_000;
    this.#buffer = new LineBuffer(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.#writer = new LineWriter(output, () => {
      this.#flow();
      // A drain is progress; a write that must wait for one is not.
      if (!this.#writer.waitingForDrain) this.#armGrace();
    });
    this.closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));
    this.connection = server.connect({ send: (message) => this.#send(message), transport: { kind: 'stdio' } });
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
    input.on('error', (error) => {
      server.report(`input stream error: ${error.message}`);
      this.#onEnd();
    });
    output.on('error', this.#onOutputError);
  }

  get phase(): StdioPhase {
    return this.#phase;
  }

  close(): void {
    this.connection.close();
    this.#backlog.length = 0;
    if (this.#phase === 'reading') this.#endReading();
    this.#finishIfDone();
  }

  // Input: bytes → lines → messages.

  readonly #sink: LineSink = {
    line: (text) => this.#line(text),
    fault: (fault) => this.#fault(fault),
  };

  readonly #onData = (chunk: Buffer | string): void => {
    this.#buffer.feed(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, this.#sink);
  };

  readonly #onEnd = (): void => {
    if (this.#phase !== 'reading') return;
    for (const frame of this.#buffer.end()) {
      if (frame.kind === 'line') this.#line(frame.text);
      else this.#fault(frame);
    }
    this.#endReading();
    // Nobody can answer or listen any more: subscriptions end, questions to the client fail.
    this.connection.inputEnded();
    this.#finishIfDone();
    this.#armGrace();
  };

  #endReading(): void {
    this.#phase = 'input-ended';
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
  }

  #line(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#send(errorResponse(undefined, ErrorCode.ParseError, NOT_JSON));
      return;
    }
    if (this.#backlog.length > 0 && this.#cancelQueued(message)) return;
    // Requests wait for a place in flight; notifications (cancels) and responses never wait.
    const full =
      this.#inFlight >= this.#maxInFlight || this.#writer.waitingForDrain || this.#backlog.length > 0;
    if (full && isRequestMessage(message)) {
      this.#backlog.push(message);
      if (this.#backlog.length >= this.#maxQueued) this.#flow();
      return;
    }
    this.#start(message);
  }

  #fault(fault: Fault): void {
    if (fault.kind === 'invalid-utf8') {
      this.#send(errorResponse(undefined, ErrorCode.ParseError, NOT_UTF8));
      return;
    }
    this.#server.report(`dropped a line longer than ${fault.limit} bytes`);
    const message = `Invalid Request: message larger than the limit of ${fault.limit} bytes`;
    this.#send(errorResponse(idFromHead(fault.head), ErrorCode.InvalidRequest, message));
  }

  /** A cancel for a request still waiting in the backlog removes it: it never runs, no reply. */
  #cancelQueued(message: unknown): boolean {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    // Only a valid JSON-RPC 2.0 notification cancels (not a request, nor an invalid message).
    if (m?.method !== 'notifications/cancelled') return false;
    if (classify(message).kind !== 'notification') return false;
    const target = m.params?.requestId;
    if (!isRequestId(target)) return false;
    const index = this.#backlog.findIndex((q) => (q as { id?: unknown }).id === target);
    if (index === -1) return false;
    this.#backlog.splice(index, 1);
    this.#flow();
    this.#finishIfDone();
    return true;
  }

  // Requests in flight.

  #start(message: unknown): void {
    this.#inFlight++;
    let reply: Promise<Reply>;
    try {
      reply = this.connection.handle(message);
    } catch (error) {
      reply = Promise.resolve(null);
      this.#server.report(`dispatch failed: ${String(error)}`);
    }
    reply.then(this.#onReply, this.#onDispatchError);
  }

  readonly #onReply = (reply: Reply): void => {
    if (reply !== null) this.#send(reply);
    this.#settled();
  };

  readonly #onDispatchError = (error: unknown): void => {
    this.#server.report(`dispatch failed: ${String(error)}`);
    this.#settled();
  };

  #settled(): void {
    this.#inFlight--;
    this.#flow();
    this.#finishIfDone();
    this.#armGrace();
  }

  /** Starts queued requests while there is room; pauses or resumes reading for backpressure. */
  #flow(): void {
    while (this.#backlog.length > 0 && this.#inFlight < this.#maxInFlight) {
      if (this.#writer.waitingForDrain || this.#phase === 'broken') break;
      this.#start(this.#backlog.shift());
    }
    if (this.#phase !== 'reading') return;
    const pause = this.#writer.waitingForDrain || this.#backlog.length >= this.#maxQueued;
    if (pause === this.#paused) return;
    this.#paused = pause;
    if (pause) this.#input.pause();
    else this.#input.resume();
  }

  // Output.

  #send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.#phase !== 'reading' && this.#phase !== 'input-ended') return;
    let json: string;
    try {
      json = jsonLine(message);
    } catch (error) {
      this.#server.report(`could not serialise a reply: ${String(error)}`);
      // A request still gets exactly one reply.
      const id = !Array.isArray(message) && 'id' in message ? message.id : undefined;
      if (id === undefined || 'error' in message) return;
      json = jsonLine(errorResponse(id, ErrorCode.InternalError, NOT_SERIALISABLE));
    }
    this.#writer.write(json);
  }

  readonly #onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') {
      this.#server.report(`output stream error: ${error.message}`);
    }
    if (this.#phase === 'finished' || this.#phase === 'broken') return;
    if (this.#phase === 'reading') this.#endReading();
    this.#phase = 'broken';
    clearTimeout(this.#graceTimer);
    this.#writer.discard();
    this.connection.close();
    this.#resolveClosed();
  };

  // The end.

  /** In `input-ended`, once nothing is in flight or queued: flush the last replies and finish. */
  #finishIfDone(): void {
    if (this.#phase !== 'input-ended' || this.#inFlight > 0 || this.#backlog.length > 0) return;
    this.#flushAndFinish();
  }

  #flushAndFinish(): void {
    this.#phase = 'flushing';
    clearTimeout(this.#graceTimer);
    // The session is over: the server forgets the connection (no more list changes written).
    this.connection.close();
    this.#writer.end(() => {
      if (this.#phase === 'flushing') this.#phase = 'finished';
      this.#resolveClosed();
    });
  }

  /**
   * After end of input, the session may go on while replies keep coming; once none has come for
   * endGraceMs (a tool that hangs, a client that stopped reading), what is left is abandoned.
   */
  #armGrace(): void {
    if (this.#phase !== 'input-ended') return;
    clearTimeout(this.#graceTimer);
    this.#graceTimer = setTimeout(this.#abandon, this.#endGraceMs);
    this.#graceTimer.unref?.();
  }

  readonly #abandon = (): void => {
    const left = this.#inFlight + this.#backlog.length;
    const grace = this.#endGraceMs;
    this.#server.report(`end of input: ${left} request(s) made no progress for ${grace} ms and were abandoned`);
    this.#backlog.length = 0;
    this.#flushAndFinish();
  };
}

/**
 * Serves `server` over a pair of streams (one connection).
 * Never throws for bad input; stream errors on `output` (e.g. EPIPE) end the session quietly.
 */
export function serve(
  input: Readable,
  output: Writable,
  server: Server,
  options: StdioOptions = {},
): StdioSession {
  return new Session(input, output, server, options);
}

/**
 * Serves `server` on this process's stdin and stdout, and exits the process when done: exit code 0
 * on end of input (after flushing replies), on SIGTERM/SIGINT (after in-flight tools see their
 * abort signal), or when the client closes stdout (EPIPE).
 * Installs the stdout guard first, so that nothing JavaScript writes to stdout (console, `fs`
 * writes to fd 1, child processes given fd 1) reaches the protocol stream; with `isolate`, serves
 * from a child process whose fd 1 is stderr (see {@link StdioOptions.isolate}). A process has one
 * stdin: a second call (from any copy of baremcp) reports a line and returns the first session.
 */
export function serveStdio(server: Server, options: StdioOptions = {}): StdioSession {
  // One reader of stdin per process: a second one would answer every request twice.
  const current = stdinSession();
  if (current !== undefined) {
    server.report(
      "serveStdio: this process's stdin is served already (by baremcp serve or an earlier " +
        'serveStdio call); this call is ignored',
    );
    return current;
  }
  const session = startStdio(server, options);
  claimStdin(session);
  return session;
}

/** {@link serveStdio} for the first caller in the process. */
function startStdio(server: Server, options: StdioOptions): StdioSession {
  const fd = isolatedProtocolFd();
  if (options.isolate === true && fd === undefined) {
    const child = spawnIsolated((line) => server.report(line));
    // This process serves nothing: its connection stays idle, the child does the work.
    return {
      connection: server.connect(),
      get phase(): StdioPhase {
        return child.exited ? 'finished' : 'reading';
      },
      closed: child.closed,
      close: () => child.stop(),
    };
  }
  // The isolated child: its own children must not take the protocol descriptor for theirs.
  delete process.env[PROTOCOL_FD_ENV];
  installStdoutGuard();
  process.on('uncaughtException', (error) => server.report(`uncaught exception (server kept running): ${error.stack ?? String(error)}`));
  process.on('unhandledRejection', (reason) => server.report(`unhandled rejection (server kept running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
  const output = fd === undefined ? process.stdout : protocolOutput(fd);
  const session = serve(process.stdin, output, server, options);
  const exit = (): void => {
    process.exitCode = 0;
    // Exit even when a tool left timers or sockets open (an orphaned server must not linger).
    setImmediate(() => process.exit(0));
  };
  const onSignal = (): void => {
    session.close();
    const timer = setTimeout(exit, 500);
    timer.unref();
    void session.closed.then(exit);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  void session.closed.then(exit);
  return session;
}
