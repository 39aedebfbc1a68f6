// Bytes allocated on the JavaScript heap per `tools/call` of the echo tool, in process: a count,
// like instructions under callgrind, so it holds on a busy machine (issue 21: CPU per call follows
// allocation as well as instructions). Two paths, 256 calls at a time:
// - `handle()`: a connection's handle() of each parsed line, then JSON.stringify of each reply;
// - stdio: the whole stdio transport (serve() over in-memory streams): chunks of 256 lines in,
//   reply lines out.
// The young generation is made large enough that no collection runs while a round is measured
// (checked: a round with a collection is reported as such), so the growth of the heap over the
// round is what it allocated. Floor: the floor's `reply()` (bench/servers/floor.js) per line.
//
//   node bench/alloc.js [--json] [--root=DIR]   DIR: another checkout's build to measure (default: this one)
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const FLAGS = ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256'];
const ARGS = { text: 'hello world', count: 2, loud: true, tags: ['a', 'b'] };
const EXPECTED = 'HELLO WORLD HELLO WORLD';
const BATCH = 256;
const ROUNDS = 40;

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, root: { type: 'string' } } });
const ROOT = resolve(values.root ?? join(HERE, '..'));

const line = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: ARGS } });

let collections = 0;

/** Heap bytes per call of `round(r)` (which makes BATCH calls), median of 5 measures of ROUNDS rounds. */
async function perCall(round) {
  for (let r = 0; r < 200; r++) await round(r);
  const measures = [];
  for (let k = 0; k < 5; k++) {
    globalThis.gc();
    // The observer reports the forced collection a little later: wait for it.
    await new Promise((r) => setTimeout(r, 20));
    const before = collections;
    const heap = process.memoryUsage().heapUsed;
    for (let r = 0; r < ROUNDS; r++) await round(1000 + k * ROUNDS + r);
    const grown = process.memoryUsage().heapUsed - heap;
    await new Promise((r) => setTimeout(r, 20));
    if (collections !== before) throw new Error('a collection ran while a round was measured; measure fewer rounds');
    measures.push(grown / (ROUNDS * BATCH));
  }
  measures.sort((a, b) => a - b);
  return measures[2];
}

async function measure() {
  new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] });
  const { createServer } = await import(pathToFileURL(join(ROOT, 'dist/bundle/index.js')).href);
  const { serve } = await import(pathToFileURL(join(ROOT, 'dist/bundle/transport/stdio.js')).href);
  const { reply } = await import(pathToFileURL(join(HERE, 'servers/floor.js')).href);
  const { default: definition } = await import(pathToFileURL(join(HERE, 'servers/baremcp-echo.js')).href);
  const lines = Array.from({ length: BATCH }, (_, i) => line(i + 1));
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'alloc', version: '1' } };

  const floor = await perCall(async () => {
    for (let i = 0; i < BATCH; i++) if (!reply(lines[i]).includes(EXPECTED)) throw new Error('bad floor reply');
  });

  const server = createServer({ ...definition, report: () => {} });
  const connection = server.connect({ transport: { kind: 'stdio' } });
  await connection.handle({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init });
  await connection.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const handle = await perCall(async () => {
    const replies = new Array(BATCH);
    for (let i = 0; i < BATCH; i++) replies[i] = connection.handle(JSON.parse(lines[i]));
    for (const r of await Promise.all(replies)) if (!JSON.stringify(r).includes(EXPECTED)) throw new Error('bad reply');
  });

  // The stdio transport over in-memory streams: each round writes one chunk of BATCH lines and
  // waits for BATCH reply lines.
  let received = 0;
  let waiting;
  const output = new Writable({
    write(chunk, _encoding, done) {
      const text = chunk.toString();
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) received++;
      if (waiting !== undefined && !text.includes(EXPECTED)) throw new Error(`bad reply ${text.slice(0, 200)}`);
      if (waiting !== undefined && received >= waiting.until) {
        const { resolve: wake } = waiting;
        waiting = undefined;
        wake();
      }
      done();
    },
  });
  const input = new PassThrough();
  const stdioServer = createServer({ ...definition, report: () => {} });
  serve(input, output, stdioServer);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const chunks = new Map();
  const chunk = (r) => {
    if (!chunks.has(r)) {
      chunks.set(r, Buffer.from(Array.from({ length: BATCH }, (_, i) => `${line(r * BATCH + i + 1)}\n`).join('')));
    }
    return chunks.get(r);
  };
  for (let r = 0; r < 1000 + 5 * ROUNDS; r++) chunk(r);
  const stdio = await perCall(async (r) => {
    const done = new Promise((resolve) => (waiting = { until: received + BATCH, resolve }));
    input.write(chunk(r));
    await done;
  });
  return { floor, handle, stdio };
}

if (process.execArgv.includes('--expose-gc')) {
  const r = await measure();
  const markdown = [
    '| path | heap bytes per `tools/call` | ratio to floor |',
    '| --- | --- | --- |',
    `| floor: \`reply()\` of a line | ${Math.round(r.floor)} | 1.00× |`,
    `| baremcp: parse, \`handle()\`, stringify | ${Math.round(r.handle)} | ${(r.handle / r.floor).toFixed(2)}× |`,
    `| baremcp: the stdio transport, in memory | ${Math.round(r.stdio)} | ${(r.stdio / r.floor).toFixed(2)}× |`,
  ].join('\n');
  process.stdout.write(values.json ? `${JSON.stringify({ ...r, markdown })}\n` : `${markdown}\n`);
  process.exit(0);
} else {
  // Again, with a young generation no round fills.
  const run = spawnSync(process.execPath, [...FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
}
