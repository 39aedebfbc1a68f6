// Exhaustion of the HTTP transport by one client (issue 19, "Session lockout" and "No concurrency
// limits over HTTP"): half-open sessions cannot fill the session table for everyone, and no session
// or handler runs more requests at once than its limit.
import { createServer as createNodeServer } from 'node:http';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/fetch-handler.js';
import { MemorySessionStore } from '../../dist/transport/session-store.js';
import { createHttpHandler } from '../../dist/transport/http.js';

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

test('a full session table does not lock new clients out: sessions that never went past initialize make room, oldest first', async () => {
  const { handler, post } = fixture({ maxSessions: 5 });
  const client = await open(post);
  // An attacker opens sessions and never sends notifications/initialized.
  const halfOpen = [];
  for (let i = 0; i < 4; i++) {
    const r = await post(initialize);
    assert.equal(r.status, 200);
    halfOpen.push(r.headers.get('mcp-session-id'));
  }
  const next = await post(initialize);
  assert.equal(next.status, 200, 'a new client gets a session');
  const ping = (session) => post({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': session });
  assert.equal((await ping(halfOpen[0])).status, 404, 'the oldest half-open session made room');
  assert.equal((await ping(halfOpen[1])).status, 200);
  assert.equal((await ping(client)).status, 200, 'the initialized session was kept');
  await handler.close();
});

test('with no half-open session left, a new client takes the place of the least recently used one', async () => {
  const { handler, post } = fixture({ maxSessions: 2 });
  const first = await open(post);
  const second = await open(post);
  const ping = (session) => post({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': session });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal((await ping(first)).status, 200);
  await open(post);
  assert.equal((await ping(second)).status, 404, 'the least recently used session ended (its client starts again)');
  assert.equal((await ping(first)).status, 200);
  await handler.close();
});

test('sessions are capped per socket address: one address only ever pushes out its own, and behind a proxy the address is not counted', async () => {
  const { handler, post } = fixture({ maxSessions: 100, maxSessionsPerAddress: 2 });
  const ping = (session) => post({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': session });
  const other = await open(post, '2025-11-25', '192.0.2.2');
  const mine = [await open(post, '2025-11-25', '192.0.2.1'), await open(post, '2025-11-25', '192.0.2.1')];
  for (let i = 0; i < 5; i++) assert.equal((await post(initialize, {}, '192.0.2.1')).status, 200);
  assert.equal((await ping(other)).status, 200, 'another address keeps its session');
  // The first half-open one pushed out the least recently used; each later one the half-open before it.
  assert.deepEqual(await Promise.all(mine.map(async (s) => (await ping(s)).status)), [404, 200]);
  await handler.close();

  const proxied = fixture({ maxSessions: 100, maxSessionsPerAddress: 2, behindProxy: true });
  const all = [];
  for (let i = 0; i < 5; i++) all.push(await open(proxied.post, '2025-11-25', '192.0.2.1'));
  const statuses = await Promise.all(all.map(async (s) => (await proxied.post({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': s })).status));
  assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
  await proxied.handler.close();
});

test('a half-open session ends after uninitializedSessionMs (60 s), and a ping does not keep it; an initialized one lives sessionIdleMs', async () => {
  let now = 1_000_000;
  const store = new MemorySessionStore({ now: () => now });
  const { handler, post } = fixture({ sessionStore: store });
  const ping = (session) => post({ jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': session });
  const client = await open(post);
  const r = await post(initialize);
  const halfOpen = r.headers.get('mcp-session-id');
  now += 50_000;
  assert.equal((await ping(halfOpen)).status, 200);
  now += 59_000;
  assert.equal((await ping(halfOpen)).status, 200, 'still within 60 s of its last use');
  now += 61_000;
  assert.equal((await ping(halfOpen)).status, 404, 'gone 61 s after its last use');
  assert.equal((await ping(client)).status, 200, 'the initialized session lives on');
  now += 29 * 60_000;
  assert.equal((await ping(client)).status, 200);
  await handler.close();
});

test('MemorySessionStore: one owner or address only pushes out its own sessions, half-open ones first; limits are positive integers', async () => {
  let now = 0;
  const store = new MemorySessionStore({ maxSessions: 10, maxSessionsPerOwner: 2, maxSessionsPerAddress: 3, now: () => now });
  const record = (owner, initialized, address) => ({ owner, protocolVersion: '2025-11-25', client: { capabilities: {} }, initialized, resourceSubscriptions: [], ...(address ? { address } : {}) });
  assert.equal(await store.create('a1', record('alice', true), 1000), true);
  now = 1;
  assert.equal(await store.create('a2', record('alice', false), 1000), true);
  assert.equal(await store.create('b1', record('bob', true), 1000), true);
  now = 2;
  assert.equal(await store.create('a3', record('alice', true), 1000), true);
  assert.equal(await store.get('a2', 1000), undefined, "alice's half-open session made room");
  now = 3;
  assert.ok(await store.get('a1', 1000));
  assert.equal(await store.create('a4', record('alice', true), 1000), true);
  assert.equal(await store.get('a3', 1000), undefined, "then alice's least recently used");
  assert.ok(await store.get('b1', 1000), "bob's session stays");
  for (const id of ['x1', 'x2', 'x3', 'x4']) assert.equal(await store.create(id, record('', true, '192.0.2.1'), 1000), true);
  assert.equal(await store.get('x1', 1000), undefined, 'the address held 3 at most');
  assert.equal(store.size, 6);
  assert.throws(() => new MemorySessionStore({ maxSessionsPerOwner: 0 }), { name: 'TypeError', message: 'MemorySessionStore: maxSessionsPerOwner must be a positive integer' });
});

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

test('2026-07-28 requests without a principal count towards maxInFlightTotal: past it 503 with Retry-After', async () => {
  const { handler, post, runs } = fixture({ maxInFlight: 1, maxInFlightTotal: 3 });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'slow' };
  const calls = await Promise.all(Array.from({ length: 5 }, (_, i) => post({ ...slowCall(i + 1), params: { name: 'slow', arguments: {}, _meta: meta } }, headers)));
  assert.deepEqual(calls.map((r) => r.status).sort(), [200, 200, 200, 503, 503], 'anonymous callers are told apart by nothing: maxInFlight (1) does not apply');
  assert.ok(calls.filter((r) => r.status === 503).every((r) => r.headers.get('retry-after') === '1'));
  await Promise.all(calls.map((r) => r.text()));
  assert.equal(runs.count, 3);
  await handler.close();
});

test('node:http hands the socket address on: sessions from one address are capped (maxSessionsPerAddress)', async () => {
  const server = createServer({ info, report: () => {} });
  const mcp = createHttpHandler(server, { keepAliveMs: 0, maxSessionsPerAddress: 1 });
  const http = createNodeServer(mcp);
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  const send = (body, headers = {}) => fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
  try {
    const first = await send(initialize);
    const id = first.headers.get('mcp-session-id');
    await first.text();
    assert.equal((await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).status, 202);
    assert.equal((await (await send(initialize)).text()).includes('"result"'), true);
    const ping = await send({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id });
    await ping.text();
    assert.equal(ping.status, 404, 'the second session from 127.0.0.1 took the place of the first');
  } finally {
    await mcp.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});
