// The Streamable HTTP benchmark (issue 21): each server is a child process listening on
// 127.0.0.1 (bench/servers/http/), spoken to by one keep-alive client that checks every reply
// (bench/lib/http-client.js); servers are interleaved round-robin, the order rotated each round.
// Measures cold start (spawn → first `tools/call` result), server CPU per request (from /proc)
// and requests/s at concurrency 1, 16 and 128, latency, idle and peak RSS, and KiB per open legacy
// session; prints ratios to the bare node:http floor and the issue 21 targets as met/missed.
//
//   node bench/http.js                     the default run (a few minutes on 2 cores); prints markdown
//   node bench/http.js --quick             a smaller run
//   node bench/http.js --only=floor,baremcp-session,baremcp-stateless
//   node bench/http.js --extra=patched:modern=/path/to/server.js   another server script, in a mode
//   node bench/http.js --floors            also the other shapes of a bare server (floor-candidates/)
//   node bench/http.js --profile=baremcp-stateless [--requests=N]   a --cpu-prof of one server under
//                                          load at concurrency 16: its top functions by self time
//   --json prints `{ markdown, samples }` (bench/run.js); --out=FILE also writes the markdown.
// A wrong reply fails the run loudly: the server's figures stop, the problem is printed, exit code 1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuNs, vm } from './lib/child.js';
import { HttpChild } from './lib/http-child.js';
import { McpHttpClient } from './lib/http-client.js';
import { renderHttp } from './lib/http-report.js';
import { profileSummary } from './lib/cpu-profile.js';
import { closure } from './lib/installed.js';
import { percentile } from './lib/stats.js';
import { roundRobin } from './lib/round-robin.js';
import { runMeta } from './lib/run-meta.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = (name, ...args) => [`bench/servers/http/${name}`, ...args];

/** mode: how the client calls (see bench/lib/http-client.js); pkgs: what installing the peer brings. */
export const HTTP_SERVERS = [
  { key: 'floor', label: 'floor (bare node:http)', argv: script('floor.js'), mode: 'stateless', pkgs: [] },
  { key: 'baremcp-session', label: 'baremcp, 2025-11-25 session', argv: script('baremcp.js'), mode: 'session', pkgs: [] },
  { key: 'baremcp-stateless', label: 'baremcp, 2026-07-28 stateless', argv: script('baremcp.js'), mode: 'modern', pkgs: [] },
  { key: 'mcp-lite', label: 'mcp-lite, session (hono)', argv: script('mcp-lite.js'), mode: 'session', pkgs: ['mcp-lite', 'hono', '@hono/node-server', 'zod'] },
  { key: 'tmcp-session', label: 'tmcp, legacy session', argv: script('tmcp.js'), mode: 'session', pkgs: ['tmcp', '@tmcp/transport-http', '@tmcp/adapter-zod', '@hono/node-server', 'zod'] },
  { key: 'tmcp-stateless', label: 'tmcp, 2026-07-28 stateless', argv: script('tmcp.js'), mode: 'modern', pkgs: ['tmcp', '@tmcp/transport-http', '@tmcp/adapter-zod', '@hono/node-server', 'zod'] },
  { key: 'sdk-v1-sessions', label: 'SDK v1, sessions', argv: script('sdk-v1.js', 'sessions'), mode: 'session', pkgs: ['@modelcontextprotocol/sdk'] },
  { key: 'sdk-v1-stateless', label: 'SDK v1, stateless', argv: script('sdk-v1.js', 'stateless'), mode: 'stateless', pkgs: ['@modelcontextprotocol/sdk'] },
  { key: 'sdk-v2', label: 'SDK v2 createMcpHandler, 2026-07-28', argv: script('sdk-v2.js'), mode: 'modern', pkgs: ['@modelcontextprotocol/server', '@modelcontextprotocol/node'] },
  { key: 'fastmcp', label: 'fastmcp, session', argv: script('fastmcp.js'), mode: 'session', pkgs: ['fastmcp'] },
];

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    floors: { type: 'boolean', default: false },
    only: { type: 'string' },
    extra: { type: 'string', multiple: true },
    'cold-reps': { type: 'string' },
    'load-reps': { type: 'string' },
    requests: { type: 'string' },
    sessions: { type: 'string' },
    profile: { type: 'string' },
    json: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const QUICK = opts.quick;
