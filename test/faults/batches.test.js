// 2025-03-26 batches within bounds, on both transports: every request gets exactly one reply,
// however long the batch and however large or unserialisable its results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createServer } from '../../dist/index.js';
import { utf8Length } from '../../dist/server/batch.js';
import { createFetchHandler } from '../../dist/transport/http.js';
import { serve } from '../../dist/transport/stdio.js';

const INIT = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const call = (id, name, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function fixture(options = {}) {
  const lines = [];
  const server = createServer({
    info: { name: 'batch', version: '1' },
    report: (line) => lines.push(line),
    tools: [
      { name: 'big', description: 'A 1000-character text.', inputSchema: { type: 'object' }, run: () => 'é'.repeat(1000) },
      { name: 'bigint', description: 'A result JSON cannot carry.', inputSchema: { type: 'object' }, run: () => ({ content: [{ type: 'text', text: 'x' }], _meta: { n: 1n } }) },
      { name: 'ok', description: 'Short.', inputSchema: { type: 'object' }, run: () => 'ok' },
    ],
    ...options,
  });
  return { server, lines };
}

/** Runs `messages` over a real stdio stream pair; resolves to every decoded line written. */
async function overStdio(server, messages) {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks = [];
  output.on('data', (c) => chunks.push(c));
  const session = serve(input, output, server);
  for (const m of messages) input.write(JSON.stringify(m) + '\n');
  input.end();
  await session.closed;
  return Buffer.concat(chunks).toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Runs `messages` as POSTs of one legacy HTTP session; resolves to [status, body] of each. */
async function overHttp(server, messages) {
  const handler = createFetchHandler(server);
  const out = [];
  let session;
  for (const m of messages) {
    const response = await handler(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) },
      body: JSON.stringify(m),
    }));
    session ??= response.headers.get('mcp-session-id');
    const text = await response.text();
    out.push([response.status, text === '' ? null : JSON.parse(text)]);
  }
  await handler.close();
  return out;
}

test('a batch past maxBatchItems: each request past the limit gets its own -32600, on stdio and HTTP', async () => {
  const batch = Array.from({ length: 150 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
  batch.push({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } });
  for (const transport of [overStdio, overHttp]) {
    const { server, lines } = fixture();
    const replies = await transport(server, [INIT, batch]);
    const reply = transport === overStdio ? replies[1] : replies[1][1];
    if (transport === overHttp) assert.equal(replies[1][0], 200);
    assert.equal(reply.length, 150, 'one reply per request');
    assert.deepEqual(reply.map((r) => r.id), batch.slice(0, 150).map((m) => m.id));
    assert.deepEqual(reply[99], { jsonrpc: '2.0', id: 99, result: {} });
    assert.deepEqual(reply[100], { jsonrpc: '2.0', id: 100, error: { code: -32600, message: 'Invalid Request: a batch holds at most 100 messages; send this one in another batch' } });
    assert.match(lines.join('\n'), /a batch of 151 messages is over the limit of 100: 1 notification\(s\) or response\(s\) past it were dropped/);
  }
});

test('a batch reply past maxBatchReplyBytes, or with a result JSON cannot carry, still answers every request', async () => {
  const batch = [call(1, 'big'), call(2, 'bigint'), call(3, 'big'), call(4, 'ok'), { jsonrpc: '2.0', id: 5, method: 'ping' }, call(6, 'big')];
  for (const transport of [overStdio, overHttp]) {
    const { server, lines } = fixture({ maxBatchReplyBytes: 4400 });
    const replies = await transport(server, [INIT, batch]);
    const reply = transport === overStdio ? replies[1] : replies[1][1];
    assert.deepEqual(reply.map((r) => r.id), [1, 2, 3, 4, 5, 6]);
    assert.equal(reply[0].result.content[0].text.length, 1000);
    assert.deepEqual(reply[1].error, { code: -32603, message: 'Internal error: the result could not be serialised as JSON' });
    assert.equal(reply[2].result.content[0].text.length, 1000, '2 × ~2 KB of UTF-8 fit in 4400 bytes');
    assert.deepEqual(reply[3].result.content, [{ type: 'text', text: 'ok' }]);
    assert.deepEqual(reply[4].result, {});
    assert.deepEqual(reply[5].error, { code: -32603, message: 'Internal error: this reply would take the batch reply past 4400 bytes; send the request alone, or ask for less' });
    // Results fill at most 4400 bytes; an error standing in for a result adds its own ~150 bytes.
    assert.ok(utf8Length(JSON.stringify(reply)) <= 4400 + 200, String(utf8Length(JSON.stringify(reply))));
    assert.match(lines.join('\n'), /the reply to batch request 2 could not be serialised as JSON/);
  }
});

test('utf8Length counts UTF-8 bytes, a pair of surrogates as 4 and a lone one as 3', () => {
  assert.equal(utf8Length('a'), 1);
  assert.equal(utf8Length('é'), 2);
  assert.equal(utf8Length('€'), 3);
  assert.equal(utf8Length('😀'), 4);
  assert.equal(utf8Length('\ud800'), 3);
  assert.equal(utf8Length('x\udc00y'), 5);
  for (const text of ['héllo wörld €', '😀😀a', 'plain']) assert.equal(utf8Length(text), Buffer.byteLength(text));
});
