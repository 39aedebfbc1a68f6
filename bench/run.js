// The benchmark driver (issue 9): spawns each server over stdio, interleaving them round-robin,
// and measures cold start, throughput, latency, CPU per call, memory, a 1 MiB round trip and the
// installed footprint; then runs the Streamable HTTP suite (bench/http.js), the in-process
// `handle()` benchmark, the authorization benchmark (bench/auth.js), instructions per call under
// callgrind (bench/callgrind.js, when valgrind is installed) and the validator benchmark. Prints
// the tables and writes bench/RESULTS.md.
//
//   npm run bench                 the default run (about ten minutes on 2 cores)
//   node bench/run.js --quick     a smaller run (printed only; --out=FILE to keep it)
//   node bench/run.js --only=floor,baremcp-cli   a subset of the stdio servers (ratios need floor
//                                 and sdk-v1); the HTTP suite is then left out unless --http-only
//   node bench/run.js --http-only=floor,baremcp-session   the HTTP suite's servers (bench/http.js --only)
//   node bench/run.js --skip-http                leave the HTTP suite out (`node bench/http.js` runs it alone)
//   node bench/run.js --http-callgrind           also instructions per HTTP request (bench/http-counts.js
//                                 under callgrind: about ten minutes more); heap bytes per request always
//   node bench/run.js --extra=patched=/tmp/x/server.js   also measure another server script
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { footprint, tarball } from './lib/installed.js';
import { hasValgrind } from './callgrind.js';
import { StdioChild, cpuNs, cpuTicks, vm } from './lib/child.js';
import { objectsTable, render } from './lib/report.js';
import { percentile } from './lib/stats.js';
import { roundRobin } from './lib/round-robin.js';
import { runMeta } from './lib/run-meta.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const SERVERS = [
  { key: 'baremcp-cli', label: 'baremcp (CLI serve)', argv: ['dist/bundle/cli/main.js', 'serve', 'bench/servers/baremcp-echo.js'], pkg: null },
  { key: 'baremcp-api', label: 'baremcp (createServer)', argv: ['bench/servers/baremcp-api.js'], pkg: null },
  { key: 'baremcp-isolated', label: 'baremcp (serve --isolate)', argv: ['dist/bundle/cli/main.js', 'serve', '--isolate', 'bench/servers/baremcp-echo.js'], pkg: null },
  { key: 'sdk-v1', label: 'SDK v1', argv: ['bench/servers/sdk-v1.js'], pkg: '@modelcontextprotocol/sdk' },
  { key: 'sdk-v2', label: 'SDK v2', argv: ['bench/servers/sdk-v2.js'], pkg: '@modelcontextprotocol/server' },
  { key: 'fastmcp', label: 'fastmcp', argv: ['bench/servers/fastmcp.js'], pkg: 'fastmcp' },
  { key: 'floor', label: 'floor (bare Node)', argv: ['bench/servers/floor.js'], pkg: null },
];
/** The other shapes of a bare server tried for the floor, measured in every run: floor.js is the fastest. */
SERVERS.push(
  { key: 'floor-bytes', label: 'floor candidate: bytes', argv: ['bench/servers/floor-candidates/bytes.js'], pkg: null },
  { key: 'floor-blocking', label: 'floor candidate: blocking', argv: ['bench/servers/floor-candidates/blocking.js'], pkg: null },
  { key: 'floor-readline', label: 'floor candidate: readline', argv: ['bench/servers/floor-candidates/readline.js'], pkg: null },
);

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'cold-reps': { type: 'string' },
    'load-reps': { type: 'string' },
    calls: { type: 'string' },
    extra: { type: 'string', multiple: true },
    out: { type: 'string' },
    'http-only': { type: 'string' },
    'skip-http': { type: 'boolean', default: false },
    'http-callgrind': { type: 'boolean', default: false },
  },
});
// --extra=key=path/to/server.js adds a server (e.g. a patched build) to compare in the same run.
for (const spec of opts.extra ?? []) {
  const [key, script] = spec.split('=');
  SERVERS.push({ key, label: key, argv: [script], pkg: null });
}
const QUICK = opts.quick;
const COLD_REPS = Number(opts['cold-reps'] ?? (QUICK ? 2 : 9));
const LOAD_REPS = Number(opts['load-reps'] ?? (QUICK ? 1 : 3));
const CALLS = Number(opts.calls ?? (QUICK ? 5000 : 20000));
const WINDOW = 256;
const WARM_CALLS = QUICK ? 1000 : 2000;
const SEQ_CALLS = QUICK ? 300 : 2000;
const MIB_TRIPS = 3;
const SETTLE_MS = 300;
const servers = opts.only ? SERVERS.filter((s) => opts.only.split(',').includes(s.key)) : SERVERS;

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'baremcp-bench', version: '1.0.0' } };
const ARGS = { text: 'hello world', count: 2, loud: true, tags: ['a', 'b'] };
const EXPECTED = 'HELLO WORLD HELLO WORLD';
const CALL = { name: 'echo', arguments: ARGS };
const BIG = 'x'.repeat(1024 * 1024);

