// Rate limiting (a token bucket per caller): the buckets themselves, the default key, the answers
// over the limit in both eras (an isError result for tools/call, -31429 with retryAfterMs for the
// rest), on a direct connection, over stdio and over HTTP (429 with Retry-After, before the body
// when the headers tell enough), and 2025-03-26 batches item by item. Time is an injected clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, RATE_LIMITED, RpcError } from '../../dist/index.js';
import { defaultRateLimitKey, rateLimit } from '../../dist/policies/index.js';
import { TokenBuckets } from '../../dist/policies/token-buckets.js';
import { initialize, INITIALIZED, MODERN, modernHeaders, modernMeta, overHttp, overStdio } from './drive.js';

const info = { name: 'rate-limit-test', version: '1.0.0' };
const echo = {
  name: 'echo',
  description: 'Echo the text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  run: ({ text }) => `echo: ${text}`,
};
const TOOL_REFUSAL = (seconds) =>
  `Rate limit exceeded: this client may make 2 requests per minute. Try again in ${seconds}; calling sooner fails the same way.`;
const REFUSAL = (method, seconds) =>
  `Rate limit exceeded: ${method} refused; retry after ${seconds} (limit: 2 requests per minute)`;

/** A server limited to 2 requests per minute per caller, on a clock the test moves. */
function limited(options = {}, serverOptions = {}) {
  const clock = { now: 1_000_000 };
  const server = createServer({
    info,
    tools: [echo],
    middleware: [rateLimit({ limit: 2, clock: () => clock.now, ...options })],
    ...serverOptions,
  });
  return { server, clock };
}

const call = (id, text = 'hi', extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, ...extra } });
const list = (id, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { ...extra } });

test('token buckets refill at their rate, cap bursts, drop full buckets and keep at most maxKeys', () => {
  // 1 token per 1000 ms, bursts of 2.
  const buckets = new TokenBuckets({ capacity: 2, refillPerMs: 1 / 1000, maxKeys: 3 });
  assert.equal(buckets.peek('a', 0), 0, 'an unknown key may go');
  assert.deepEqual([buckets.take('a', 0), buckets.take('a', 0), buckets.take('a', 0)], [0, 0, 1000]);
  assert.equal(buckets.peek('a', 400), 600, 'peek says how long, and takes nothing');
  assert.equal(buckets.take('a', 400), 600);
  assert.equal(buckets.take('a', 1000), 0, 'one token back after 1000 ms');
  assert.equal(buckets.take('a', 1000), 1000);
  // Past maxKeys the least recently used bucket goes, whatever its level.
  for (const key of ['b', 'c', 'd']) buckets.take(key, 1000);
  assert.equal(buckets.size, 3);
  assert.equal(buckets.peek('a', 1000), 0, '"a" was forgotten: it starts full again');
  // A bucket that has refilled says nothing: the two least recently used are looked at per take.
  buckets.take('e', 5000);
  assert.equal(buckets.size, 2, 'b and c had refilled by then and were dropped; d waits for the next take');
  buckets.take('e', 5000);
  assert.equal(buckets.size, 1, 'd dropped; e is not full');
  assert.equal(buckets.peek('e', 5000), 1000, 'e took both its tokens');
});

test('the default key: the principal, else the legacy session, else a lasting connection, else the client name', () => {
  const principal = { subject: 'alice', issuer: 'https://as.example', scopes: [], claims: {} };
  assert.equal(defaultRateLimitKey({ principal, transport: { sessionId: 's1' }, client: { name: 'c', capabilities: {} } }), 'principal:https://as.example alice');
  assert.equal(defaultRateLimitKey({ principal: { clientId: 'app', scopes: [], claims: {} }, transport: {} }), 'principal: app');
  assert.equal(defaultRateLimitKey({ transport: { kind: 'http', sessionId: 's1', connectionId: 'connection-9' } }), 'session:s1');
  assert.equal(defaultRateLimitKey({ transport: { kind: 'stdio', connectionId: 'connection-9' }, client: { name: 'c', capabilities: {} } }), 'connection:connection-9');
  assert.equal(
    defaultRateLimitKey({ transport: { kind: 'http', connectionId: 'connection-9' }, client: { name: 'c', capabilities: {} } }),
    'client:c',
    'a 2026-07-28 POST gets a new connection each time: the client name is the key',
  );
  assert.equal(defaultRateLimitKey({ transport: { kind: 'http' } }), undefined, 'before the body nothing names an unauthenticated 2026-07-28 caller');
});

