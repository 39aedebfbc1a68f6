// State a client makes the server keep, proved bounded (found by the security review): legacy
// resources/subscribe URIs (a template matches unboundedly many), and the bytes an SSE stream may
// hold for a client that stops reading it (HTTP maxBufferedBytes), on a real socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createServer } from '../../dist/index.js';
import { serveHttp } from '../../dist/transport/http.js';

const info = { name: 'bounded-state', version: '1.0.0' };

test('legacy resources/subscribe keeps at most 1000 URIs per session; past that -32602 names the limit, and unsubscribing makes room', async () => {
  const server = createServer({
    info,
    resources: [{ uriTemplate: 'file:///{+path}', name: 'files', read: (uri) => ({ text: uri }) }],
    report: () => {},
  });
  const connection = server.connect();
  let id = 0;
  const send = (method, params) => connection.handle({ jsonrpc: '2.0', id: ++id, method, params });
  await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  await connection.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let i = 0; i < 1000; i++) {
    const reply = await send('resources/subscribe', { uri: `file:///f/${i}` });
    assert.deepEqual(reply.result, {}, `subscription ${i}`);
  }
  const refused = await send('resources/subscribe', { uri: 'file:///f/one-more' });
  assert.deepEqual(refused.error, {
    code: -32602,
    message: 'resources/subscribe: this session holds 1000 subscriptions, the most it may; unsubscribe from one first',
  });
  assert.deepEqual((await send('resources/subscribe', { uri: 'file:///f/7' })).result, {}, 'a URI already held is fine');
  assert.deepEqual((await send('resources/unsubscribe', { uri: 'file:///f/7' })).result, {});
  assert.deepEqual((await send('resources/subscribe', { uri: 'file:///f/one-more' })).result, {});
  connection.close();
});

test('HTTP maxBufferedBytes: a client that stops reading an SSE stream loses it there, and the tool is told (its signal aborts)', async () => {
  const chunk = 'y'.repeat(64 * 1024);
  let sent = 0;
  let aborted = false;
  let finished;
  const done = new Promise((resolve) => (finished = resolve));
  const server = createServer({
    info,
    tools: [
      {
        name: 'flood',
        description: 'Reports progress with 64 KiB messages until it is stopped (or 2000 of them).',
        inputSchema: { type: 'object' },
        run: async (_args, ctx) => {
          for (let i = 0; i < 2000 && !ctx.signal.aborted; i++) {
            ctx.progress(i, 2000, chunk);
            sent++;
            if (i % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
          }
          aborted = ctx.signal.aborted;
          finished();
          return 'flooded';
        },
      },
    ],
    report: () => {},
  });
  const serving = await serveHttp(server, { port: 0, keepAliveMs: 0, maxBufferedBytes: 1024 * 1024 });
  const { port } = new URL(serving.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'flood',
      arguments: {},
      _meta: {
        progressToken: 1,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const socket = connect(Number(port), '127.0.0.1');
  socket.pause(); // The client reads nothing.
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      'Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\n' +
      `Mcp-Method: tools/call\r\nMcp-Name: flood\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await done;
  socket.destroy();
  await serving.close();
  assert.equal(aborted, true, 'the tool was stopped');
  // 1 MiB in the stream's queue, plus what the socket buffers hold: far from 2000 × 64 KiB.
  assert.ok(sent * chunk.length < 32 * 1024 * 1024, `${sent} messages of 64 KiB were queued`);
});
