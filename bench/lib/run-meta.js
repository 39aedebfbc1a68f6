// What every benchmark report says about its run: when, which mode, the machine, Node, the load.
import { cpus, loadavg } from 'node:os';

/**
 * The header facts of a report: `date` (UTC, to the minute), `mode` (`--quick` or default), `cpu`,
 * `cores`, `node`, and `load` (the 1-minute load average at the start, `loadBefore`, and now).
 */
export function runMeta({ quick, loadBefore }) {
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    mode: quick ? '`--quick`' : 'default',
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: cpus().length,
    node: process.versions.node,
    load: `load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`,
  };
}
