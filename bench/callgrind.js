// Instructions under valgrind's callgrind: a count, not a time, so it holds on a busy machine
// where CPU time per call moves by 20% between runs and a cold start by 2x. For each server:
// - per tools/call: one session with a 2,000-call warm-up and no measured calls, one with the
//   warm-up and then CALLS calls at 256 in flight; (instructions of the second − of the first)
//   ÷ CALLS;
// - cold start: a whole session of initialize, one tools/call and end of input (start-up, the
//   first reply and exit).
// The three sessions of a server run at once.
//
//   node bench/callgrind.js [--calls=N] [--json] [key=script ...]
// Prints a markdown table (or { rows, markdown } with --json); bench/run.js includes it when
// valgrind is installed.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioChild } from './lib/child.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ARGS = { text: 'hello world', count: 2, loud: true, tags: ['a', 'b'] };
const EXPECTED = 'HELLO WORLD HELLO WORLD';
const DEFAULT_SERVERS = [
  ['floor', ['bench/servers/floor.js']],
  ['baremcp (createServer)', ['bench/servers/baremcp-api.js']],
  ['baremcp (CLI serve)', ['dist/bundle/cli/main.js', 'serve', 'bench/servers/baremcp-echo.js']],
  // The stdio transport alone, over a dispatcher that answers like the floor.
  ['baremcp stdio transport, floor dispatch', ['bench/servers/transport-only.js']],
];

const calls = (from, n) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: from + i, method: 'tools/call', params: { name: 'echo', arguments: ARGS } }) + '\n');

/** True when valgrind can run here. */
export function hasValgrind() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Total instructions of one session of `argv`: with `n` measured calls after the warm-up, or
 * (`n` = -1) a cold session: initialize, one call, end of input.
 */
async function session(argv, n) {
  const out = join(tmpdir(), `baremcp-callgrind-${process.pid}-${n}-${Math.random().toString(36).slice(2)}`);
  const child = new StdioChild('callgrind', argv, ROOT);
  child.command = 'valgrind';
  child.prefix = ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', process.execPath];
  child.start();
  try {
    await child.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'callgrind', version: '1' } }, 300_000);
    child.notify('notifications/initialized');
    const check = (m) => m.result?.content?.[0]?.text === EXPECTED;
    if (n === -1) {
      const first = await child.request('tools/call', { name: 'echo', arguments: ARGS }, 300_000);
      if (!check(first.message)) throw new Error(`bad reply ${JSON.stringify(first.message).slice(0, 200)}`);
    } else {
      const warm = await child.burst(calls(1_000_000, 2000), 256, check, 600_000);
      if (warm.bad > 0) throw new Error(`${warm.bad} bad replies in the warm-up`);
    }
    if (n > 0) {
      const measured = await child.burst(calls(10, n), 256, check, 600_000);
      if (measured.bad > 0) throw new Error(`${measured.bad} bad replies`);
    }
  } finally {
    await child.close(600_000);
  }
  return total(out);
}

/** The instruction total in a callgrind output file (which is then removed). */
function total(out) {
  const text = readFileSync(out, 'utf8');
  rmSync(out, { force: true });
  const match = /^(?:summary|totals):\s+(\d+)/m.exec(text);
  if (match === null) throw new Error('no instruction total in the callgrind output');
  return Number(match[1]);
}

/** Instructions per call for each server: `{ rows, markdown }`. */
export async function benchCallgrind({ calls: n = 20_000, servers = DEFAULT_SERVERS } = {}) {
  const rows = [];
  for (const [name, argv] of servers) {
    const [base, loaded, cold] = await Promise.all([session(argv, 0), session(argv, n), session(argv, -1)]);
    rows.push({ server: name, perCall: (loaded - base) / n, cold });
  }
  const [floor] = rows;
  const millions = (v) => `${(v / 1e6).toFixed(1)}M`;
  const markdown = [
    `| server | instructions per \`tools/call\` | ratio to ${floor.server} | cold start: spawn, initialize, one call, exit | ratio to ${floor.server} |`,
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.server} | ${Math.round(r.perCall).toLocaleString('en')} | ${(r.perCall / floor.perCall).toFixed(2)}× | ${millions(r.cold)} | ${(r.cold / floor.cold).toFixed(2)}× |`,
    ),
  ].join('\n');
  return { rows, markdown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { calls: { type: 'string' }, json: { type: 'boolean', default: false } }, allowPositionals: true });
  const servers = positionals.length === 0 ? DEFAULT_SERVERS : positionals.map((p) => [p.split('=')[0], [p.split('=')[1]]]);
  const result = await benchCallgrind({ calls: Number(values.calls ?? 20_000), servers });
  process.stdout.write(values.json ? JSON.stringify(result) + '\n' : result.markdown + '\n');
}
