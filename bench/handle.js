// Micro-benchmark of the dispatcher alone, in process: messages per second through
// `server.handle()` for ping, tools/list and tools/call of echo, one at a time (await each) and
// 256 at once (Promise.all), plus tools/call with JSON.parse of the line and JSON.stringify of the
// reply (everything stdio does per message except the framing and the pipe).
//
//   node bench/handle.js [--quick] [--json]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createServer } from '../dist/index.js';
import definition from './servers/baremcp-echo.js';

const ARGS = { text: 'hello world', count: 2, loud: true, tags: ['a', 'b'] };
const EXPECTED = 'HELLO WORLD HELLO WORLD';
const BATCH = 256;

const CASES = [
  { name: 'ping', message: (id) => ({ jsonrpc: '2.0', id, method: 'ping' }) },
  { name: 'tools/list', message: (id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }) },
  {
    name: 'tools/call echo',
    message: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: ARGS } }),
  },
];

async function newServer() {
  const server = createServer({ ...definition, report: () => {} });
  await server.handle({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  await server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return server;
}

/** Runs `step(n)` (which handles n messages) repeatedly for about `ms`; returns messages/s. */
async function timed(step, perStep, ms) {
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await step();
    count += perStep;
    now = performance.now();
  }
  return (count * 1000) / (now - start);
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Checks one reply so the benchmark cannot silently measure errors. */
function check(name, reply) {
  if (reply === null || reply.error !== undefined) throw new Error(`${name}: ${JSON.stringify(reply)}`);
  if (name.startsWith('tools/call') && reply.result.content[0].text !== EXPECTED) {
    throw new Error(`${name}: unexpected reply ${JSON.stringify(reply)}`);
  }
}

/**
 * Measures every case; resolves to `{ rows, markdown }` where each row is
 * `{ case, sequential, concurrent }` in messages per second.
 */
export async function benchHandle({ quick = false } = {}) {
  const ms = quick ? 150 : 500;
  const rounds = quick ? 1 : 3;
  const server = await newServer();
  const rows = [];
  for (const c of CASES) {
    const one = c.message(1);
    const many = Array.from({ length: BATCH }, (_, i) => c.message(i + 1));
    check(c.name, await server.handle(one));
    const sequential = () => server.handle(one);
    const concurrent = () => Promise.all(many.map((m) => server.handle(m)));
    for (let i = 0; i < 2000; i++) await sequential(); // warm-up
    const seq = [];
    const con = [];
    for (let r = 0; r < rounds; r++) {
      seq.push(await timed(sequential, 1, ms));
      con.push(await timed(concurrent, BATCH, ms));
    }
    rows.push({ case: c.name, sequential: median(seq), concurrent: median(con) });
  }
  // tools/call with the JSON work stdio adds per message.
  const line = JSON.stringify(CASES[2].message(1));
  const full = async () => JSON.stringify(await server.handle(JSON.parse(line)));
  check('tools/call echo', JSON.parse(await full()));
  const lines = Array.from({ length: BATCH }, (_, i) => JSON.stringify(CASES[2].message(i + 1)));
  const fullMany = () => Promise.all(lines.map(async (l) => JSON.stringify(await server.handle(JSON.parse(l)))));
  for (let i = 0; i < 2000; i++) await full();
  const seq = [];
  const con = [];
  for (let r = 0; r < rounds; r++) {
    seq.push(await timed(full, 1, ms));
    con.push(await timed(fullMany, BATCH, ms));
  }
  rows.push({ case: 'tools/call echo + JSON.parse/stringify', sequential: median(seq), concurrent: median(con) });
  const fmt = (v) => `${(v / 1000).toFixed(0)}k/s (${(1e6 / v).toFixed(2)} µs/msg)`;
  const markdown = [
    `| message | one at a time (await each) | ${BATCH} at once (Promise.all) |`,
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.case} | ${fmt(r.sequential)} | ${fmt(r.concurrent)} |`),
  ].join('\n');
  return { rows, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const result = await benchHandle({ quick });
  process.stdout.write(process.argv.includes('--json') ? JSON.stringify(result) + '\n' : result.markdown + '\n');
}
