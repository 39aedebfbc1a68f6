/**
 * The stdio client behind `baremcp call` and `baremcp check`: the `baremcp/testing` process client
 * (`spawnClient`), with the CLI's defaults (stderr shown, client name `baremcp-cli`).
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Basic / Transports / stdio.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { spawnClient } from '../testing/stdio.js';

/** A connected stdio client. */
export interface StdioClient {
  /** Sends a request and resolves to its `result`; rejects with `RpcError` for an error reply. */
  request(method: string, params?: JsonObject): Promise<JsonObject>;
  /** Every tool, following `nextCursor` through all pages. */
  listTools(): Promise<JsonObject[]>;
  /** Ends the server's stdin and waits for it to exit (kills it after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/** Options for {@link spawnStdioClient}. */
export interface SpawnOptions {
  /** Milliseconds to wait for each reply. @default 30000 */
  timeoutMs?: number;
  /** Where the server's stderr goes. @default 'inherit' */
  stderr?: 'inherit' | 'ignore' | 'pipe';
  /** The client name sent in `initialize`. @default 'baremcp-cli' */
  clientName?: string;
  /** The server process's environment. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * Spawns `command` with `args`, performs `initialize` and `notifications/initialized`.
 * @throws {Error} when the process cannot start, exits early, or the handshake fails or times out.
 */
export async function spawnStdioClient(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<StdioClient> {
  const client = await spawnClient(command, args, {
    stderr: options.stderr ?? 'inherit',
    clientInfo: { name: options.clientName ?? 'baremcp-cli', version: '0' },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  return {
    request: (method, params) => client.request(method, params),
    listTools: async () => (await client.listTools()) as unknown as JsonObject[],
    close: (graceMs) => client.close(graceMs),
  };
}
