/**
 * The stdio transport: newline-delimited UTF-8 JSON-RPC over a readable and a writable stream.
 *
 * Requests are handled concurrently; replies are written compactly, one per line, with
 * backpressure (reading pauses while the output needs `drain` or too many requests are in
 * flight). On end of input the in-flight replies are flushed, then `closed` resolves.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import { isRequestId } from '../protocol/messages.js';
import type { JsonRpcMessage, RequestId } from '../protocol/messages.js';
import type { Connection, Reply } from '../server/connection.js';
import type { Server } from '../server/server.js';
import { LineBuffer, type Frame } from './line-buffer.js';
import { installStdoutGuard, writeProtocol } from './stdout-guard.js';

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
}

/** A running stdio session. */
export interface StdioSession {
  /** The server connection behind the session. */
  readonly connection: Connection;
  /** Resolves once input ended and every reply was written, or the output closed. */
  readonly closed: Promise<void>;
  /** Stops reading, aborts requests in flight, and resolves `closed` once pending writes end. */
  close(): void;
}

/** Characters of replies gathered before they are written without waiting for the next turn. */
const FLUSH_BYTES = 64 * 1024;

/** Default largest line: 8 MiB. */
export const DEFAULT_MAX_LINE_BYTES: number = 8 * 1024 * 1024;

/**
 * Reads the top-level `"id"` of a too-long line from its first bytes, when it can be read
 * cheaply: a scan that tracks strings and nesting, so an `"id"` inside `params` is not taken.
 */
