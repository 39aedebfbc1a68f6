// The stdio transport over in-memory streams: framing, ordering, limits, end of input, EPIPE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { createServer } from '../../dist/index.js';
import { serve } from '../../dist/transport/stdio.js';
import { delay } from '../helpers.js';

const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const INITD = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const info = { name: 's', version: '1' };
const echo = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, run: ({ text }) => String(text) };

function harness(options = {}, tools = [echo]) {
  const input = new PassThrough();
  const chunks = [];
  const output = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk, _enc, cb) {
      chunks.push(chunk);
      if (options.slow) setTimeout(cb, 1);
      else cb();
    },
  });
  const lines = [];
  const server = createServer({ info, tools, report: (l) => lines.push(l) });
  const session = serve(input, output, server, options);
  const raw = () => Buffer.concat(chunks).toString('utf8');
  const replies = () => raw().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { input, output, session, replies, raw, lines };
}

test('INIT, INITD, a tools/call and end of input in one write: every reply is written before closed resolves', async () => {
  const h = harness();
  h.input.end(`${INIT}\n${INITD}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a😀b ★"}}}\n`);
  await h.session.closed;
  const replies = h.replies();
  assert.equal(replies.length, 2);
  assert.equal(replies[0].id, 1);
  assert.equal(replies[1].result.content[0].text, 'a😀b ★');
});

test('frames end in a single 0x0A, never \\r\\n, and contain no raw newline', async () => {
  const h = harness();
  h.input.end(`${INIT}\r\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x\\ny"}}}\n`);
  await h.session.closed;
  const raw = h.raw();
  assert.equal(raw.includes('\r'), false);
  assert.equal(raw.split('\n').length, 3);
  assert.equal(h.replies()[1].result.content[0].text, 'x\ny');
});

test('a message written in three pieces over time, then two in one write, are all answered', async () => {
  const h = harness();
  h.input.write(INIT.slice(0, 20));
  await delay(20);
  h.input.write(INIT.slice(20, 60));
  await delay(20);
  h.input.write(INIT.slice(60) + '\n');
  h.input.end('{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  await h.session.closed;
  assert.deepEqual(h.replies().map((r) => r.id).sort(), [1, 2, 3]);
});

test('a 4-byte emoji split across two writes reaches the tool intact', async () => {
  const h = harness();
  const msg = Buffer.from(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a😀b ★"}}}\n`);
  const cut = msg.indexOf(Buffer.from('😀')) + 2;
  h.input.write(msg.subarray(0, cut));
  await delay(5);
  h.input.end(msg.subarray(cut));
  await h.session.closed;
  assert.equal(h.replies()[0].result.content[0].text, 'a😀b ★');
});

test('a BOM before the first message is stripped', async () => {
  const h = harness();
  h.input.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INIT + '\n')]));
  await h.session.closed;
  assert.equal(h.replies()[0].result.protocolVersion, '2025-06-18');
});

test('a line that is not JSON is a -32700 with no id; the next line is answered', async () => {
  const h = harness();
  h.input.end('{not json\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  await h.session.closed;
  const [parse, ping] = h.replies();
  assert.equal(parse.error.code, -32700);
  assert.equal('id' in parse, false);
  assert.deepEqual(ping, { jsonrpc: '2.0', id: 3, result: {} });
});

test('invalid UTF-8 is a -32700; the stream goes on', async () => {
  const h = harness();
  h.input.end(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')]));
  await h.session.closed;
  const [bad, ok] = h.replies();
  assert.equal(bad.error.code, -32700);
  assert.equal(ok.id, 2);
});

test('a line over the limit gets one error with its id, and the following ping is answered', async () => {
  const h = harness({ maxLineBytes: 1000 });
  h.input.write('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"text":"');
  for (let i = 0; i < 20; i++) h.input.write('x'.repeat(500));
  h.input.end('"}}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  await h.session.closed;
  const [long, ping] = h.replies();
  assert.equal(long.error.code, -32600);
  assert.equal(long.id, 7);
  assert.match(long.error.message, /1000 bytes/);
  assert.deepEqual(ping, { jsonrpc: '2.0', id: 3, result: {} });
  assert.match(h.lines.join('\n'), /dropped a line/);
});

test('a 200 KB argument is accepted under the default limit', async () => {
  const h = harness();
  const text = 'y'.repeat(200_000);
  h.input.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } }) + '\n');
  await h.session.closed;
  assert.equal(h.replies()[0].result.content[0].text.length, 200_000);
});

test('requests are handled concurrently: a fast reply overtakes a slow one', async () => {
  const slow = { name: 'slow', description: 'Slow.', inputSchema: { type: 'object' }, run: () => delay(50).then(() => 'slow') };
  const h = harness({}, [echo, slow]);
  h.input.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  await h.session.closed;
  assert.deepEqual(h.replies().map((r) => r.id), [2, 1]);
});

test('reading pauses at maxInFlight and every request is still answered once', async () => {
  let running = 0;
  let peak = 0;
  const tool = { name: 'count', description: 'Counts.', inputSchema: { type: 'object' }, run: async () => { running++; peak = Math.max(peak, running); await delay(2); running--; return 'ok'; } };
  const h = harness({ maxInFlight: 4 }, [tool]);
  let text = '';
  for (let i = 0; i < 100; i++) text += `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"count"}}\n`;
  // Written in small pieces so that pausing the input can take effect between them.
  for (let i = 0; i < text.length; i += 300) h.input.write(text.slice(i, i + 300));
  h.input.end();
  await h.session.closed;
  const ids = h.replies().map((r) => r.id).sort((a, b) => a - b);
  assert.deepEqual(ids, Array.from({ length: 100 }, (_, i) => i));
  assert.ok(peak <= 4 + 4, `peak in flight ${peak}`);
});