const COLD_REPS = Number(opts['cold-reps'] ?? (QUICK ? 2 : 7));
const LOAD_REPS = Number(opts['load-reps'] ?? (QUICK ? 1 : 3));
/** Requests per load phase at concurrency 16 and 128 (at least; see MIN_PHASE_MS); a fifth of it at concurrency 1. */
const REQUESTS = Number(opts.requests ?? (QUICK ? 1000 : 2500));
const SEQ_REQUESTS = Math.max(100, Math.round(REQUESTS / 5));
/** Warm-up before the measured phases, per concurrency (JIT tiers settle; compiler threads count as CPU). */
const WARM = { 1: Math.round(SEQ_REQUESTS / 2), 16: Math.round(REQUESTS / 2.5), 128: Math.round(REQUESTS / 2.5) };
const WARM_REQUESTS = WARM[1] + WARM[16] + WARM[128];
/** Sessions measured, in SESSION_BATCHES batches, after WARM_REQUESTS calls and one more batch (see `sessions`). */
const SESSIONS = Number(opts.sessions ?? (QUICK ? 600 : 2000));
const SESSION_BATCHES = 4;
/** Handshakes in flight while sessions open (fastmcp answers `initialize` after about 1 s). */
const SESSION_FLIGHT = 128;
const SETTLE_MS = 300;
const LEVELS = [1, 16, 128];
/** Shortest measured phase sought (see `load`): a phase of a fast server is otherwise too short to time. */
const MIN_PHASE_MS = 1000;

/** The other shapes of a bare node:http server tried for the floor (`--floors`). */
const FLOOR_CANDIDATES = ['string-body', 'header-object', 'set-header'].map((name) => ({
  key: `floor-${name}`,
  label: `floor candidate: ${name}`,
  argv: [`bench/servers/http/floor-candidates/${name}.js`],
  mode: 'stateless',
  pkgs: [],
}));

const servers = [...HTTP_SERVERS, ...(opts.floors ? FLOOR_CANDIDATES : [])];
for (const spec of opts.extra ?? []) {
  // key:mode=path/to/server.js
  const match = /^([\w.-]+):(stateless|session|modern)=(.+)$/.exec(spec);
  if (match === null) throw new Error(`--extra=${spec}: expected key:mode=path (mode: stateless, session or modern)`);
  servers.push({ key: match[1], label: match[1], argv: [match[3]], mode: match[2], pkgs: [] });
}
const selected = opts.only ? servers.filter((s) => opts.only.split(',').includes(s.key)) : servers;
if (opts.only && selected.length === 0) throw new Error(`--only=${opts.only}: no such server (${servers.map((s) => s.key).join(', ')})`);

const samples = Object.fromEntries(selected.map((s) => [s.key, {}]));
const problems = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line) => process.stderr.write(`[bench:http] ${line}\n`);
const reporting = { log, problems };
const add = (server, key, value) => (samples[server.key][key] ??= []).push(value);

/** Starts `server`, runs `fn(child)`, and always stops it. */
async function withChild(server, options, fn) {
  const child = new HttpChild(server, ROOT, options);
  try {
    await child.start();
    return await fn(child);
  } finally {
    await child.close();
  }
}

/** A first, untimed start: warms the file cache, checks tools/list, and asks whether arguments are validated. */
async function probe(server) {
  await withChild(server, {}, async (child) => {
    const client = new McpHttpClient(server.label, child.origin, server.mode);
    try {
      await client.open();
      await client.call();
      await client.listTools();
      add(server, 'validates', (await client.refusesBadArguments()) ? 1 : 0);
    } finally {
      await client.close();
    }
  });
}

/** One cold start: spawn → listening → (handshake) → first tools/call result; then idle RSS. */
async function cold(server) {
  await withChild(server, {}, async (child) => {
    const client = new McpHttpClient(server.label, child.origin, server.mode);
    try {
      await client.open();
      await client.call();
      const at = performance.now();
      add(server, 'listen', child.listeningAt - child.t0);
      add(server, 'firstCall', at - child.t0);
      await sleep(SETTLE_MS);
      add(server, 'rssIdle', vm(child.pid, 'VmRSS'));
    } finally {
      await client.close();
    }
  });
}

/** One load round: warm-up at each concurrency, then the measured phases; CPU from /proc, peak RSS after. */
async function load(server) {
  await withChild(server, {}, async (child) => {
    const client = new McpHttpClient(server.label, child.origin, server.mode, Math.max(...LEVELS));
    try {
      await client.open();
      const rate = {};
      for (const level of LEVELS) {
        const { ms } = await client.load(WARM[level], level);
        rate[level] = (WARM[level] * 1000) / ms;
      }
      for (const level of LEVELS) {
        // A fast server gets more requests (up to 4×), so that its phase lasts about MIN_PHASE_MS.
        const base = level === 1 ? SEQ_REQUESTS : REQUESTS;
        const n = Math.min(4 * base, Math.max(base, Math.round((rate[level] * MIN_PHASE_MS) / 1000)));
        add(server, `n${level}`, n);
        const before = cpuNs(child.pid);
        const driver = process.cpuUsage();
        const { ms, latencies } = await client.load(n, level, true);
        const serverNs = cpuNs(child.pid) - before;
        const driverUs = process.cpuUsage(driver);
        add(server, `cpu${level}`, serverNs / 1e3 / n);
        add(server, `rps${level}`, (n * 1000) / ms);
        add(server, `p50c${level}`, percentile(latencies, 50));
        add(server, `p99c${level}`, percentile(latencies, 99));
        add(server, `driver${level}`, (driverUs.user + driverUs.system) / n);
      }
      add(server, 'hwm', vm(child.pid, 'VmHWM'));
    } finally {
      await client.close();
    }
  });
}