export function idFromHead(head: string): RequestId | undefined {
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

/** Whether a decoded message is a valid request (it then waits for a place in flight). */
function isRequestMessage(message: unknown): boolean {
  return !Array.isArray(message) && classify(message).kind === 'request';
}

/**
 * Serves `server` over a pair of streams (one connection).
 * Never throws for bad input; stream errors on `output` (e.g. EPIPE) end the session quietly.
 */
export function serve(input: Readable, output: Writable, server: Server, options: StdioOptions = {}): StdioSession {
  const maxInFlight = Math.max(1, options.maxInFlight ?? 256);
  const maxQueued = Math.max(1, options.maxQueued ?? 4 * maxInFlight);
  const endGraceMs = options.endGraceMs ?? 2_000;
  const backlog: unknown[] = [];
  const buffer = new LineBuffer(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  let pending = 0;
  let ended = false;
  let broken = false;
  let waitingForDrain = false;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const connection = server.connect({ send: (message) => write(message), transport: { kind: 'stdio' } });

  // Lines are queued and written once per turn of the event loop: one write call for many replies.
  let queue: string[] = [];
  let queuedBytes = 0;
  let flushScheduled = false;
  let paused = false;
  let finished = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;

  function write(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (broken || finished) return;
    let line: string;
    try {
      line = JSON.stringify(message) + '\n';
    } catch (error) {
      server.report(`could not serialise a reply: ${String(error)}`);
      // A request still gets exactly one reply.
      const id = !Array.isArray(message) && 'id' in message ? message.id : undefined;
      if (id === undefined || 'error' in message) return;
      line = JSON.stringify(errorResponse(id, ErrorCode.InternalError, 'Internal error: the result could not be serialised as JSON')) + '\n';
    }
    queue.push(line);
    queuedBytes += line.length;
    // Replies of synchronous tools can complete many at a time in one turn: write them out once
    // they add up, so that backpressure (drain) is seen before more requests start.
    if (queuedBytes >= FLUSH_BYTES) flush();
    else if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  }

  function flush(): void {
    flushScheduled = false;
    if (broken || queue.length === 0) return;
    const data = queue.length === 1 ? (queue[0] as string) : queue.join('');
    queue = [];
    queuedBytes = 0;
    if (!writeProtocol(output, data) && !waitingForDrain) {
      waitingForDrain = true;
      output.once('drain', () => {
        waitingForDrain = false;
        flowControl();
        armGrace();
      });
      flowControl();
    }
  }

  /** Starts queued requests while there is room, and pauses reading while the backlog is full. */
  function flowControl(): void {
    while (backlog.length > 0 && pending < maxInFlight && !waitingForDrain && !broken) {
      start(backlog.shift());
    }
    if (broken || ended) return;
    const pause = waitingForDrain || backlog.length >= maxQueued;
    if (pause === paused) return;
    paused = pause;
    if (pause) input.pause();
    else input.resume();
  }

  function finish(): void {
    if (!ended || pending > 0 || backlog.length > 0 || finished) return;
    finished = true;
    clearTimeout(graceTimer);
    // The session is over: the server forgets the connection (no more list changes written).
    connection.close();
    if (broken) return resolveClosed();
    flush();
    // A zero-length write calls back once everything queued before it has been flushed.
    writeProtocol(output, '', () => resolveClosed());
  }

  function settled(): void {
    pending--;
    flowControl();
    finish();
    armGrace();
  }

  function start(message: unknown): void {
    pending++;
    let reply: Promise<Reply>;
    try {
      reply = connection.handle(message);
    } catch (error) {
      reply = Promise.resolve(null);
      server.report(`dispatch failed: ${String(error)}`);
    }
    reply.then(
      (r) => {
        if (r !== null) write(r);
        settled();
      },
      (error: unknown) => {
        server.report(`dispatch failed: ${String(error)}`);
        settled();
      },
    );
  }

  /** A cancel for a request still waiting in the backlog removes it: it never runs, no reply. */
  function cancelQueued(message: unknown): boolean {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    // Only a valid JSON-RPC 2.0 notification cancels (not a request, nor an invalid message).
    if (backlog.length === 0 || m?.method !== 'notifications/cancelled' || classify(message).kind !== 'notification') {
      return false;
    }
    const target = m.params?.requestId;
    if (!isRequestId(target)) return false;
    const index = backlog.findIndex((q) => (q as { id?: unknown }).id === target);
    if (index === -1) return false;
    backlog.splice(index, 1);
    flowControl();
    finish();
    return true;
  }

  function dispatch(message: unknown): void {
    if (cancelQueued(message)) return;
    // Requests wait for a place in flight; notifications (cancels) and responses never wait.
    if ((pending >= maxInFlight || waitingForDrain || backlog.length > 0) && isRequestMessage(message)) {
      backlog.push(message);
      if (backlog.length >= maxQueued) flowControl();
      return;
    }
    start(message);
  }

  function onFrame(frame: Frame): void {
    if (frame.kind === 'line') {
      let message: unknown;
      try {
        message = JSON.parse(frame.text);
      } catch {
        write(errorResponse(undefined, ErrorCode.ParseError, 'Parse error: a line is not valid JSON'));
        return;
      }
      dispatch(message);
    } else if (frame.kind === 'invalid-utf8') {
      write(errorResponse(undefined, ErrorCode.ParseError, 'Parse error: a line is not valid UTF-8'));
    } else {
      server.report(`dropped a line longer than ${frame.limit} bytes`);
      write(
        errorResponse(
          idFromHead(frame.head),
          ErrorCode.InvalidRequest,
          `Invalid Request: message larger than the limit of ${frame.limit} bytes`,
        ),
      );
    }
  }

  function onChunk(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const frame of buffer.push(bytes)) onFrame(frame);
  }

  function onEnd(): void {
    if (ended) return;
    for (const frame of buffer.end()) onFrame(frame);
    ended = true;
    // Nobody can answer or listen any more: subscriptions end, questions to the client fail.
    connection.inputEnded();
    finish();
    armGrace();
  }

  /**
   * After end of input, the session may go on while replies keep coming; once none has come for
   * endGraceMs (a tool that hangs, a client that stopped reading), what is left is abandoned.
   */
  function armGrace(): void {
    if (!ended || finished) return;
    clearTimeout(graceTimer);
    graceTimer = setTimeout(() => {
      server.report(`end of input: ${pending + backlog.length} request(s) made no progress for ${endGraceMs} ms and were abandoned`);
      backlog.length = 0;
      connection.close();
      pending = 0;
      finish();
    }, endGraceMs);
    graceTimer.unref?.();
  }

  function onOutputError(error: NodeJS.ErrnoException): void {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') {
      server.report(`output stream error: ${error.message}`);
    }
    broken = true;
    connection.close();
    stop();
    resolveClosed();
  }

  function stop(): void {
    ended = true;
    input.off('data', onChunk);
    input.off('end', onEnd);
    input.off('close', onEnd);
  }

  input.on('data', onChunk);
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', (error) => {
    server.report(`input stream error: ${error.message}`);
    onEnd();
  });
  output.on('error', onOutputError);

  return {
    connection,
    closed,
    close(): void {
      connection.close();
      backlog.length = 0;
      stop();
      finish();
    },
  };
}

/**
 * Serves `server` on this process's stdin and stdout, and exits the process when done: exit code 0
 * on end of input (after flushing replies), on SIGTERM/SIGINT (after in-flight tools see their
 * abort signal), or when the client closes stdout (EPIPE).
 * Installs the stdout guard first, so nothing but protocol messages reaches stdout.
 */
export function serveStdio(server: Server, options: StdioOptions = {}): StdioSession {
  installStdoutGuard();
  process.on('uncaughtException', (error) => server.report(`uncaught exception (server kept running): ${error.stack ?? String(error)}`));
  process.on('unhandledRejection', (reason) => server.report(`unhandled rejection (server kept running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
  const session = serve(process.stdin, process.stdout, server, options);
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