test('over the limit, tools/call gets an isError result saying when to retry; other methods get -31429 with retryAfterMs (legacy)', async () => {
  const { server, clock } = limited();
  const connection = server.connect();
  assert.ok((await connection.handle(initialize())).result);
  assert.equal((await connection.handle(call(1))).result.content[0].text, 'echo: hi');
  const refused = await connection.handle(call(2));
  assert.deepEqual(refused.result, {
    content: [{ type: 'text', text: TOOL_REFUSAL('30 seconds') }],
    isError: true,
    _meta: { 'dev.baremcp/retryAfterMs': 30_000 },
  });
  assert.deepEqual((await connection.handle({ jsonrpc: '2.0', id: 3, method: 'ping' })).error, {
    code: RATE_LIMITED,
    message: REFUSAL('ping', '30 seconds'),
    data: { retryAfterMs: 30_000 },
  });
  assert.equal(RATE_LIMITED, -31429);
  clock.now += 29_000;
  assert.equal((await connection.handle(list(4))).error.message, REFUSAL('tools/list', '1 second'));
  clock.now += 1_000;
  assert.deepEqual((await connection.handle(list(5))).result.tools.map((t) => t.name), ['echo'], 'a token came back after 30 s');
  // Notifications are not requests: never counted, never answered.
  assert.equal(await connection.handle(INITIALIZED), null);
});

test('2026-07-28 requests are limited the same way, with the result shaped for the revision', async () => {
  const { server } = limited();
  const connection = server.connect();
  const _meta = modernMeta();
  assert.equal((await connection.handle(call(1, 'a', { _meta }))).result.resultType, 'complete');
  assert.ok((await connection.handle(list(2, { _meta }))).result.tools);
  const tool = (await connection.handle(call(3, 'b', { _meta }))).result;
  assert.deepEqual([tool.isError, tool.content[0].text, tool.resultType], [true, TOOL_REFUSAL('30 seconds'), 'complete']);
  const discover = await connection.handle({ jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta } });
  assert.deepEqual(discover.error, { code: -31429, message: REFUSAL('server/discover', '30 seconds'), data: { retryAfterMs: 30_000 } });
});

test('each caller has its own bucket: two stdio sessions do not share one', async () => {
  const { server } = limited();
  const first = await overStdio(server, [initialize(), call(1), call(2)]);
  const second = await overStdio(server, [initialize(), call(1), call(2)]);
  for (const replies of [first, second]) {
    const byId = new Map(replies.map((r) => [r.id, r]));
    assert.equal(byId.get(1).result.content[0].text, 'echo: hi');
    assert.equal(byId.get(2).result.isError, true, 'initialize and the first call used the two tokens');
  }
});

test('over stdio: tools/call gets the isError result, other methods a JSON-RPC error whose data carries retryAfterMs', async () => {
  const { server } = limited();
  const replies = await overStdio(server, [
    initialize(),
    INITIALIZED,
    list(1),
    call(2),
    list(3),
    { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: modernMeta() } },
  ]);
  const byId = new Map(replies.map((r) => [r.id, r]));
  assert.ok(byId.get(1).result.tools);
  assert.deepEqual(byId.get(2).result.content, [{ type: 'text', text: TOOL_REFUSAL('30 seconds') }]);
  assert.deepEqual(byId.get(3).error, { code: -31429, message: REFUSAL('tools/list', '30 seconds'), data: { retryAfterMs: 30_000 } });
  assert.equal(byId.get(4).error.code, -31429, 'a 2026-07-28 request on the same stdio session shares its bucket');
});

