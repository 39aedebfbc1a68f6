/**
 * `baremcp check`: lints every tool's schemas against vendors' strict modes (placeholder until
 * the strict-subset checker lands).
 * @module
 */
import type { ParsedArgs } from '../args.js';

/** Runs `check`; returns the exit code. */
export async function runCheck(_args: ParsedArgs): Promise<number> {
  process.stderr.write('baremcp check: not implemented yet\n');
  return 2;
}
