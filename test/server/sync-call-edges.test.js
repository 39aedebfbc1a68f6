// Edges of the synchronous tools/call path and of requests in flight keyed by their JSON-RPC id:
// what a tool returns (a throwing `then` getter, a thenable, a rejection), ids that only look alike,
// and a cancel in the same input as a synchronous call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';

const tool = (name, run, more = {}) => ({ name, description: name, inputSchema: { type: 'object' }, run, ...more });
const call = (id, name) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

async function connected(tools, report = () => {}) {
  const server = createServer({ info: { name: 't', version: '1' }, report, tools });
  const c = server.connect({ send: () => {} });
  await c.handle({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  await c.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return c;
}

test('a tool whose result has a throwing `then` getter gets an isError result, as an awaited value did (not -32603)', async () => {
  const reports = [];
  const run = () => ({ get then() { throw new Error('then getter'); } });
  const c = await connected([tool('getter', run), tool('getter_hooked', run, { timeoutMs: 1000 })], (l) => reports.push(l));
  for (const name of ['getter', 'getter_hooked']) {
    const reply = await c.handle(call(1, name));
    assert.deepEqual(reply, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'then getter' }], isError: true } }, name);
  }
  assert.deepEqual(reports.filter((l) => l.startsWith('internal error')), []);
  assert.equal(c.inFlight, 0);
});

test('a tool that throws, rejects, or returns a thenable that throws or resolves: one reply each, the same words', async () => {
  const c = await connected([
    tool('throws', () => { throw new Error('boom'); }),
    tool('rejects', () => Promise.reject(new Error('rej'))),
    tool('then_throws', () => ({ then() { throw new Error('in then'); } })),
    tool('then_value', () => ({ then(resolve) { resolve('via then'); } })),
  ]);
  const text = (r) => [r.result.content[0].text, r.result.isError === true];
  assert.deepEqual(text(await c.handle(call(1, 'throws'))), ['boom', true]);
  assert.deepEqual(text(await c.handle(call(1, 'rejects'))), ['rej', true]);
  assert.deepEqual(text(await c.handle(call(1, 'then_throws'))), ['in then', true]);
  assert.deepEqual(text(await c.handle(call(1, 'then_value'))), ['via then', false]);
  assert.equal(c.inFlight, 0);
});

test('ids 1 and "1", 0 and "0", "__proto__" and "constructor" are distinct requests in flight; a duplicate is refused', async () => {
  let release;
  const gate = new Promise((r) => (release = r));
  const c = await connected([tool('wait', () => gate.then(() => 'done'))]);
  const ids = [1, '1', 0, '0', '__proto__', 'constructor', ''];
  const pending = ids.map((id) => c.handle(call(id, 'wait')));
  assert.equal(c.inFlight, ids.length);
  const duplicate = await c.handle(call('1', 'wait'));
  assert.equal(duplicate.error.code, -32600);
  assert.equal(duplicate.id, '1');
  release();
  const replies = await Promise.all(pending);
  assert.deepEqual(replies.map((r) => r.id), ids);
  assert.ok(replies.every((r) => r.result.content[0].text === 'done'));
  assert.equal(c.inFlight, 0);
});

test('a cancel right after a synchronous call in the same turn cancels it (no reply); one before it does not', async () => {
  const c = await connected([tool('sync', () => 'ok')]);
  const cancelled = c.handle(call(8, 'sync'));
  await c.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } });
  assert.equal(await cancelled, null);
  // A cancel of "8" (a string) does not touch request 8.
  const other = c.handle(call(8, 'sync'));
  await c.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '8' } });
  assert.equal((await other).result.content[0].text, 'ok');
  await c.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
  assert.equal((await c.handle(call(9, 'sync'))).result.content[0].text, 'ok');
  assert.equal(c.inFlight, 0);
});

test('a 2026-07-28 result with an own "__proto__" key (from JSON.parse) keeps it, and gets resultType "complete"', async () => {
  const parsed = '{"content":[{"type":"text","text":"hi"}],"__proto__":{"resultType":"input_required"},"_meta":{"__proto__":{"x":1},"k":2}}';
  const server = createServer({ info: { name: 't', version: '1' }, report: () => {}, tools: [tool('parsed', () => JSON.parse(parsed))] });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  };
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'parsed', arguments: {}, _meta: meta } });
  const result = reply.result;
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.equal(Object.getPrototypeOf(result._meta), Object.prototype);
  assert.ok(Object.hasOwn(result, 'resultType'));
  const wire = JSON.parse(JSON.stringify(reply));
  assert.equal(wire.result.resultType, 'complete');
  assert.deepEqual(Object.getOwnPropertyDescriptor(wire.result, '__proto__').value, { resultType: 'input_required' });
  assert.equal(wire.result._meta.k, 2);
  assert.deepEqual(Object.getOwnPropertyDescriptor(wire.result._meta, '__proto__').value, { x: 1 });
});

test('server.tools.call stays a promise: it resolves for a synchronous tool and rejects (never throws) for an unknown one', async () => {
  const seen = {};
  const c = await connected([
    tool('sync', () => 'ok'),
    tool('outer', async (args, ctx) => {
      const good = ctx.server.tools.call({ name: 'sync', arguments: {} }, ctx);
      seen.good = good instanceof Promise;
      seen.text = (await good).content[0].text;
      let threw = false;
      let bad;
      try {
        bad = ctx.server.tools.call({ name: 'missing', arguments: {} }, ctx);
      } catch {
        threw = true;
      }
      seen.threw = threw;
      seen.bad = bad instanceof Promise;
      seen.code = await bad?.then(() => 'resolved', (e) => e.code);
      return 'done';
    }),
  ]);
  assert.equal((await c.handle(call(1, 'outer'))).result.content[0].text, 'done');
  assert.deepEqual(seen, { good: true, text: 'ok', threw: false, bad: true, code: -32602 });
});
