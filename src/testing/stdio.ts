/**
 * `spawnClient(command, args)`: a test client for any MCP server that speaks stdio. Spawns the
 * process, frames newline-delimited JSON both ways, does the handshake, and records every stdout
 * line that is not a JSON-RPC message (a server must print nothing else there). Also the client
 * behind `baremcp call` and `baremcp check`.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio, Basic / Lifecycle ("Shutdown": close stdin,
 * then wait, then kill).
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isObject } from '../protocol/messages.js';
import { LineBuffer } from '../transport/line-buffer.js';
import { startClient } from './client.js';
import { Peer } from './peer.js';
import type { ClientOptions, TestClient } from './types.js';

/** Options for {@link spawnClient}. */
export interface SpawnClientOptions extends ClientOptions {
  /**
   * Where the server's stderr goes: `'pipe'` keeps it for `stderr()`, `'inherit'` shows it.
   * @default 'pipe'
   */
  stderr?: 'pipe' | 'inherit' | 'ignore';
  /** The server's environment. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The server's working directory. @default the current one */
  cwd?: string;
}

/** A test client connected to a server process. */
export interface ProcessClient extends TestClient {
  /** The server process. */
  readonly child: ChildProcess;
  /** Lines the server wrote to stdout that are not JSON-RPC messages (each one a protocol bug). */
  readonly strayOutput: string[];
  /** What the server wrote to stderr so far (with `stderr: 'pipe'`; the last 1 MiB). */
  stderr(): string;
  /**
   * Ends the server's stdin (the stdio shutdown), waits up to `graceMs` for it to exit, then
   * kills it. Resolves once it exited. Safe to call twice.
   */
  close(graceMs?: number): Promise<void>;
}

/** Largest line read from the server. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Characters of stderr kept. */
const MAX_STDERR = 1024 * 1024;

/**
 * Spawns `command` with `args` and connects a test client to it over stdio; resolves after the
 * handshake. Pass `process.execPath` as the command to run a script with this Node.
 * @throws {Error} (as a rejection) when the process cannot start (`could not start <cmd>: …`),
 *   exits before answering (`server exited (code 1) before replying`, with its stderr), or does
 *   not answer the handshake within `timeoutMs`; {@link RpcError} when it refuses the handshake.
 * @example
 * const client = await spawnClient(process.execPath, ['server.js']);
 * assert.deepEqual((await client.listTools()).map((t) => t.name), ['add']);
 * await client.close();
 */
export async function spawnClient(
  command: string,
  args: readonly string[] = [],
  options: SpawnClientOptions = {},
): Promise<ProcessClient> {
  const stderrMode = options.stderr ?? 'pipe';
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', stderrMode],
    env: options.env ?? process.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-MAX_STDERR);
  });
  const strayOutput: string[] = [];
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const peer = new Peer({
    timeoutMs: options.timeoutMs ?? 30_000,
    handlers: options.handlers ?? {},
    ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
    send: (message) => {
      if (child.stdin === null || child.stdin.destroyed || !child.stdin.writable)
        throw new Error('the server closed its stdin');
      child.stdin.write(JSON.stringify(message) + '\n');
    },
  });
  const tail = (): string =>
    stderr.trim() === '' ? '' : `; stderr: ${stderr.trim().slice(-2000)}`;
  child.on('error', (error) =>
    peer.fail(new Error(`could not start ${command}: ${error.message}`)),
  );
  child.on('exit', (code, signal) =>
    peer.fail(new Error(`server exited (${signal ?? `code ${code}`}) before replying${tail()}`)),
  );
  child.stdin?.on('error', () => {});
  const buffer = new LineBuffer(MAX_LINE_BYTES);
  child.stdout?.on('data', (chunk: Uint8Array) => {
    for (const frame of buffer.push(chunk)) {
      if (frame.kind !== 'line') {
        strayOutput.push(
          frame.kind === 'too-long'
            ? `(a line over ${frame.limit} bytes)`
            : '(a line that is not UTF-8)',
        );
        continue;
      }
      if (frame.text.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(frame.text);
      } catch {
        message = undefined;
      }
      const items = Array.isArray(message) ? message : [message];
      if (items.length === 0 || !items.every((m) => isObject(m) && m.jsonrpc === '2.0'))
        strayOutput.push(frame.text);
      else peer.receive(message);
    }
  });

  let closing: Promise<void> | undefined;
  const close = (graceMs = 2000): Promise<void> =>
    (closing ??= (async () => {
      peer.fail(new Error('the test client was closed'));
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.stdin?.end();
        await exited;
        clearTimeout(timer);
      }
    })());

  let client: TestClient;
  try {
    client = await startClient(peer, options, () => close());
  } catch (error) {
    await close(200);
    throw error;
  }
  return { ...client, child, strayOutput, stderr: () => stderr, close };
}
