// Counts per Streamable HTTP request, which hold on a busy machine where CPU time per request moves
// by 0.7-1.7x between runs (issue 21): for the floor, the baremcp 2025-11-25 session and the
// baremcp 2026-07-28 stateless server of bench/http.js, each a child process on 127.0.0.1 called by
// one keep-alive client (bench/lib/http-client.js) at concurrency 16, every reply checked:
// - instructions per request under valgrind's callgrind: two runs of the server at once, one with
//   WARM requests and then exit, one with WARM and then N more; (instructions of the second − of
//   the first) ÷ N (as bench/callgrind.js does for stdio). --young=MB fixes the young generation
//   (semi-spaces of MB; default 0: V8's own growth, which a run may catch as a start-up
//   mark-compact inside its measured requests: compare function shares with --keep). Slow
//   (several minutes per server on a busy machine); --no-callgrind
//   leaves it out, and it is left out when valgrind is missing.
// - JavaScript heap bytes per request in the server: a young generation large enough that no
//   collection runs while N requests are measured (checked), heapUsed before and after, ÷ N;
//   the median of 5 measures after WARM requests.
//
//   node bench/http-counts.js [--requests=N] [--warm=W] [--only=floor,...] [--no-callgrind] [--no-heap]
//                             [--keep=DIR] [--young=MB] [--json]
//                             [key:mode=path/to/server.js ...]   more servers (mode as bench/http.js --extra)
// --keep=DIR keeps the callgrind output files in DIR (for callgrind_annotate).
// Prints a markdown table (or { rows, markdown } with --json).
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasValgrind } from './callgrind.js';
import { HttpChild } from './lib/http-child.js';
import { McpHttpClient } from './lib/http-client.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONCURRENCY = 16;
const HEAP_FLAGS = ['--min-semi-space-size=256', '--max-semi-space-size=256'];
const MEASURES = 5;
/**
 * A young generation of one fixed size under callgrind: V8 otherwise grows it when it sees fit,
 * at a moment that differs between servers, and a run then counts another number of scavenges
 * (or a start-up mark-compact) than its twin.
 */
const youngFlags = (mb) => (mb > 0 ? [`--min-semi-space-size=${mb}`, `--max-semi-space-size=${mb}`] : []);
/** The servers of bench/http.js measured here: key, label, script, client mode. */
export const COUNT_SERVERS = [
  { key: 'floor', label: 'floor (bare node:http)', argv: ['bench/servers/http/floor.js'], mode: 'stateless' },
  { key: 'baremcp-session', label: 'baremcp, 2025-11-25 session', argv: ['bench/servers/http/baremcp.js'], mode: 'session' },
  { key: 'baremcp-stateless', label: 'baremcp, 2026-07-28 stateless', argv: ['bench/servers/http/baremcp.js'], mode: 'modern' },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn(child, client)` against a started server, then closes both (the child by end of stdin). */
async function withServer(server, options, fn) {
  // Known: in this round, runs with --young=16 or with anyPort (port 0) met ECONNRESET on the
  // session's first requests under callgrind, cause not found; these defaults did not.
  const child = new HttpChild(server, ROOT, { control: true, ...options });
  try {
    await child.start(600_000);
    child.proc.once('exit', (code, signal) => {
      if (!child.closing) process.stderr.write(`[bench:http-counts] ${server.label} exited early: ${code ?? signal}; stderr: ${child.stderr.slice(-1200)}\n`);
    });
    // A connection idle for 1 s is dropped (the servers' keep-alive timeout is node's 5 s).
    const client = new McpHttpClient(server.label, child.origin, server.mode, CONCURRENCY, { keepAliveTimeoutThreshold: 4000 });
    try {
      await client.open();
      return await fn(child, client);
    } finally {
      await client.close();
    }
  } finally {
    child.closing = true;
    await child.close(600_000);
  }
}

/** Total instructions of one server run under callgrind: `warm` then `n` requests, then exit. */
async function instructions(server, warm, n, keep, young) {
  const out = join(keep ?? tmpdir(), `baremcp-http-callgrind-${server.key}-${n}-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const prefix = ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file'];
  await withServer(server, { command: 'valgrind', prefix, flags: youngFlags(young) }, async (_child, client) => {
    await client.load(warm, CONCURRENCY);
    if (n > 0) await client.load(n, CONCURRENCY);
  });
  const text = readFileSync(out, 'utf8');
  if (keep === undefined) rmSync(out, { force: true });
  const match = /^(?:summary|totals):\s+(\d+)/m.exec(text);
  if (match === null) throw new Error('no instruction total in the callgrind output');
  return Number(match[1]);
}

