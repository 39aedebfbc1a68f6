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

/**
 * The server process ended before it answered the handshake. `stderr` is the end of what it
 * wrote there (up to 2,000 characters; empty unless stderr was `'pipe'`).
 */
export class ServerExitError extends Error {
  /** Its exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: string | null;
  /** The end of its stderr, trimmed. */
  readonly stderr: string;
  constructor(exitCode: number | null, signal: string | null, stderr: string) {
    super(`server exited (${signal ?? `code ${exitCode}`}) before replying`);
    this.name = 'ServerExitError';
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderr = stderr;
  }
}

/** spawnClient's documented message for a server that died before replying. */
const EXITED =
  /^server exited \((?:code (\d+|null)|([A-Z0-9]+))\) before replying(?:; stderr: ([\s\S]*))?$/;

/** Options for {@link spawnStdioClient}. */
export interface SpawnOptions {
  /** Milliseconds to wait for each reply. @default 30000 */
  timeoutMs?: number;
  /**
   * Where the server's stderr goes (`'pipe'`: kept, for a {@link ServerExitError}).
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'ignore' | 'pipe';
  /** The client name sent in `initialize`. @default 'baremcp-cli' */
  clientName?: string;
  /** The server process's environment. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * Spawns `command` with `args`, performs `initialize` and `notifications/initialized`.
 * @throws {ServerExitError} when the process exits before replying; {@link Error} when it cannot
 *   start, or the handshake fails or times out.
 */
export async function spawnStdioClient(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<StdioClient> {
  let client: Awaited<ReturnType<typeof spawnClient>>;
  try {
    client = await spawnClient(command, args, {
      stderr: options.stderr ?? 'inherit',
      clientInfo: { name: options.clientName ?? 'baremcp-cli', version: '0' },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (error) {
    const m = EXITED.exec((error as Error).message);
    if (m === null) throw error;
    const code = m[1] === undefined || m[1] === 'null' ? null : Number(m[1]);
    throw new ServerExitError(code, m[2] ?? null, (m[3] ?? '').trim());
  }
  return {
    request: (method, params) => client.request(method, params),
    listTools: async () => (await client.listTools()) as unknown as JsonObject[],
    close: (graceMs) => client.close(graceMs),
  };
}

/**
 * What a person reads when the server `label` (e.g. `node other-server.js`) died before replying:
 * how it ended and the end of its stderr, indented (a line cut by the 2,000-character limit is
 * dropped). With `shown` (its stderr went to the terminal, `--verbose`), only how it ended.
 * No trailing newline.
 */
export function describeExit(error: ServerExitError, label: string, shown = false): string {
  const how =
    error.signal === null ? `exited (code ${error.exitCode})` : `was killed (${error.signal})`;
  if (shown) return `${label} ${how} before replying (its stderr is above)`;
  if (error.stderr === '') return `${label} ${how} before replying, and wrote nothing on stderr`;
  const lines = error.stderr.split('\n');
  if (error.stderr.length >= 2000 && lines.length > 1) lines.shift();
  const tail = lines.map((l) => `  ${l}`).join('\n');
  return `${label} ${how} before replying; the end of its stderr:\n${tail}`;
}
