// Exhaustion of the HTTP transport by one client, still open on main (issue 19, "Session lockout"
// and "No concurrency limits over HTTP"; both wait for the scale-out session design). Each test is
// a `todo`: it fails today, does not fail the suite, and passes once the limit exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/fetch-handler.js';

const info = { name: 'http-exhaustion', version: '1.0.0' };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };

function fixture(options = {}) {
  const server = createServer({
    info,
    tools: [{ name: 'slow', description: 'Answers after 300 ms.', inputSchema: { type: 'object' }, run: () => new Promise((resolve) => setTimeout(() => resolve('ok'), 300)) }],
    report: () => {},
  });
  const handler = createFetchHandler(server, { path: '/mcp', keepAliveMs: 0, ...options });
  const post = (body, headers = {}) => handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) }));
  return { handler, post };
}

test(
  'a full session table does not lock new clients out: sessions that never went past initialize make room',
  { todo: 'issue 19 "Session lockout": maxSessions initialize-only sessions get every new client 503 for up to sessionIdleMs' },
  async () => {
    const { handler, post } = fixture({ maxSessions: 5 });
    // An attacker opens sessions and never sends notifications/initialized.
    for (let i = 0; i < 5; i++) assert.equal((await post(initialize)).status, 200);
    const client = await post(initialize);
    await handler.close();
    assert.equal(client.status, 200, 'a new client gets a session');
  },
);

test(
  'HTTP bounds the requests in flight: past the limit a request gets 429 or 503 with Retry-After, not unbounded concurrency',
  { todo: 'issue 19 "No concurrency limits over HTTP": stdio has maxInFlight (256), HTTP runs every request at once' },
  async () => {
    const { handler, post } = fixture();
    const opened = await post(initialize);
    const session = opened.headers.get('mcp-session-id');
    await opened.text();
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session });
    const calls = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => post({ jsonrpc: '2.0', id: i + 2, method: 'tools/call', params: { name: 'slow', arguments: {} } }, { 'mcp-session-id': session })),
    );
    await handler.close();
    const refused = calls.filter((r) => r.status === 429 || r.status === 503);
    assert.ok(refused.length > 0, 'some of 1000 concurrent calls on one session are refused');
    assert.ok(refused.every((r) => r.headers.get('retry-after') !== null));
  },
);