/** Heap bytes per request: the median of MEASURES measures of `n` requests, after `warm`. */
async function heapBytes(server, warm, n) {
  return withServer(server, { flags: HEAP_FLAGS }, async (child, client) => {
    await client.load(warm, CONCURRENCY);
    const measures = [];
    for (let k = 0; k < MEASURES; k++) {
      await child.gc();
      // The observer in the child hears of a collection a little later: let it.
      await sleep(50);
      const before = await child.heap();
      await client.load(n, CONCURRENCY);
      await sleep(50);
      const after = await child.heap();
      if (after.collections !== before.collections) throw new Error(`${server.label}: a collection ran while heap bytes were measured; measure fewer requests`);
      measures.push((after.used - before.used) / n);
    }
    measures.sort((a, b) => a - b);
    return measures[MEASURES >> 1];
  });
}

/** `{ rows, markdown }`: per server, instructions (undefined without callgrind) and heap bytes per request. */
export async function benchHttpCounts({ requests = 2000, warm = 2000, servers = COUNT_SERVERS, callgrind = hasValgrind(), heap = true, keep, young = 0, log = () => {} } = {}) {
  const rows = [];
  for (const server of servers) {
    const row = { server: server.label, key: server.key };
    if (heap) {
      row.heap = await heapBytes(server, warm, requests);
      log(`${server.key}: ${Math.round(row.heap)} heap bytes per request`);
    }
    if (callgrind) {
      // A request under callgrind now and then meets a reset connection (ECONNRESET, not seen
      // without valgrind): the pair is run again, at most twice.
      let base;
      let loaded;
      for (let attempt = 1; loaded === undefined; attempt++) {
        try {
          [base, loaded] = await Promise.all([instructions(server, warm, 0, keep, young), instructions(server, warm, requests, keep, young)]);
        } catch (error) {
          if (attempt === 3) throw error;
          log(`${server.key}: callgrind run ${attempt} failed (${error.message}); again`);
        }
      }
      row.instructions = (loaded - base) / requests;
      log(`${server.key}: ${Math.round(row.instructions)} instructions per request`);
    }
    rows.push(row);
  }
  const [floor] = rows;
  const ratio = (v, f) => (v === undefined || f === undefined ? '–' : `${(v / f).toFixed(2)}×`);
  const count = (v) => (v === undefined ? '–' : Math.round(v).toLocaleString('en'));
  const markdown = [
    `| server (concurrency ${CONCURRENCY}) | instructions per request | ratio to floor | JS heap bytes per request | ratio to floor |`,
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.server} | ${count(r.instructions)} | ${ratio(r.instructions, floor.instructions)} | ${count(r.heap)} | ${ratio(r.heap, floor.heap)} |`),
  ].join('\n');
  return { rows, markdown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      requests: { type: 'string' },
      warm: { type: 'string' },
      only: { type: 'string' },
      'no-callgrind': { type: 'boolean', default: false },
      keep: { type: 'string' },
      young: { type: 'string' },
      'no-heap': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const servers = values.only === undefined ? [...COUNT_SERVERS] : COUNT_SERVERS.filter((s) => values.only.split(',').includes(s.key));
  for (const spec of positionals) {
    // key:mode=path/to/server.js, as bench/http.js --extra
    const match = /^([\w.-]+):(stateless|session|modern)=(.+)$/.exec(spec);
    if (match === null) throw new Error(`${spec}: expected key:mode=path (mode: stateless, session or modern)`);
    servers.push({ key: match[1], label: match[1], argv: [match[3]], mode: match[2] });
  }
  const result = await benchHttpCounts({
    requests: Number(values.requests ?? 2000),
    warm: Number(values.warm ?? 2000),
    servers,
    callgrind: !values['no-callgrind'] && hasValgrind(),
    heap: !values['no-heap'],
    keep: values.keep,
    young: Number(values.young ?? 0),
    log: (line) => process.stderr.write(`[bench:http-counts] ${line}\n`),
  });
  process.stdout.write(values.json ? JSON.stringify(result) + '\n' : result.markdown + '\n');
}
