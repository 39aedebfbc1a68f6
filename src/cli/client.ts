/**
 * A minimal MCP client over stdio, used by `baremcp call` and `baremcp check`: spawns a server,
 * does the handshake, sends requests and matches replies by id.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Basic / Transports / stdio.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { RpcError } from '../protocol/errors.js';
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import { LineBuffer } from '../transport/line-buffer.js';

/** A connected stdio client. */
export interface StdioClient {
  /** The `initialize` result. */
  readonly initialize: JsonObject;
  /** Sends a request and resolves to its `result`; rejects with `RpcError` for an error reply. */
  request(method: string, params?: JsonObject): Promise<JsonObject>;
  /** Every tool, following `nextCursor` through all pages. */
  listTools(): Promise<JsonObject[]>;
  /** Ends the server's stdin and waits for it to exit (kills it after `graceMs`). */
  close(graceMs?: number): Promise<number | null>;
}

/** Options for {@link spawnStdioClient}. */
export interface SpawnOptions {
  /** Milliseconds to wait for each reply. @default 30000 */
  timeoutMs?: number;
  /** Where the server's stderr goes. @default 'inherit' */
  stderr?: 'inherit' | 'ignore' | 'pipe';
  /** The client name sent in `initialize`. */
  clientName?: string;
  /** Extra environment for the server process. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Spawns `command` with `args`, performs `initialize` and `notifications/initialized`.
 * @throws {Error} when the process cannot start, exits early, or the handshake fails or times out.
 */
export async function spawnStdioClient(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<StdioClient> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child: ChildProcess = spawn(command, args, {
    stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'],
    env: options.env ?? process.env,
  });
  const pending = new Map<number, { resolve(v: JsonObject): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let exited: Error | undefined;
  const buffer = new LineBuffer(64 * 1024 * 1024);

  const failAll = (error: Error): void => {
    exited = error;
    for (const entry of pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    pending.clear();
  };
  child.on('error', (error) => failAll(new Error(`could not start ${command}: ${error.message}`)));
  child.on('exit', (code, signal) => failAll(new Error(`server exited (${signal ?? `code ${code}`}) before replying`)));
  child.stdin?.on('error', () => {});
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const frame of buffer.push(chunk)) {
      if (frame.kind !== 'line') continue;
      let message: unknown;
      try {
        message = JSON.parse(frame.text);
      } catch {
        continue;
      }
      if (!isObject(message) || typeof message.id !== 'number' || 'method' in message) continue;
      const entry = pending.get(message.id);
      if (entry === undefined) continue;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      if (isObject(message.error)) {
        const e = message.error;
        entry.reject(new RpcError(Number(e.code), String(e.message), e.data as JsonValue));
      } else {
        entry.resolve(isObject(message.result) ? (message.result as JsonObject) : {});
      }
    }
  });

  const send = (message: JsonObject): void => {
    child.stdin?.write(JSON.stringify(message) + '\n');
  };
  const request = (method: string, params?: JsonObject): Promise<JsonObject> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise<JsonObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`no reply to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  };

  const close = (graceMs = 2000): Promise<number | null> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      child.stdin?.end();
    });

  let initialize: JsonObject;
  try {
    initialize = await request('initialize', {
      protocolVersion: LATEST_LEGACY_REVISION,
      capabilities: {},
      clientInfo: { name: options.clientName ?? 'baremcp-cli', version: '0' },
    });
  } catch (error) {
    await close(200);
    throw error;
  }
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });

  return {
    initialize,
    request,
    async listTools(): Promise<JsonObject[]> {
      const tools: JsonObject[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page++) {
        const result = await request('tools/list', cursor === undefined ? {} : { cursor });
        if (Array.isArray(result.tools)) tools.push(...(result.tools.filter(isObject) as JsonObject[]));
        if (typeof result.nextCursor !== 'string' || result.nextCursor === '') break;
        cursor = result.nextCursor;
      }
      return tools;
    },
    close,
  };
}