const checkCall = (m) => m.result?.isError !== true && m.result?.content?.[0]?.text === EXPECTED;
const callLines = (from, n) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: from + i, method: 'tools/call', params: CALL }) + '\n');
const WARM_LINES = callLines(1_000_000, WARM_CALLS);
const BURST_LINES = callLines(2_000_000, CALLS);
const ALL_LINES = callLines(3_000_000, CALLS);

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

const samples = Object.fromEntries(servers.map((s) => [s.key, {}]));
const problems = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line) => process.stderr.write(`[bench] ${line}\n`);
const reporting = { log, problems };

function add(server, key, value) {
  (samples[server.key][key] ??= []).push(value);
}

function expect(server, condition, what) {
  if (!condition) throw new Error(`${server.label}: ${what}`);
}

async function handshake(server, child) {
  const init = await child.request('initialize', INIT);
  expect(server, init.message.result?.protocolVersion === INIT.protocolVersion, `bad initialize reply ${JSON.stringify(init.message).slice(0, 300)}`);
  child.notify('notifications/initialized');
  return init;
}

/** One cold start: spawn → initialize reply → first tools/call reply; then idle RSS and 1 MiB trips. */
async function cold(server, record) {
  const child = new StdioChild(server.label, server.argv, ROOT).start();
  try {
    const init = await handshake(server, child);
    const call = await child.request('tools/call', CALL);
    expect(server, checkCall(call.message), `bad tools/call reply ${JSON.stringify(call.message).slice(0, 300)}`);
    const list = await child.request('tools/list');
    const tool = list.message.result?.tools?.find((t) => t.name === 'echo');
    expect(server, tool?.inputSchema?.properties?.count !== undefined, `echo missing from tools/list: ${JSON.stringify(list.message).slice(0, 300)}`);
    if (!record) {
      // Does the server check arguments at all? (the floor does not; see the table)
      const invalid = await child.request('tools/call', { name: 'echo', arguments: { count: 2 } });
      add(server, 'validates', invalid.message.error !== undefined || invalid.message.result?.isError === true ? 1 : 0);
      return;
    }
    await sleep(SETTLE_MS);
    add(server, 'init', init.at - child.t0);
    add(server, 'firstCall', call.at - child.t0);
    add(server, 'rssIdle', vm(child.pid, 'VmRSS'));
    // The 1 MiB round trips run here, on a fresh server: after a 20,000-call burst some peers
    // spend seconds collecting garbage, which would swamp the figure.
    for (let i = 0; i < MIB_TRIPS; i++) {
      const t = performance.now();
      const reply = await child.request('tools/call', { name: 'echo', arguments: { text: BIG } });
      expect(server, reply.message.result?.content?.[0]?.text?.length === BIG.length, `bad 1 MiB reply ${JSON.stringify(reply.message).slice(0, 300)}`);
      add(server, 'mib', reply.at - t);
    }
  } finally {
    await child.close();
  }
}

