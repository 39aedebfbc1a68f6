// A request always gets a JSON-RPC response with a `result` object or an `error`, whatever a
// middleware, a custom method or an extension returns. A middleware that forgets `return next()`,
// or a policy factory given uncalled (`audit` for `audit()`), used to make every reply
// `{"jsonrpc":"2.0","id":1}`: no result, no error, and an SDK client waiting until its time-out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { audit } from '../../dist/policies/index.js';
import { init } from '../helpers.js';

const info = { name: 'result-objects', version: '1.0.0' };
const tools = [{ name: 'noop', description: 'Do nothing.', inputSchema: { type: 'object' }, run: () => 'ok' }];
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'com.example/e': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
};

/** A server whose diagnostics are kept in `lines`. */
function fixture(options) {
  const lines = [];
  const server = createServer({ info, tools, report: (line) => lines.push(line), ...options });
  return { server, lines };
}

test('a middleware that returns nothing gives -32603 and a report naming it, not a reply without result', async () => {
  const { server, lines } = fixture({ middleware: [async function forgetful(_ctx, next) { await next(); }] });
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.deepEqual(reply, {
    jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error while handling tools/list' },
  });
  assert.match(lines.join('\n'), /middleware #0 \(forgetful\) returned undefined for tools\/list, not a result object: return the result of next\(\), or a result of its own/);
});

test('a policy factory given uncalled (audit for audit()) is named in the report', async () => {
  const { server, lines } = fixture({ middleware: [audit] });
  const reply = await server.handle(init(1, '2025-11-25'));
  assert.equal(reply.error?.code, -32603);
  assert.match(lines.join('\n'), /middleware #0 \(audit\) returned a function for initialize, not a result object.*write audit\(\), not audit/);
});

test('a middleware that answers with an array or a string is refused the same way', async () => {
  for (const [value, shown] of [[[1, 2], 'an array'], ['hi', 'a string'], [null, 'null']]) {
    const { server, lines } = fixture({ middleware: [async () => value] });
    const reply = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noop' } });
    assert.equal(reply.error?.code, -32603, JSON.stringify(value));
    assert.equal('result' in reply, false);
    assert.match(lines.join('\n'), new RegExp(`returned ${shown} for tools/call, not a result object`));
  }
});

test('a custom method, an extension method or a wrapper that returns no object gives -32603 naming it, in both eras', async () => {
  const { server, lines } = fixture({
    extensions: [{
      id: 'com.example/e',
      methods: { 'com.example/e/none': () => undefined },
      wrap: { 'tools/list': () => 'listed' },
    }],
  });
  server.method('com.example/none', () => {});
  const legacyInit = init(0, '2025-11-25');
  legacyInit.params.capabilities = { extensions: { 'com.example/e': {} } };
  await server.handle(legacyInit);
  for (const method of ['com.example/none', 'com.example/e/none', 'tools/list']) {
    const legacy = await server.handle({ jsonrpc: '2.0', id: 3, method });
    assert.deepEqual(legacy.error, { code: -32603, message: `Internal error while handling ${method}` }, method);
    const modern = await server.handle({ jsonrpc: '2.0', id: 4, method, params: { _meta: MODERN_META } });
    assert.deepEqual(modern.error, { code: -32603, message: `Internal error while handling ${method}` }, method);
  }
  const text = lines.join('\n');
  assert.match(text, /the handler of com\.example\/none returned undefined, not a result object/);
  assert.match(text, /the handler of com\.example\/e\/none returned undefined, not a result object/);
  assert.match(text, /the handler of tools\/list returned a string, not a result object/);
});

test('an empty object is a result: a custom method may answer {}', async () => {
  const { server } = fixture();
  server.method('com.example/empty', () => ({}));
  await server.handle(init(0, '2025-11-25'));
  assert.deepEqual(await server.handle({ jsonrpc: '2.0', id: 5, method: 'com.example/empty' }), { jsonrpc: '2.0', id: 5, result: {} });
});

test('cache hints a middleware sets on a 2026-07-28 result are kept (a per-caller filter marks its list private)', async () => {
  const perCaller = async (ctx, next) => {
    const result = await next();
    if (ctx.method !== 'tools/list') return result;
    return { ...result, tools: result.tools.filter(() => ctx.client.name === 'modern'), cacheScope: 'private' };
  };
  const { server } = fixture({ middleware: [perCaller], cache: { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } } });
  const reply = await server.handle({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: MODERN_META } });
  assert.deepEqual([reply.result.tools.length, reply.result.ttlMs, reply.result.cacheScope], [1, 60000, 'private']);
});
