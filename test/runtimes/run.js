// `node test/runtimes/run.js [deno] [bun] [workerd] [worker-example]` (after `npm run build`):
// serves the conformance fixture through createFetchHandler from the shipped bundle under Deno,
// Bun and workerd (binaries from the npm registry, see install.js), each on a free 127.0.0.1
// port, and runs against each the stream checks of streams.js (first bytes at once, keep-alives
// under Bun's 10 s idle time-out, a quiet call answered), then the official conformance suite
// (both requirement sets, as `npm run conformance` does on Node). `worker-example` runs
// examples/cloudflare-worker under workerd as wrangler would deploy it (with its Durable Object)
// and checks it with example.js. The runtimes run side by side; each is stopped afterwards.
// Prints a report per runtime and a final "N passed, M failed" (conformance scenarios and
// checks); exits 1 on any failure.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../helpers.js';
import { node22, runConformance } from '../conformance/suite.js';
import { install } from './install.js';
import { checkWorkerExample } from './example.js';
import { checkStreams } from './streams.js';

const FIXTURES = resolve(repoRoot, 'test', 'runtimes', 'fixtures');
const READY_MS = 30_000;

/** How to start each runtime on `port`: [command, args, extra environment]. */
const LAUNCH = {
  deno: (bin, port) => [
    bin,
    ['run', '--allow-net=127.0.0.1', `--allow-read=${repoRoot}`, '--no-prompt', join(FIXTURES, 'deno.js'), String(port)],
    // Its module cache stays in .cache; no update check (there is no network but the registry).
    { DENO_DIR: resolve(repoRoot, '.cache', 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  ],
  bun: (bin, port) => [bin, [join(FIXTURES, 'bun.js'), String(port)], { DO_NOT_TRACK: '1', BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' }],
  workerd: (bin, port) => [
    bin,
    ['serve', workerdConfig(join(FIXTURES, 'workerd.js')), '--socket-addr', `http=127.0.0.1:${port}`],
    {},
  ],
  'worker-example': (bin, port) => [
    bin,
    ['serve', join(FIXTURES, 'worker-example.capnp'), '--socket-addr', `http=127.0.0.1:${port}`],
    {},
  ],
};
/** The binary each entry of LAUNCH runs. */
const BINARY = { deno: 'deno', bun: 'bun', workerd: 'workerd', 'worker-example': 'workerd' };

/**
 * Every module `entry` reaches through static relative imports (`from './x.js'`), as absolute
 * paths, entry first. The bundle's chunk names change with its contents, so workerd's module list
 * is read from the code rather than written by hand.
 */
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      visit(resolve(dirname(file), match[1]));
    }
  };
  visit(entry);
  return [...seen];
}

/**
 * Writes a workerd config (.cache/runtimes/workerd.capnp) for one worker made of `entry` and every
 * module it imports, each named by its path from the repository root so that relative imports
 * resolve, listening on the "http" socket whose address the runner sets. Returns its path.
 */
function workerdConfig(entry) {
  const dir = resolve(repoRoot, '.cache', 'runtimes');
  mkdirSync(dir, { recursive: true });
  const modules = moduleGraph(entry).map(
    (file) => `    (name = ${JSON.stringify(relative(repoRoot, file))}, esModule = embed ${JSON.stringify(relative(dir, file))}),`,
  );
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
${modules.join('\n')}
  ],
  compatibilityDate = "2025-09-01",
);
`;
  const path = join(dir, 'workerd.capnp');
  writeFileSync(path, config);
  return path;
}

/** A free TCP port on 127.0.0.1 (bound, read and released). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** Resolves once GET /healthz answers 200; rejects after READY_MS or when the process exits. */
async function ready(base, child, log) {
  const end = Date.now() + READY_MS;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no health answer within ${READY_MS} ms:\n${log()}`);
}

/** Stops `child` (SIGTERM, then SIGKILL after 5 s); resolves when it is gone. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

/** Runs one runtime; resolves to { name, version, passed, failed, report }. */
async function runRuntime(name, node) {
  const { path, version } = await install(BINARY[name]);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [command, args, env] = LAUNCH[name](path, port);
  mkdirSync(resolve(repoRoot, '.cache'), { recursive: true });
  const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const log = () => output.slice(-4000);
  let report = `\n== ${name} ${version} at ${base}/mcp\n`;
  try {
    await ready(base, child, log);
    if (name === 'worker-example') {
      const checks = await checkWorkerExample(`${base}/mcp`);
      for (const check of checks) report += `  ${check.ok ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}\n`;
      const failed = checks.filter((c) => !c.ok).length;
      if (failed > 0 && output !== '') report += `${name} output (last 4000 characters):\n${log()}\n`;
      return { name, version, passed: checks.length - failed, failed, report };
    }
    // The stream checks first, on a server that nothing else talks to: quiet means quiet.
    const streams = await checkStreams(`${base}/mcp`);
    const conformance = await runConformance(node, `${base}/mcp`);
    report += conformance.report;
    report += `\nstreams (quiet for 14 s; Bun closes a connection silent for 10 s):\n`;
    for (const check of streams) report += `  ${check.ok ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}\n`;
    const streamFailed = streams.filter((c) => !c.ok).length;
    const passed = conformance.passed + streams.length - streamFailed;
    const failed = conformance.failed + streamFailed;
    report += `${name}: conformance ${conformance.passed}/${conformance.passed + conformance.failed}, streams ${streams.length - streamFailed}/${streams.length}\n`;
    if (failed > 0 && output !== '') report += `${name} output (last 4000 characters):\n${log()}\n`;
    return { name, version, passed, failed, report };
  } catch (error) {
    return { name, version, passed: 0, failed: 1, report: `${report}  FAIL ${error.message}\n` };
  } finally {
    await stop(child);
  }
}

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(LAUNCH);
for (const name of names) if (!(name in LAUNCH)) throw new Error(`unknown runtime ${name} (choose from ${Object.keys(LAUNCH).join(', ')})`);
const started = Date.now();
const node = await node22();
const results = await Promise.all(names.map((name) => runRuntime(name, node)));
let passed = 0;
let failed = 0;
for (const result of results) {
  process.stdout.write(result.report);
  passed += result.passed;
  failed += result.failed;
}
process.stdout.write(`\nruntimes: ${results.map((r) => `${r.name} ${r.failed === 0 ? 'ok' : 'FAILED'}`).join(', ')}\n`);
process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(1)} s)\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