/** One loaded session: warm-up, sequential latency, then two bursts. */
async function load(server) {
  const child = new StdioChild(server.label, server.argv, ROOT).start();
  try {
    await handshake(server, child);
    await child.request('tools/list');
    const warm = await child.burst(WARM_LINES, WINDOW, checkCall);
    expect(server, warm.bad === 0, `${warm.bad} bad replies in the warm-up`);

    const latencies = [];
    for (let i = 0; i < SEQ_CALLS; i++) {
      const t = performance.now();
      const reply = await child.request('tools/call', CALL);
      latencies.push((reply.at - t) * 1000);
    }
    add(server, 'p50', percentile(latencies, 50));
    add(server, 'p99', percentile(latencies, 99));

    for (const [lines, window, thr, cpu, hwm] of [
      [BURST_LINES, WINDOW, 'thr256', 'cpu256', 'hwm256'],
      [ALL_LINES, Infinity, 'thrAll', 'cpuAll', 'hwmAll'],
    ]) {
      const before = cpuTicks(child.pid);
      const nsBefore = cpuNs(child.pid);
      const driverBefore = process.cpuUsage();
      const result = await child.burst(lines, window, checkCall);
      const nsAfter = cpuNs(child.pid);
      const ticks = cpuTicks(child.pid) - before;
      const driver = process.cpuUsage(driverBefore);
      if (result.bad > 0) problems.push(`${server.label}: ${result.bad} of ${lines.length} replies wrong in the ${thr} burst`);
      add(server, thr, (lines.length * 1000) / result.ms);
      const serverUs = nsBefore !== undefined && nsAfter !== undefined ? (nsAfter - nsBefore) / 1e3 : (ticks / CLK_TCK) * 1e6;
      add(server, cpu, serverUs / lines.length);
      add(server, hwm, vm(child.pid, 'VmHWM'));
      add(server, `${thr}-driver`, (driver.user + driver.system) / lines.length);
    }
  } finally {
    await child.close();
  }
}

/**
 * Runs a node script and returns its stdout (JSON for the in-process benchmarks). `passStderr`:
 * its stderr goes on to ours as it comes (progress lines), and a non-zero exit still returns the
 * output when there is any (bench/http.js exits 1 after a wrong reply but prints its results).
 */
function runNode(args, passStderr = false) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', passStderr ? 'inherit' : 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code === 0 || (passStderr && out.trim() !== '')) resolve(out);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.trim().slice(-800)}`));
    });
  });
}

/** Turns whatever `benchValidate()` returned into markdown. */
function validateMarkdown(result) {
  if (typeof result === 'string') return result;
  if (Array.isArray(result)) return objectsTable(result);
  if (typeof result?.markdown === 'string') return result.markdown;
  if (Array.isArray(result?.rows)) return objectsTable(result.rows);
  return '```json\n' + JSON.stringify(result, null, 2) + '\n```';
}

