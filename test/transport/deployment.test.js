// What an operator meets when deploying the HTTP handler: streams that speak at once and keep
// speaking under the shortest idle time-out (Bun's 10 s), the health endpoint, a 403 that says
// which Host it refused and how to allow it, the default allowed hosts of a bound address, and
// the one line about a missing stateSecret. All in-process (web Request/Response).
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/http.js';
import { hostsForBind } from '../../dist/transport/bound-hosts.js';
import { NO_STATE_SECRET } from '../../dist/transport/deployment.js';

const LEGACY_INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const ask = {
  name: 'ask',
  description: 'Asks for a name.',
  inputSchema: { type: 'object' },
  run: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return `Hello, ${answer.content?.name}!`;
  },
};

function serverWith(options = {}) {
  const lines = [];
  const server = createServer({ info: { name: 'ops', version: '1' }, tools: [ask], report: (l) => lines.push(l), ...options });
  return { server, lines };
}

function post(handler, body, headers = {}) {
  return handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) }));
}

function modernCall(handler, params, id) {
  return post(
    handler,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: MODERN_META } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': params.name },
  );
}

async function legacySession(handler) {
  const response = await post(handler, LEGACY_INIT);
  assert.equal(response.status, 200);
  await response.json();
  const id = response.headers.get('mcp-session-id');
  assert.equal((await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).status, 202);
  return id;
}

function openGetStream(handler, sessionId) {
  return handler(new Request('http://localhost/mcp', { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } }));
}

/**
 * A reader of `stream` whose `queued()` gives the next chunk as text, or 'nothing yet' when none
 * arrives by the next macrotask (the read stays pending for the next call).
 */
function chunks(stream) {
  const reader = stream.getReader();
  let pending;
  return {
    async queued() {
      pending ??= reader.read().then(({ value, done }) => (done ? 'ended' : new TextDecoder().decode(value)));
      const nothing = new Promise((resolve) => setImmediate(() => resolve('nothing yet')));
      const result = await Promise.race([pending, nothing]);
      if (result !== 'nothing yet') pending = undefined;
      return result;
    },
    cancel: () => reader.cancel(),
  };
}

test('a legacy GET stream sends its first bytes at once, before any message exists', async () => {
  const handler = createFetchHandler(serverWith().server, { keepAliveMs: 0 });
  const response = await openGetStream(handler, await legacySession(handler));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const reader = chunks(response.body);
  assert.equal(await reader.queued(), ':\n\n', 'before the fix: nothing until the first keep-alive');
  await reader.cancel();
  await handler.close();
});

test('by default a quiet stream gets a keep-alive within 5 s, under the 10 s after which Bun cuts a silent connection', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const handler = createFetchHandler(serverWith().server);
  const response = await openGetStream(handler, await legacySession(handler));
  const reader = chunks(response.body);
  assert.equal(await reader.queued(), ':\n\n');
  mock.timers.tick(4_999);
  assert.equal(await reader.queued(), 'nothing yet');
  mock.timers.tick(1);
  assert.equal(await reader.queued(), ':\n\n', 'before the fix: the first keep-alive came at 15 s');
  mock.timers.tick(5_000);
  assert.equal(await reader.queued(), ':\n\n');
  await reader.cancel();
  const closed = handler.close();
  mock.timers.reset();
  await closed;
});

test('the health endpoint answers GET and HEAD with 200, by address too, and 503 once closing', async () => {
  const handler = createFetchHandler(serverWith({ stateSecret: 's' }).server, { path: '/mcp', healthPath: '/healthz' });
  const probe = (method, host = '10.1.2.3:3000') =>
    handler(new Request('http://localhost/healthz', { method, headers: { host } }));
  const ok = await probe('GET');
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-type'), 'application/json');
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await ok.json(), { status: 'ok' });
  const head = await probe('HEAD');
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  const wrong = await probe('POST');
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get('allow'), 'GET, HEAD');
  // The MCP endpoint itself still checks the Host.
  assert.equal((await post(handler, LEGACY_INIT, { host: '10.1.2.3:3000' })).status, 403);
  const closing = handler.close();
  const draining = await probe('GET');
  assert.equal(draining.status, 503);
  assert.deepEqual(await draining.json(), { status: 'closing' });
  await closing;
});

test('without healthPath there is no health endpoint; a healthPath that would shadow the endpoint is refused', async () => {
  const { server } = serverWith({ stateSecret: 's' });
  const handler = createFetchHandler(server, { path: '/mcp' });
  assert.equal((await handler(new Request('http://localhost/healthz'))).status, 404);
  await handler.close();
  for (const healthPath of ['/mcp', 'healthz']) {
    assert.throws(() => createFetchHandler(server, { path: '/mcp', healthPath }), {
      name: 'TypeError',
      message: `createFetchHandler: healthPath ${JSON.stringify(healthPath)} must be a path of its own, e.g. '/healthz'`,
    });
  }
});

