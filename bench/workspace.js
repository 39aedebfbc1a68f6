// The workspace example under attack (issue 19), measured on one or more builds, interleaved:
//
//   race   a renamer swaps a folder inside the root for a link to an outside folder while every
//          tool, the resource template, completion and the prompt are called (in-process);
//          prints calls and escapes per kind (test/workspace-race.js).
//   scan   read_text_file with startLine: 2 on a 10 GiB sparse file whose first line has no
//          newline, over stdio; floor: bare Node reading 64 MiB of it (the default scan bound).
//   flood  256 concurrent search_text calls with a backtracking regex, over stdio, while a ping
//          is sent every 20 ms; floor: the same server's ping p99 while idle. Prints ping
//          latency, peak RSS and peak threads of the server process, and how the searches ended.
//
//   node bench/workspace.js [race|scan|flood|all] [--builds=after=.,before=/tmp/before]
//                           [--seconds=N] [--searches=256] [--reps=1]
// A build is a checkout with dist/ built (npm run build). Linux only (reads /proc).
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { StdioChild, vm } from './lib/child.js';
import { percentile } from './lib/stats.js';
import { formatRace, runRace } from '../test/workspace-race.js';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    builds: { type: 'string', default: 'after=.' },
    seconds: { type: 'string' },
    searches: { type: 'string', default: '256' },
    reps: { type: 'string', default: '1' },
  },
});
const mode = positionals[0] ?? 'all';
const builds = opts.builds.split(',').map((spec) => {
  const [name, dir] = spec.includes('=') ? spec.split('=') : [spec, spec];
  return { name, dir: resolve(dir) };
});
const REPS = Number(opts.reps);
const INIT = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'baremcp-bench-workspace', version: '1.0.0' },
};
const ms = (value) => `${value.toFixed(1)} ms`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Spawns a build's CLI on `root` over stdio and does the handshake. */
async function startServer(build, root) {
  const child = new StdioChild(build.name, [join(build.dir, 'dist/bundle/cli/main.js'), '--root', root]);
  child.start();
  await child.request('initialize', INIT);
  child.notify('notifications/initialized');
  return child;
}

async function race(build) {
  const seconds = Number(opts.seconds ?? 30);
  const result = await runRace({ dist: join(build.dir, 'dist'), durationMs: seconds * 1000 });
  console.log(`race, ${build.name}, ${seconds} s:\n${formatRace(result)}`);
}

async function scan(build) {
  const base = await mkdtemp(join(tmpdir(), 'baremcp-bench-scan-'));
  const file = join(base, 'sparse.txt');
  await writeFile(file, 'x'.repeat(8192)); // text, then 10 GiB of holes: no newline anywhere
  await truncate(file, 10 * 2 ** 30);
  const floorBytes = 64 * 2 ** 20;
  let floor = Infinity; // the best of three
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    const fd = openSync(file, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    for (let at = 0; at < floorBytes; at += buffer.length) readSync(fd, buffer, 0, buffer.length, at);
    closeSync(fd);
    floor = Math.min(floor, performance.now() - t0);
  }
  const child = await startServer(build, base);
  try {
    const started = performance.now();
    const { message } = await child.request(
      'tools/call',
      { name: 'read_text_file', arguments: { path: 'sparse.txt', startLine: 2 } },
      600_000,
    );
    const took = performance.now() - started;
    const text = message.result?.content?.[0]?.text ?? JSON.stringify(message).slice(0, 200);
    console.log(
      `scan, ${build.name}: ${ms(took)} (${(took / floor).toFixed(1)}x the floor, bare Node ` +
        `reading 64 MiB: ${ms(floor)}); isError ${message.result?.isError === true}: ` +
        `${text.slice(0, 160)}`,
    );
  } finally {
    await child.close();
    await rm(base, { recursive: true, force: true });
  }
}

/** Pings `child` every `everyMs` until `until()` is true; resolves to the latencies. */
async function pingLoop(child, everyMs, until) {
  const latencies = [];
  while (!until()) {
    const t = performance.now();
    const { at } = await child.request('ping', undefined, 120_000);
    latencies.push(at - t);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return latencies;
}

async function flood(build) {
  const searches = Number(opts.searches);
  const seconds = Number(opts.seconds ?? 10);
  const base = await mkdtemp(join(tmpdir(), 'baremcp-bench-flood-'));
  await mkdir(join(base, 'src'));
  for (let i = 0; i < 20; i++) {
    await writeFile(join(base, 'src', `f${i}.txt`), `${'a'.repeat(32)}!\n`.repeat(50));
  }
  const child = await startServer(build, base);
  try {
    let n = 0;
    const idle = await pingLoop(child, 5, () => ++n > 200);
    let peakRss = vm(child.pid, 'VmRSS');
    let peakThreads = 0;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, vm(child.pid, 'VmRSS'));
        const status = (/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8')) ?? [])[1];
        peakThreads = Math.max(peakThreads, Number(status ?? 0));
      } catch {
        // the server exited
      }
    }, 25);
    const outcomes = { ok: 0, busy: 0, timedOut: 0, other: 0 };
    const calls = Array.from({ length: searches }, () =>
      child
        .request(
          'tools/call',
          { name: 'search_text', arguments: { query: '^(a+)+$', regex: true, path: 'src' } },
          600_000,
        )
        .then(({ message }) => {
          const text = message.result?.content?.[0]?.text ?? '';
          if (message.result?.isError !== true) outcomes.ok++;
          else if (/busy/.test(text)) outcomes.busy++;
          else if (/timed out/.test(text)) outcomes.timedOut++;
          else outcomes.other++;
        }),
    );
    const end = performance.now() + seconds * 1000;
    const during = await pingLoop(child, 20, () => performance.now() > end);
    clearInterval(sampler);
    const line = (name, values) =>
      `${name}: p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, ` +
      `max ${ms(Math.max(...values))} (${values.length} pings)`;
    console.log(
      `flood, ${build.name}, ${searches} searches, ${seconds} s:\n  ${line('ping idle (floor)', idle)}` +
        `\n  ${line('ping during flood', during)}; p99 ${(percentile(during, 99) / percentile(idle, 99)).toFixed(1)}x the floor` +
        `\n  peak RSS ${mib(peakRss)}, peak threads ${peakThreads}` +
        `\n  searches answered within the window: ${JSON.stringify(outcomes)}`,
    );
    void Promise.allSettled(calls);
  } finally {
    await child.close();
    await rm(base, { recursive: true, force: true });
  }
}

const MODES = { race, scan, flood };
const chosen = mode === 'all' ? Object.keys(MODES) : [mode];
for (const name of chosen) {
  if (MODES[name] === undefined) throw new Error(`unknown mode ${name}: use race, scan, flood or all`);
  for (let rep = 0; rep < REPS; rep++) {
    for (const build of builds) await MODES[name](build);
  }
}