test('a 2025-03-26 batch: every item is counted and answered on its own, over stdio and over HTTP', async () => {
  const batch = [call(1, 'first'), { jsonrpc: '2.0', id: 2, method: 'ping' }, call(3, 'third'), list(4)];
  const check = (replies) => {
    const byId = new Map(replies.map((r) => [r.id, r]));
    assert.equal(byId.get(1).result.content[0].text, 'echo: first', 'the one token left after initialize');
    assert.deepEqual(byId.get(2).error, { code: -31429, message: REFUSAL('ping', '30 seconds'), data: { retryAfterMs: 30_000 } });
    assert.equal(byId.get(3).result.content[0].text, TOOL_REFUSAL('30 seconds'));
    assert.equal(byId.get(4).error.code, -31429);
  };
  const stdio = limited();
  const replies = await overStdio(stdio.server, [initialize('2025-03-26'), batch]);
  assert.ok(Array.isArray(replies[1]), 'one reply, an array');
  check(replies[1]);
  const { post, handler } = overHttp(limited().server);
  const opened = await post(initialize('2025-03-26'));
  const response = await post(batch, { 'mcp-session-id': opened.headers.get('mcp-session-id') });
  assert.equal(response.status, 200, 'a batch answer is 200 even when items are refused');
  assert.equal(response.headers.get('retry-after'), null);
  check(await response.json());
  await handler.close();
});

test('over HTTP, legacy: tools/call gets 200 with the isError result; another method 429 with Retry-After and its id', async () => {
  const { server, clock } = limited();
  const { post, handler } = overHttp(server);
  const opened = await post(initialize());
  const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') };
  assert.equal((await post(INITIALIZED, session)).status, 202, 'a notification does not count');
  assert.equal((await post(call(1), session)).status, 200);
  const tool = await post(call(2), session);
  assert.equal(tool.status, 200);
  assert.equal((await tool.json()).result.content[0].text, TOOL_REFUSAL('30 seconds'));
  clock.now += 100;
  const refused = await post(list(3), session);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '30', 'whole seconds, rounded up from 29900 ms');
  assert.deepEqual(await refused.json(), {
    jsonrpc: '2.0',
    id: 3,
    error: { code: -31429, message: REFUSAL('tools/list', '30 seconds'), data: { retryAfterMs: 29_900 } },
  });
  // Another session is another caller.
  const other = await post(initialize());
  assert.equal(other.status, 200);
  await handler.close();
});