function versionOf(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'dist/bundle/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const started = performance.now();
  const loadBefore = loadavg()[0];
  log(`servers: ${servers.map((s) => s.key).join(', ')}; cold ×${COLD_REPS}, load ×${LOAD_REPS}, ${CALLS} calls per burst`);

  for (const server of servers) {
    try {
      await cold(server, false); // warms the file cache; fails fast on a broken server
    } catch (error) {
      server.failed = true;
      problems.push(`${server.label} could not start: ${error.message}`);
      log(`${server.key} FAILED to start: ${error.message}`);
    }
  }
  await roundRobin(servers, COLD_REPS, 'cold', (s) => cold(s, true), reporting);
  await roundRobin(servers, LOAD_REPS, 'load', load, reporting);

  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  for (const server of servers) {
    const installed = server.pkg === null ? { packages: 0, bytes: 0 } : footprint(ROOT, server.pkg);
    if (installed === undefined) continue;
    add(server, 'pkgs', installed.packages);
    add(server, 'disk', installed.bytes);
  }
  let pack;
  try {
    pack = tarball(ROOT);
  } catch (error) {
    problems.push(`npm pack --dry-run failed: ${error.message}`);
  }

  let http;
  if (!opts['skip-http'] && (opts.only === undefined || opts['http-only'] !== undefined)) {
    try {
      log('Streamable HTTP suite (bench/http.js)');
      const args = ['bench/http.js', '--json', ...(QUICK ? ['--quick'] : []), ...(opts['http-only'] ? [`--only=${opts['http-only']}`] : [])];
      const result = JSON.parse(await runNode(args, true));
      http = result.markdown;
      for (const problem of result.problems) problems.push(`HTTP: ${problem}`);
    } catch (error) {
      problems.push(`HTTP benchmark failed: ${error.message}`);
    }
  }

  let httpCounts;
  if (!opts['skip-http'] && opts.only === undefined) {
    try {
      const callgrind = opts['http-callgrind'] && hasValgrind();
      log(`Streamable HTTP counts per request (bench/http-counts.js${callgrind ? ', with callgrind' : ''})`);
      httpCounts = JSON.parse(await runNode(['bench/http-counts.js', '--json', ...(callgrind ? [] : ['--no-callgrind'])])).markdown;
    } catch (error) {
      problems.push(`HTTP counts failed: ${error.message}`);
    }
  }

  let handle;
  try {
    log('handle() micro-benchmark');
    handle = JSON.parse(await runNode(['bench/handle.js', '--json', ...(QUICK ? ['--quick'] : [])])).markdown;
  } catch (error) {
    problems.push(`handle benchmark failed: ${error.message}`);
  }
  let auth;
  try {
    log('authorization benchmark');
    auth = JSON.parse(await runNode(['bench/auth.js', '--json', ...(QUICK ? ['--quick'] : [])])).markdown;
  } catch (error) {
    problems.push(`authorization benchmark failed: ${error.message}`);
  }
  let callgrind;
  if (hasValgrind() && !QUICK) {
    try {
      log('instructions per call under callgrind (floor, baremcp)');
      callgrind = JSON.parse(await runNode(['bench/callgrind.js', '--json'])).markdown;
    } catch (error) {
      problems.push(`callgrind benchmark failed: ${error.message}`);
    }
  }
  let validate;
  if (existsSync(join(ROOT, 'bench/validate.js'))) {
    try {
      log('validator benchmark');
      const script =
        `const { benchValidate } = await import('./bench/validate.js');` +
        `const r = await benchValidate({ quick: ${QUICK}, print: false${QUICK ? ', ms: 200, rounds: 50' : ''} });` +
        `process.stdout.write('\\n@@bench-json ' + JSON.stringify(r ?? null) + '\\n');`;
      const out = await runNode(['--input-type=module', '-e', script]);
      const marker = out.lastIndexOf('\n@@bench-json ');
      if (marker === -1) throw new Error(`no result printed: ${out.slice(-300)}`);
      validate = validateMarkdown(JSON.parse(out.slice(marker + '\n@@bench-json '.length)));
    } catch (error) {
      problems.push(`validator benchmark failed: ${error.message}`);
    }
  }

  const driverNote = servers
    .map((s) => {
      const d = samples[s.key]['thr256-driver'];
      return d ? `${s.key} ${(d.reduce((a, b) => a + b, 0) / d.length).toFixed(1)} µs` : undefined;
    })
    .filter(Boolean)
    .join(', ');
  const minutes = ((performance.now() - started) / 60000).toFixed(1);
  const meta = {
    ...runMeta({ quick: QUICK, loadBefore }),
    params: `cold start ×${COLD_REPS}, load sessions ×${LOAD_REPS}, ${CALLS} calls per burst, ${SEQ_CALLS} sequential calls; ${minutes} min`,
    versions: `baremcp ${version}, @modelcontextprotocol/sdk ${versionOf('@modelcontextprotocol/sdk')}, @modelcontextprotocol/server ${versionOf('@modelcontextprotocol/server')}, fastmcp ${versionOf('fastmcp')}, zod ${versionOf('zod')}`,
    method: [
      'Every server is a child process spawned with `node <script>` and spoken to over stdio by one driver; servers are interleaved round-robin (order rotated each repetition); one untimed start per server warms the file cache first.',
      `Cold start: time from just before \`spawn()\` to the \`initialize\` reply (the request is written at once and waits in the pipe), then \`notifications/initialized\` and a \`tools/call\`, timed to its reply from the same origin. RSS idle is VmRSS ${SETTLE_MS} ms after the first call and a \`tools/list\`; then ${MIB_TRIPS} calls whose \`text\` is 1 MiB (one sample each).`,
      `Load session: handshake, ${WARM_CALLS} warm-up calls (256 in flight), ${SEQ_CALLS} sequential calls (p50/p99 of reply − write), then ${CALLS} calls keeping ${WINDOW} in flight, then ${CALLS} calls written in one write. Every reply is parsed and checked.`,
      `Server CPU per call: run time of the server process (and its child, for \`serve --isolate\`) summed over its threads, from /proc/<pid>/task/*/schedstat (nanoseconds), over the burst ÷ calls (utime+stime from /proc/<pid>/stat, ${(1000 / CLK_TCK).toFixed(0)} ms ticks, where schedstat is missing). Peak RSS: VmHWM right after each burst (cumulative over the session). RSS and peak RSS of \`serve --isolate\` add the parent's and the child's (each one's peak for VmHWM).`,
      `Driver CPU per call in the 256-in-flight burst (the client's share of the 2 cores): ${driverNote}.`,
      'Each call: `echo` with `{ text: "hello world", count: 2, loud: true, tags: ["a","b"] }`; the inputSchema has `text` (string, required), `count` (integer 1–100), `loud` (boolean), `tags` (string[]). SDK v1/v2 and fastmcp validate with zod; the floor validates nothing.',
      'The floor (bench/servers/floor.js) is the fastest bare server measured for this job: stdin in utf8 mode, so each input chunk is decoded once; one scan of the chunk for newlines; one JSON.parse and one JSON.stringify per line; one write of every reply the chunk completes; no validation, no backpressure, nothing per line beyond the job. The other shapes, measured in the same run, spend more: decoding each line from the Buffer (floor candidate: bytes), blocking fs.readSync/writeSync with no event loop (floor candidate: blocking; small reads while 256 are in flight), and node:readline with one write per reply (floor candidate: readline: issue 9\'s floor, which baremcp used to beat).',
      'Installed packages: the peer and every package it pulls in (dependencies, optional dependencies and required peers, resolved through package-lock.json as Node resolves them), matching a fresh install; baremcp and the floor count 0. Size: bytes of those package folders.',
    ],
  };
  const markdown = render({ meta, servers, samples, tarball: pack, http, httpCounts, handle, auth, callgrind, validate, problems });
  // bench/RESULTS.md holds the default run only; other runs print, or write where --out says.
  const custom = QUICK || opts.only || opts.extra || opts['cold-reps'] || opts['load-reps'] || opts.calls || opts['http-only'] || opts['skip-http'];
  const out = opts.out ?? (custom ? undefined : join(ROOT, 'bench/RESULTS.md'));
  if (out !== undefined) writeFileSync(out, markdown);
  process.stdout.write(markdown);
  log(`done in ${minutes} min${out ? `; written to ${out}` : ''}`);
}

main().catch((error) => {
  process.stderr.write(`[bench] ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