test("a refused Host gets a 403 that names it and says how to allow it (nginx's default $proxy_host)", async () => {
  const handler = createFetchHandler(serverWith({ stateSecret: 's' }).server);
  // What nginx sends for `proxy_pass http://mcp_backend;` without `proxy_set_header Host`.
  const refused = await handler(
    new Request('http://mcp_backend/mcp', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(LEGACY_INIT) }),
  );
  assert.equal(refused.status, 403);
  const { error } = await refused.json();
  assert.equal(error.code, -32600);
  assert.match(error.message, /^Forbidden: Host "mcp_backend" is not allowed; allow it with allowedHosts \(baremcp serve --allowed-host\)/);
  assert.match(error.message, /proxy_set_header Host \$host/);
  const origin = await post(handler, LEGACY_INIT, { origin: 'https://evil.example' });
  assert.equal(origin.status, 403);
  assert.equal((await origin.json()).error.message, 'Forbidden: Origin "https://evil.example" is not allowed; allow it with allowedOrigins');
  await handler.close();
});

test('hostsForBind: localhost names and the address; for a wildcard every address of the machine and its name', () => {
  const interfaces = {
    lo: [
      { address: '127.0.0.1', family: 'IPv4' },
      { address: '::1', family: 'IPv6' },
    ],
    eth0: [
      { address: '192.0.2.2', family: 'IPv4' },
      { address: 'fd00::2', family: 'IPv6' },
      { address: 'fe80::fc:ff:fe00:1', family: 'IPv6', scopeid: 4 },
    ],
  };
  assert.deepEqual(hostsForBind('127.0.0.1', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]']);
  assert.deepEqual(hostsForBind('192.0.2.2', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '192.0.2.2']);
  assert.deepEqual(hostsForBind('fe80::1%eth0', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '[fe80::1]']);
  assert.deepEqual(hostsForBind('0.0.0.0', interfaces, 'Box'), ['localhost', '127.0.0.1', '[::1]', '192.0.2.2', 'box']);
  assert.deepEqual(hostsForBind('::', interfaces, 'box'), [
    'localhost', '127.0.0.1', '[::1]', '192.0.2.2', '[fd00::2]', '[fe80::fc:ff:fe00:1]', 'box',
  ]);
});

test('serving HTTP without a stateSecret reports one line saying what breaks with more than one replica', async () => {
  const without = serverWith();
  const handler = createFetchHandler(without.server);
  assert.deepEqual(without.lines, [NO_STATE_SECRET]);
  assert.match(NO_STATE_SECRET, /more than one replica .* fails with "integrity check failed"/);
  assert.match(NO_STATE_SECRET, /--state-secret, or BAREMCP_STATE_SECRET$/);
  await handler.close();
  for (const server of [serverWith({ stateSecret: 'k' }), serverWith()]) {
    if (!server.server.hasStateSecret) server.server.useStateSecret('k');
    const quiet = createFetchHandler(server.server);
    assert.deepEqual(server.lines, []);
    await quiet.close();
  }
});

test('useStateSecret makes replicas resume each other, like the stateSecret option; an empty secret is refused', async () => {
  const option = createFetchHandler(serverWith({ stateSecret: 'shared' }).server);
  const later = serverWith();
  assert.equal(later.server.hasStateSecret, false);
  assert.equal(later.server.useStateSecret('shared'), later.server);
  assert.equal(later.server.hasStateSecret, true);
  const set = createFetchHandler(later.server);
  const first = await (await modernCall(option, { name: 'ask', arguments: {} }, 1)).json();
  assert.equal(first.result.resultType, 'input_required');
  const [key] = Object.keys(first.result.inputRequests);
  const retry = {
    name: 'ask',
    arguments: {},
    requestState: first.result.requestState,
    inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
  };
  const second = await (await modernCall(set, retry, 2)).json();
  assert.equal(second.result.content[0].text, 'Hello, Ada!');
  const stranger = createFetchHandler(serverWith().server);
  const refused = await (await modernCall(stranger, retry, 3)).json();
  assert.equal(refused.error.code, -32602);
  assert.match(refused.error.message, /integrity check failed/);
  assert.throws(() => later.server.useStateSecret(''), { name: 'TypeError', message: 'server.useStateSecret: the secret must be a non-empty string or Uint8Array' });
  assert.throws(() => createServer({ info: { name: 'x', version: '1' }, stateSecret: '' }), /createServer: stateSecret: the secret must be a non-empty/);
  await Promise.all([option.close(), set.close(), stranger.close()]);
});
