/**
 * The one session that serves this process's stdin. A process has one stdin: a second reader
 * would see every request too and answer it a second time on the same stdout. `serveStdio`
 * records its session here and a later call finds it; `baremcp serve` finds the session a module
 * started itself while it loaded (`serveStdio(server)` at its top level) and leaves the serving to
 * it. The record lives on `globalThis` under a registered symbol, so every copy of baremcp in the
 * process (the CLI's bundle, a copy the module has installed) sees the same one.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio (the client launches the server as a
 * subprocess and exchanges messages over its stdin and stdout).
 * @module
 */
import type { StdioSession } from './stdio.js';

/** The key on `globalThis`: the same symbol in every copy of baremcp (`Symbol.for`). */
const KEY: unique symbol = Symbol.for('baremcp.stdin-session');

type Holder = { [KEY]?: StdioSession };

/** The session serving this process's stdin, or undefined when `serveStdio` has not run. */
export function stdinSession(): StdioSession | undefined {
  return (globalThis as Holder)[KEY];
}

/** Records `session` as the one serving this process's stdin (for the rest of the process). */
export function claimStdin(session: StdioSession): void {
  (globalThis as Holder)[KEY] = session;
}
