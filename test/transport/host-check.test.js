// DNS-rebinding defence reads every host a request names: the Host header, and the authority of
// an absolute-form request target (RFC 9112 §3.2.2), over a real socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { createServer } from '../../dist/index.js';
import { createFetchHandler, serveHttp } from '../../dist/transport/http.js';
import { requestHostAllowed } from '../../dist/transport/http-rules.js';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });

/** Sends one raw HTTP/1.1 request and resolves to its status code. */
function raw(port, target, host) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    const hostLine = host === undefined ? '' : `Host: ${host}\r\n`;
    socket.write(
      `POST ${target} HTTP/1.1\r\n${hostLine}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${Buffer.byteLength(INIT)}\r\nConnection: close\r\n\r\n${INIT}`,
    );
  });
}

test('an absolute-form target naming localhost with Host: evil.example is refused with 403, over a real socket', async () => {
  const serving = await serveHttp(createServer({ info: { name: 'h', version: '1' } }), { port: 0 });
  const port = new URL(serving.url).port;
  try {
    assert.equal(await raw(port, `http://localhost:${port}/mcp`, 'evil.example'), 403, 'before the fix: 200');
    assert.equal(await raw(port, '/mcp', 'evil.example'), 403);
    assert.equal(await raw(port, `http://evil.example:${port}/mcp`, `localhost:${port}`), 403);
    assert.equal(await raw(port, `http://localhost:${port}/mcp`, `localhost:${port}`), 200);
    assert.equal(await raw(port, '/mcp', `127.0.0.1:${port}`), 200);
  } finally {
    await serving.close();
  }
});

test('the web-standard handler checks the Host header as well as the URL', async () => {
  const handler = createFetchHandler(createServer({ info: { name: 'h', version: '1' } }));
  const post = (host) =>
    handler(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INIT,
    }));
  assert.equal((await post('evil.example')).status, 403);
  assert.equal((await post('localhost')).status, 200);
  await handler.close();
});

test('requestHostAllowed refuses a malformed Host and one with user info or a path', () => {
  const url = new URL('http://localhost:3000/mcp');
  const allowed = ['localhost', '127.0.0.1'];
  assert.equal(requestHostAllowed(url, 'localhost:3000', allowed), true);
  assert.equal(requestHostAllowed(url, null, allowed), true);
  for (const bad of ['evil.example', 'localhost@evil.example', 'localhost/x', 'local host', '', 'localhost:3000?x']) {
    assert.equal(requestHostAllowed(url, bad, allowed), false, bad);
  }
  assert.equal(requestHostAllowed(url, 'anything', '*'), true);
});

test('a POST refused before its body is read (415, 406) closes the connection, so the unread body is not the next request', async () => {
  const serving = await serveHttp(createServer({ info: { name: 'h', version: '1' } }), { port: 0 });
  const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
  const { request } = await import('node:http');
  const send = (headers) =>
    new Promise((resolve, reject) => {
      const req = request(serving.url, { method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(INIT), ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve([res.statusCode, res.headers.connection]));
      });
      req.on('error', reject);
      req.end(INIT);
    });
  try {
    assert.deepEqual(await send({ 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }), [415, 'close']);
    assert.deepEqual(await send({ 'content-type': 'application/json', accept: 'text/html' }), [406, 'close']);
    const [status] = await send({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    assert.equal(status, 200, 'the next request on the agent is served');
  } finally {
    agent.destroy();
    await serving.close();
  }
});

test('serveHttp with host "0" (a wildcard) answers a Host naming this machine, and still refuses another', async () => {
  const serving = await serveHttp(createServer({ info: { name: 'h', version: '1' }, stateSecret: 'k'.repeat(32) }), { host: '0', port: 0 });
  const port = new URL(serving.url).port;
  try {
    assert.equal(new URL(serving.url).hostname, '0.0.0.0');
    const own = new URL(`http://${hostname()}/`).hostname;
    assert.equal(await raw(port, '/mcp', `${own}:${port}`), 200, `Host ${own}`);
    assert.equal(await raw(port, '/mcp', `evil.example:${port}`), 403);
  } finally {
    await serving.close();
  }
});