/**
 * Memory per open legacy session: WARM_REQUESTS calls and a batch of sessions first (a fresh
 * server's heap is still growing: its young generation alone goes from 1 to 16 MiB semi-spaces),
 * then full collections, VmRSS and the JS heap; then SESSION_BATCHES batches of sessions, each
 * followed by collections and both figures. RSS: the median batch's growth ÷ its sessions (a
 * stray jump of RSS falls out); heap: the whole growth ÷ SESSIONS. The floor has no sessions: its
 * figures are the same POSTs' (the noise of the method).
 */
async function sessions(server) {
  await withChild(server, { control: true }, async (child) => {
    const client = new McpHttpClient(server.label, child.origin, server.mode, SESSION_FLIGHT);
    const batch = Math.round(SESSIONS / SESSION_BATCHES);
    const snapshot = async () => {
      const memory = await child.gc();
      await sleep(SETTLE_MS);
      return { rss: vm(child.pid, 'VmRSS'), heap: memory.heapUsed + memory.external };
    };
    try {
      await client.open();
      await client.load(WARM_REQUESTS, 16);
      await client.openSessions(batch, SESSION_FLIGHT);
      const first = await snapshot();
      let last = first;
      const growth = [];
      const ids = new Set();
      for (let b = 0; b < SESSION_BATCHES; b++) {
        for (const id of await client.openSessions(batch, SESSION_FLIGHT)) ids.add(id);
        const now = await snapshot();
        growth.push((now.rss - last.rss) / 1024 / batch);
        last = now;
      }
      if (server.mode === 'session' && ids.size !== batch * SESSION_BATCHES) {
        throw new Error(`${server.label}: ${ids.size} distinct session ids for ${batch * SESSION_BATCHES} sessions`);
      }
      add(server, 'kibSession', percentile(growth, 50));
      add(server, 'heapSession', (last.heap - first.heap) / 1024 / (batch * SESSION_BATCHES));
    } finally {
      await client.close();
    }
  });
}

/** Installed packages of a peer: the union of what installing each of `pkgs` pulls in. */
function installed(pkgs) {
  const all = new Set();
  for (const name of pkgs) for (const location of closure(ROOT, name) ?? []) all.add(location);
  return all.size;
}

async function profile(key) {
  const server = servers.find((s) => s.key === key);
  if (server === undefined) throw new Error(`--profile=${key}: no such server`);
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-http-prof-'));
  const n = Number(opts.requests ?? 20000);
  try {
    await withChild(server, { control: true, flags: ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`] }, async (child) => {
      const client = new McpHttpClient(server.label, child.origin, server.mode, 16);
      try {
        await client.open();
        const { ms } = await client.load(n, 16);
        log(`${key}: ${n} calls at concurrency 16 in ${ms.toFixed(0)} ms under the profiler`);
      } finally {
        await client.close();
      }
    });
    process.stdout.write(profileSummary(dir, ROOT, `${server.label}: ${n} echo calls at concurrency 16 (start-up included)`) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (opts.profile !== undefined) return profile(opts.profile);
  const started = performance.now();
  const loadBefore = loadavg()[0];
  log(`servers: ${selected.map((s) => s.key).join(', ')}; cold ×${COLD_REPS}, load ×${LOAD_REPS}, ${REQUESTS} requests per level, ${SESSIONS} sessions`);
  await roundRobin(selected, 1, 'probe', probe, reporting);
  await roundRobin(selected, COLD_REPS, 'cold', cold, reporting);
  await roundRobin(selected, LOAD_REPS, 'load', load, reporting);
  await roundRobin(selected.filter((s) => s.mode === 'session' || s.key === 'floor'), 1, 'sessions', sessions, reporting);
  for (const server of selected) add(server, 'pkgs', installed(server.pkgs));
  const minutes = ((performance.now() - started) / 60000).toFixed(1);
  const meta = {
    ...runMeta({ quick: QUICK, loadBefore }),
    params: `cold start ×${COLD_REPS}, load rounds ×${LOAD_REPS}, at least ${SEQ_REQUESTS} requests at concurrency 1 and ${REQUESTS} at 16 and at 128 per round, ${SESSIONS} sessions measured; ${minutes} min`,
    settings: { SETTLE_MS, WARM, WARM_REQUESTS, SEQ_REQUESTS, REQUESTS, MIN_PHASE_MS, SESSIONS, SESSION_BATCHES, SESSION_FLIGHT },
  };
  const markdown = renderHttp({ meta, servers: selected, samples, problems });
  if (opts.out !== undefined) writeFileSync(opts.out, markdown);
  process.stdout.write(opts.json ? JSON.stringify({ markdown, samples, problems }) + '\n' : markdown);
  log(`done in ${minutes} min`);
  if (problems.length > 0) {
    log(`${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`[bench:http] ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
