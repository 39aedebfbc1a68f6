// Review of the default Host allow-list (issue 21 read the interfaces only for a wildcard bind):
// a wildcard or an address spelled another way than `0.0.0.0`, `::` or the canonical form is what
// `listen` binds to all the same, and a `Host` header is compared in its WHATWG URL form, so the
// list must hold that form: `--host ::0` or `--host 0` answers on the machine's own addresses and
// name, `--host 2001:DB8:0::1` on `[2001:db8::1]`. Failing closed (403) was the fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { createServer } from '../../dist/index.js';
import { serveHttp } from '../../dist/transport/http.js';
import { hostsForBind } from '../../dist/transport/bound-hosts.js';

const interfaces = {
  lo: [{ address: '127.0.0.1', family: 'IPv4' }, { address: '::1', family: 'IPv6' }],
  eth0: [{ address: '192.0.2.2', family: 'IPv4' }, { address: 'fd00::2', family: 'IPv6' }],
};

test('hostsForBind: every spelling of a wildcard lists the machine, every address its URL form', () => {
  const all = hostsForBind('::', interfaces, 'box');
  const v4 = hostsForBind('0.0.0.0', interfaces, 'box');
  assert.deepEqual(all, ['localhost', '127.0.0.1', '[::1]', '192.0.2.2', '[fd00::2]', 'box']);
  for (const wildcard of ['::0', '0:0:0:0:0:0:0:0', '0::0', '[::]']) assert.deepEqual(hostsForBind(wildcard, interfaces, 'box'), all, wildcard);
  // getaddrinfo (and the WHATWG URL parser) read `0` as 0.0.0.0.
  assert.deepEqual(hostsForBind('0', interfaces, 'box'), v4);
  assert.deepEqual(hostsForBind('2001:DB8:0:0::1', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '[2001:db8::1]']);
  assert.deepEqual(hostsForBind('::ffff:192.0.2.9', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '[::ffff:c000:209]']);
  assert.deepEqual(hostsForBind('0:0:0:0:0:0:0:1', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]']);
  assert.deepEqual(hostsForBind('Example.COM', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', 'example.com']);
  // Not a URL host at all: kept as given (lower case); no Host header can name it.
  assert.deepEqual(hostsForBind('a b', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', 'a b']);
});

/** Sends one raw initialize with this `Host` (to 127.0.0.1) and resolves to its status code. */
function statusFor(port, host) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
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
    socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

test('serveHttp with host "0" (a wildcard) answers a Host naming this machine, and still refuses another', async () => {
  const serving = await serveHttp(createServer({ info: { name: 'h', version: '1' }, stateSecret: 'k'.repeat(32) }), { host: '0', port: 0 });
  const port = new URL(serving.url).port;
  try {
    assert.equal(new URL(serving.url).hostname, '0.0.0.0');
    const own = new URL(`http://${hostname()}/`).hostname;
    assert.equal(await statusFor(port, `${own}:${port}`), 200, `Host ${own}`);
    assert.equal(await statusFor(port, `evil.example:${port}`), 403);
  } finally {
    await serving.close();
  }
});
