/**
 * One line of diagnostics on stderr, for the defaults that write there (the server's `report`, the
 * audit policy's sink). Written with `process.stderr.write` where there is one (Node, Deno, Bun):
 * `console.error` formats its argument and sets up the console first, about a millisecond of a
 * cold start for the one line an HTTP server reports at start; elsewhere (Workers) with
 * `console.error`. Never stdout (stdout carries protocol messages only).
 * @module
 */

/** What {@link writeStderr} uses of `process.stderr` (Node, Deno, Bun). */
interface ErrorStream {
  write?: (text: string) => unknown;
  on?: (event: 'error', listener: () => void) => unknown;
  listenerCount?: (event: 'error') => number;
}

/** True once {@link writeStderr} has written (and listened for stderr's errors if need be). */
let heard = false;

/** Ignores an error of stderr (its reader gone): diagnostics are lost, the server goes on. */
function ignoreStderrError(): void {}

/**
 * Writes `line` and a newline to stderr. A stderr whose reader is gone (EPIPE) emits `'error'`;
 * unheard, that ends the process (with `console.error` too, for a line written after the pipe
 * failed: measured on Node 20). So the first write adds one no-op listener, unless the
 * application has one of its own.
 */
export function writeStderr(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: ErrorStream } }).process?.stderr;
  if (typeof stderr?.write !== 'function') {
    console.error(line);
    return;
  }
  if (!heard && typeof stderr.on === 'function' && stderr.listenerCount?.('error') === 0) {
    stderr.on('error', ignoreStderrError);
  }
  heard = true;
  stderr.write(`${line}\n`);
}
