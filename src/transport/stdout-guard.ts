/**
 * Keeps stdout for protocol messages only: while installed, `console.log/info/debug` and direct
 * `process.stdout.write` calls go to stderr, and only the transport writes to the real stdout.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio ("The server MUST NOT write anything to its
 * stdout that is not a valid MCP message").
 * @module
 */
import type { Writable } from 'node:stream';

type Write = Writable['write'];

const originals = new WeakMap<object, Write>();

/**
 * Diverts everything written to `process.stdout` (and `console.log/info/debug`) to stderr.
 * Idempotent. Install it before importing user code, which may print while it loads.
 */
export function installStdoutGuard(): void {
  const stdout = process.stdout;
  if (originals.has(stdout)) return;
  originals.set(stdout, stdout.write);
  const toStderr = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as Write;
  stdout.write = toStderr;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}

/**
 * Writes protocol bytes to `stream`, bypassing the guard when it is installed on that stream.
 * @returns what `Writable.write` returns: false when the caller should wait for `drain`.
 */
export function writeProtocol(stream: Writable, data: string, callback?: (error?: Error | null) => void): boolean {
  const write = originals.get(stream) ?? stream.write;
  return (write as (data: string, callback?: (error?: Error | null) => void) => boolean).call(stream, data, callback);
}