test('a slow reader: output backpressure is respected and nothing is lost', async () => {
  const h = harness({ slow: true, highWaterMark: 64 });
  let text = '';
  for (let i = 0; i < 300; i++) text += `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`;
  h.input.end(text);
  await h.session.closed;
  assert.equal(h.replies().length, 300);
});

test('an output that fails with EPIPE ends the session quietly and aborts tools', async () => {
  const input = new PassThrough();
  let aborted = false;
  const output = new Writable({ write(_c, _e, cb) { const e = new Error('EPIPE'); e.code = 'EPIPE'; cb(e); } });
  const tool = { name: 'wait', description: 'Waits.', inputSchema: { type: 'object' }, run: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => { aborted = true; r('x'); })) };
  const lines = [];
  const server = createServer({ info, tools: [tool], report: (l) => lines.push(l) });
  const session = serve(input, output, server);
  input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}\n');
  input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  await session.closed;
  await delay(5);
  assert.equal(aborted, true);
  assert.deepEqual(lines, []);
  assert.equal(session.phase, 'broken');
});

test('a session moves reading → input-ended → flushing → finished, and answers what was in flight', async () => {
  let release;
  const gate = new Promise((r) => (release = r));
  const tool = { name: 'wait', description: 'Waits.', inputSchema: { type: 'object' }, run: () => gate.then(() => 'done') };
  const h = harness({}, [tool]);
  assert.equal(h.session.phase, 'reading');
  h.input.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}\n');
  await delay(10);
  assert.equal(h.session.phase, 'input-ended', 'input ended while a call is in flight');
  release();
  await delay(0);
  await delay(0);
  assert.ok(['flushing', 'finished'].includes(h.session.phase), h.session.phase);
  await h.session.closed;
  assert.equal(h.session.phase, 'finished');
  assert.equal(h.replies()[0].result.content[0].text, 'done');
});

test('close() while reading ends reading at once, stays input-ended until its aborted call settles, then finishes', async () => {
  let settle;
  const tool = {
    name: 'wait',
    description: 'Waits.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => (settle = () => r('late')))),
  };
  const h = harness({}, [tool]);
  h.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}\n');
  await delay(5);
  h.session.close();
  assert.equal(h.session.phase, 'input-ended');
  // Input after close() is not read.
  h.input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  await delay(5);
  assert.equal(h.session.phase, 'input-ended');
  settle();
  await h.session.closed;
  assert.equal(h.session.phase, 'finished');
  assert.equal(h.replies().some((m) => m.id === 2), false);
});

test('close() aborts in-flight tools and resolves closed', async () => {
  let aborted = false;
  const tool = { name: 'wait', description: 'Waits.', inputSchema: { type: 'object' }, run: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => { aborted = true; r('x'); })) };
  const h = harness({}, [tool]);
  h.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}\n');
  await delay(5);
  h.session.close();
  await h.session.closed;
  assert.equal(aborted, true);
});

test('a string chunk (setEncoding) is framed like bytes', async () => {
  const h = harness();
  h.input.setEncoding('utf8');
  h.input.end('{"jsonrpc":"2.0","id":"é","method":"ping"}\n');
  await h.session.closed;
  assert.equal(h.replies()[0].id, 'é');
});

test('a call cancelled 50 ms in gets no reply, its signal aborts, and later requests are answered', async () => {
  let abortedAt;
  const waiter = { name: 'wait', description: 'Waits on its signal.', inputSchema: { type: 'object' }, run: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => { abortedAt = Date.now(); r('too late'); })) };
  const h = harness({}, [waiter]);
  h.input.write('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}}\n');
  await delay(50);
  const cancelledAt = Date.now();
  h.input.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}\n');
  h.input.end('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
  await h.session.closed;
  assert.deepEqual(h.replies(), [{ jsonrpc: '2.0', id: 8, result: {} }]);
  assert.ok(abortedAt >= cancelledAt);
});

test('a cancel racing the end of a tool never yields two replies or a crash (1,000 races with jitter)', async () => {
  const quick = { name: 'quick', description: 'Answers after a jittered delay.', inputSchema: { type: 'object' }, run: () => new Promise((r) => setTimeout(() => r('ok'), Math.random() * 2)) };
  const h = harness({}, [quick]);
  for (let i = 0; i < 1000; i++) {
    h.input.write(`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"quick"}}\n`);
    if (i % 3 === 0) await delay(Math.random());
    h.input.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${i}}}\n`);
  }
  h.input.end();
  await h.session.closed;
  const ids = h.replies().map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
});

test('a "notifications/cancelled" that carries "id": null is an invalid request: it cancels nothing and gets its -32600', async () => {
  const slow = { name: 'slow', description: 'Slow.', inputSchema: { type: 'object' }, run: () => delay(20).then(() => 'slow') };
  const h = harness({ maxInFlight: 1 }, [slow]);
  h.input.end(
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}\n' +
      '{"jsonrpc":"2.0","id":0,"method":"ping"}\n' +
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0},"id":null}\n',
  );
  await h.session.closed;
  const replies = h.replies();
  assert.deepEqual(replies.find((r) => r.id === 0), { jsonrpc: '2.0', id: 0, result: {} });
  assert.equal(replies.filter((r) => r.error?.code === -32600 && !('id' in r)).length, 1);
});
