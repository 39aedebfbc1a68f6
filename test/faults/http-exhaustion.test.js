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
  // How many calls of `slow` ran, and the most at once.
  const runs = { count: 0, now: 0, peak: 0 };
  const server = createServer({
    info,
    tools: [{
      name: 'slow',
      description: 'Answers after 300 ms.',
      inputSchema: { type: 'object' },
      run: async () => {
        runs.count++;
        runs.peak = Math.max(runs.peak, ++runs.now);
        await new Promise((resolve) => setTimeout(resolve, 300));
        runs.now--;
        return 'ok';
      },
    }],
    report: () => {},
  });
  const handler = createFetchHandler(server, { path: '/mcp', keepAliveMs: 0, ...options });
  const post = (body, headers = {}, address) =>
    handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) }), address === undefined ? undefined : { remoteAddress: address });
  return { handler, post, runs };
}

const slowCall = (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {} } });

/** Opens a legacy session all the way (initialize, then notifications/initialized); its id. */
async function open(post, protocolVersion = '2025-11-25', address) {
  const opened = await post({ ...initialize, params: { ...initialize.params, protocolVersion } }, {}, address);
  assert.equal(opened.status, 200);
  const session = opened.headers.get('mcp-session-id');
  await opened.text();
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session }, address)).status, 202);
  return session;
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

test('HTTP bounds the requests in flight on one session: past maxInFlight (256) a request gets 429 with Retry-After and never runs', async () => {
  const { handler, post, runs } = fixture();
  const session = await open(post);
  const calls = await Promise.all(
    Array.from({ length: 1000 }, (_, i) => post(slowCall(i + 2), { 'mcp-session-id': session })),
  );
  const refused = calls.filter((r) => r.status === 429);
  assert.equal(runs.peak, 256, 'at most maxInFlight calls of one session run at once');
  assert.equal(runs.count, 256, 'a refused call never runs');
  assert.equal(refused.length, 744);
  for (const r of refused) {
    assert.equal(r.headers.get('retry-after'), '1');
    const body = await r.json();
    assert.equal(body.error.code, -31429);
    assert.match(body.error.message, /^Too Many Requests: this session \(or caller\) has as many requests running as it may; retry after the time in Retry-After/);
    assert.deepEqual(body.error.data, { retryAfterMs: 1000 });
  }
  // Once the calls in flight are answered, the session has room again.
  await Promise.all(calls.filter((r) => r.status === 200).map((r) => r.text()));
  assert.equal((await post(slowCall(5000), { 'mcp-session-id': session })).status, 200);
  await handler.close();
});

test('the handler-wide maxInFlightTotal refuses with 503 and Retry-After, whichever session asks', async () => {
  const { handler, post } = fixture({ maxInFlight: 10, maxInFlightTotal: 15 });
  const a = await open(post);
  const b = await open(post);
  // 20 calls at once, 10 on each session: each session is within its own limit, the handler is not.
  const calls = await Promise.all(Array.from({ length: 20 }, (_, i) => post(slowCall(i + 2), { 'mcp-session-id': i < 10 ? a : b })));
  assert.deepEqual(calls.map((r) => r.status).sort(), [...Array(15).fill(200), ...Array(5).fill(503)]);
  const refused = calls.find((r) => r.status === 503);
  const body = await refused.json();
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.equal(body.error.code, -32603);
  assert.match(body.error.message, /^Service Unavailable: the server has as many requests running as it may/);
  await Promise.all(calls.filter((r) => r.status === 200).map((r) => r.text()));
  await handler.close();
});

test('a batch whose requests do not all fit runs those that do; each other request gets its own error in the 200 batch reply', async () => {
  const { handler, post, runs } = fixture({ maxInFlight: 3 });
  const session = await open(post, '2025-03-26');
  const busy = post(slowCall(100), { 'mcp-session-id': session });
  const batch = [slowCall(1), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } }, slowCall(2), slowCall(3), slowCall(4)];
  const response = await post(batch, { 'mcp-session-id': session });
  assert.equal(response.status, 200);
  const replies = await response.json();
  assert.deepEqual(replies.map((r) => r.id).sort(), [1, 2, 3, 4], 'every request gets exactly one reply');
  const ok = replies.filter((r) => r.result !== undefined).map((r) => r.id);
  const refused = replies.filter((r) => r.error !== undefined);
  assert.deepEqual(ok, [1, 2]);
  assert.deepEqual(refused.map((r) => [r.id, r.error.code, r.error.data]), [[3, -31429, { retryAfterMs: 1000 }], [4, -31429, { retryAfterMs: 1000 }]]);
  assert.equal(runs.count, 3, 'the refused requests of the batch never ran');
  await (await busy).text();
  await handler.close();
});

test('a batch none of whose requests finds a place is refused whole with 429 before any of it runs', async () => {
  const { handler, post, runs } = fixture({ maxInFlight: 1 });
  const session = await open(post, '2025-03-26');
  const busy = post(slowCall(100), { 'mcp-session-id': session });
  const response = await post([slowCall(1), slowCall(2)], { 'mcp-session-id': session });
  assert.equal(response.status, 429);
  assert.equal(response.headers.get('retry-after'), '1');
  assert.equal((await response.json()).error.code, -31429);
  await (await busy).text();
  assert.equal(runs.count, 1);
  await handler.close();
});

test('maxInFlight must be a positive integer', () => {
  const server = createServer({ info, report: () => {} });
  assert.throws(() => createFetchHandler(server, { maxInFlight: 0 }), { name: 'TypeError', message: 'createFetchHandler: maxInFlight must be a positive integer, got 0' });
});