/** A request body that records whether anything read it. */
function watchedBody(message) {
  const seen = { pulled: false };
  const bytes = new TextEncoder().encode(JSON.stringify(message));
  // highWaterMark 0: pulled only when something reads (not to fill a queue ahead).
  const body = new ReadableStream(
    {
      pull(controller) {
        seen.pulled = true;
        controller.enqueue(bytes);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}

test('over HTTP, 2026-07-28: a caller over the limit gets 429 before its body is read, when its key is in the headers', async () => {
  const { server, clock } = limited({ key: (caller) => caller.transport.headers?.get('x-api-key') ?? undefined });
  const { post, handler } = overHttp(server);
  const headers = (method, name) => modernHeaders(method, name, { 'x-api-key': 'key-1' });
  const _meta = modernMeta();
  assert.equal((await post(list(1, { _meta }), headers('tools/list'))).status, 200);
  assert.equal((await post(list(2, { _meta }), headers('tools/list'))).status, 200);
  // Over the limit: the Mcp-Method header says tools/list, so the body is never read.
  const watched = watchedBody(list(3, { _meta }));
  const early = await post(watched.body, headers('tools/list'));
  assert.equal(early.status, 429);
  assert.equal(early.headers.get('retry-after'), '30');
  assert.equal(early.headers.get('connection'), 'close', 'the unread body cannot leave the connection reusable');
  assert.equal(watched.seen.pulled, false, 'the body was not read');
  assert.deepEqual(await early.json(), {
    jsonrpc: '2.0',
    error: { code: -31429, message: REFUSAL('tools/list', '30 seconds'), data: { retryAfterMs: 30_000 } },
  });
  // A tools/call is let through to get its isError result, which the model reads.
  const tool = await post(call(4, 'x', { _meta }), headers('tools/call', 'echo'));
  assert.equal(tool.status, 200);
  const result = (await tool.json()).result;
  assert.deepEqual([result.isError, result.content[0].text], [true, TOOL_REFUSAL('30 seconds')]);
  // Another key, or the same key later, goes on.
  const otherKey = await post(list(5, { _meta }), modernHeaders('tools/list', undefined, { 'x-api-key': 'key-2' }));
  assert.equal(otherKey.status, 200);
  clock.now += 30_000;
  assert.equal((await post(list(6, { _meta }), headers('tools/list'))).status, 200);
  await handler.close();
});

test('over HTTP, 2026-07-28 with the default key (the client name, in the body): refused after parsing, still 429 with its id', async () => {
  const { server } = limited();
  const { post, handler } = overHttp(server);
  const _meta = modernMeta('greedy-client');
  for (const id of [1, 2]) assert.equal((await post(list(id, { _meta }), modernHeaders('tools/list'))).status, 200);
  const watched = watchedBody(list(3, { _meta }));
  const refused = await post(watched.body, modernHeaders('tools/list'));
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '30');
  assert.equal(watched.seen.pulled, true, 'the body had to be read to find the client name');
  assert.deepEqual((await refused.json()).id, 3);
  // Another client name is another bucket.
  const other = await post(list(4, { _meta: modernMeta('other-client') }), modernHeaders('tools/list'));
  assert.equal(other.status, 200);
  await handler.close();
});

test('the admission check sees the principal, and a broken one is reported and lets the request through', async () => {
  const { server } = limited();
  const principal = { subject: 'alice', scopes: [], claims: {} };
  const connection = server.connect({ transport: { kind: 'http' } });
  for (const id of [1, 2]) await connection.handle({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernMeta() } }, { principal });
  const refusal = server.admit({ method: 'tools/list', transport: { kind: 'http' }, principal });
  assert.ok(refusal instanceof RpcError);
  assert.equal(refusal.message, REFUSAL('tools/list', '30 seconds'));
  assert.equal(server.admit({ method: 'tools/call', transport: { kind: 'http' }, principal }), undefined, 'tools/call always goes on');
  assert.equal(server.admit({ method: 'notifications/cancelled', transport: { kind: 'http' }, principal }), undefined);
  assert.equal(server.admit({ method: undefined, transport: { kind: 'http' }, principal }), undefined, 'a legacy POST: the method is unknown');
  assert.equal(server.admit({ method: 'tools/list', transport: { kind: 'http' }, principal: { subject: 'bob', scopes: [], claims: {} } }), undefined);

  const lines = [];
  const broken = createServer({ info, report: (line) => lines.push(line) });
  broken.use(Object.assign((ctx, next) => next(), { admit: () => { throw new Error('no store'); } }));
  assert.equal(broken.admit({ method: 'tools/list', transport: { kind: 'http' }, principal: undefined }), undefined);
  assert.match(lines.join('\n'), /admission check failed \(the request goes on\): Error: no store/);
});

test('methods limits only the methods listed; burst and windowMs shape the bucket; bad options are refused', async () => {
  const clock = { now: 0 };
  const server = createServer({
    info,
    tools: [echo],
    middleware: [rateLimit({ limit: 1, windowMs: 1000, burst: 3, methods: ['tools/call'], clock: () => clock.now })],
  });
  const texts = [];
  for (let id = 1; id <= 4; id++) texts.push((await server.handle(call(id))).result.content[0].text);
  assert.deepEqual(texts, ['echo: hi', 'echo: hi', 'echo: hi', 'Rate limit exceeded: this client may make 1 request per second. Try again in 1 second; calling sooner fails the same way.']);
  for (let id = 5; id <= 10; id++) assert.ok((await server.handle({ jsonrpc: '2.0', id, method: 'ping' })).result, 'ping is not limited');
  clock.now += 1000;
  assert.equal((await server.handle(call(11))).result.content[0].text, 'echo: hi');
  assert.throws(() => rateLimit({ limit: 0 }), /^TypeError: rateLimit: limit must be a positive number, got 0$/);
  assert.throws(() => rateLimit({ limit: 5, windowMs: -1 }), /rateLimit: windowMs must be a positive number, got -1/);
  assert.throws(() => rateLimit({ limit: 5, maxKeys: Infinity }), /rateLimit: maxKeys must be a positive number, got Infinity/);
  assert.equal(MODERN, '2026-07-28');
});
