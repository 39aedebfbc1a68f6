// Every revision over the stdio transport with raw messages; every reply checked against that
// revision's published schema.json (ajv as the oracle). Also the 2026-07-28 stateless era, the
// dual-era connection, identity resolution and multi round-trip requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { createServer, ErrorCode } from '../../dist/index.js';
import { serve } from '../../dist/transport/stdio.js';
import { resolveClientIdentity } from '../../dist/server/identity.js';
import { REVISIONS, oracle, assertWire, schemaDir } from '../mcp-oracle.js';

const skip = schemaDir ? false : 'the MCP schemas are not at ../shared/mcp-schema';
const LEGACY = REVISIONS.slice(0, 4);
const MODERN = '2026-07-28';

const info = { name: 'rev-server', version: '1.0.0', title: 'Revisions', description: 'A test server', websiteUrl: 'https://example.com', icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }] };
const tools = [
  { name: 'echo', title: 'Echo', description: 'Echo.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true }, icons: [{ src: 'https://example.com/e.png' }], run: ({ text }) => `echo: ${text}` },
  { name: 'fail', description: 'Fails.', inputSchema: { type: 'object' }, run: () => { throw new Error('nope'); } },
  { name: 'structured', description: 'Structured.', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } } }, run: () => ({ content: [], structuredContent: { n: 2 } }) },
  {
    name: 'greet',
    description: 'Asks the user for a name, then greets.',
    inputSchema: { type: 'object', properties: { greeting: { type: 'string' } } },
    run: async ({ greeting = 'Hello' }, ctx) => {
      const answer = await ctx.elicit({ mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
      if (answer.action !== 'accept') return 'no name given';
      const second = await ctx.elicit({ mode: 'form', message: 'Your city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } });
      return `${greeting}, ${answer.content.name} from ${second.content?.city ?? 'nowhere'}`;
    },
  },
  {
    name: 'work',
    description: 'Reports progress and logs.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) => { ctx.progress(1, 2, 'half'); ctx.log('info', 'working'); ctx.progress(2, 2); return 'done'; },
  },
];

const modernMeta = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-client', version: '3.0.0' },
  ...extra,
});

/** Runs raw lines through the stdio transport; resolves to every message the server wrote. */
async function exchange(lines, server = createServer({ info, tools, report: () => {} })) {
  const input = new PassThrough();
  const chunks = [];
  const output = new Writable({ write(c, _e, cb) { chunks.push(c); cb(); } });
  const session = serve(input, output, server);
  for (const line of lines) input.write(JSON.stringify(line) + '\n');
  input.end();
  await session.closed;
  return Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const byId = (messages, id) => messages.find((m) => m.id === id && !('method' in m));

for (const revision of LEGACY) {
  test(`revision ${revision}: every reply over stdio is valid against its schema.json`, { skip }, async () => {
    const o = oracle(revision);
    const responseDef = o.has('JSONRPCError') ? 'JSONRPCError' : 'JSONRPCErrorResponse';
    const messages = await exchange([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fail', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'structured', arguments: {} } },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'nope/nope' },
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'missing' } },
      { jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'debug' } },
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'work', arguments: {}, _meta: { progressToken: 'p1' } } },
    ]);
    const init = byId(messages, 1);
    assert.equal(init.result.protocolVersion, revision);
    assertWire(assert, revision, 'InitializeResult', init.result);
    assertWire(assert, revision, 'ListToolsResult', byId(messages, 2).result);
    for (const id of [3, 4, 5, 10]) assertWire(assert, revision, 'CallToolResult', byId(messages, id).result);
    for (const id of [6, 9]) assertWire(assert, revision, 'EmptyResult', byId(messages, id).result);
    for (const id of [7, 8]) assertWire(assert, revision, responseDef, byId(messages, id));
    for (const m of messages) {
      if ('method' in m) assertWire(assert, revision, 'ServerNotification', m);
      assertWire(assert, revision, 'JSONRPCMessage', m);
      assert.equal('resultType' in (m.result ?? {}), false, 'no resultType before 2026-07-28');
    }
    // Shaped for the revision: structuredContent only from 2025-06-18.
    assert.equal('structuredContent' in byId(messages, 5).result, revision >= '2025-06-18');
    assert.equal('title' in byId(messages, 2).result.tools[0], revision >= '2025-06-18');
    assert.equal('icons' in byId(messages, 2).result.tools[0], revision >= '2025-11-25');
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    assert.equal(progress.length, 2);
    assert.equal('message' in progress[0].params, revision >= '2025-03-26');
    assert.equal(messages.filter((m) => m.method === 'notifications/message').length, 1);
  });
}

test('revision 2026-07-28: server/discover, tools/list and tools/call work without initialize, valid against schema.json', { skip }, async () => {
  const messages = await exchange([
    { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'm' }, _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'structured', arguments: {}, _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'work', arguments: {}, _meta: modernMeta({ progressToken: 7, 'io.modelcontextprotocol/logLevel': 'info' }) } },
    { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'work', arguments: {}, _meta: modernMeta() } },
  ]);
  const discover = byId(messages, 'd');
  assertWire(assert, MODERN, 'DiscoverResultResponse', discover);
  assert.deepEqual(discover.result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.equal(discover.result.resultType, 'complete');
  assert.deepEqual(discover.result._meta['io.modelcontextprotocol/serverInfo'].name, 'rev-server');
  assert.equal(discover.result.ttlMs, 0);
  const list = byId(messages, 2);
  assertWire(assert, MODERN, 'ListToolsResultResponse', list);
  assert.equal(list.result.cacheScope, 'public');
  assert.equal(list.result.tools.length, tools.length);
  const call = byId(messages, 3);
  assertWire(assert, MODERN, 'CallToolResultResponse', call);
  assert.equal(call.result.content[0].text, 'echo: m');
  assert.equal(call.result.resultType, 'complete');
  assert.equal('ttlMs' in call.result, false);
  assertWire(assert, MODERN, 'CallToolResultResponse', byId(messages, 4));
  assert.deepEqual(byId(messages, 4).result.structuredContent, { n: 2 });
  const notes = messages.filter((m) => 'method' in m);
  for (const n of notes) assertWire(assert, MODERN, 'JSONRPCNotification', n);
  // Progress for the request with a token; a log message only for the request that carried logLevel.
  assert.equal(notes.filter((n) => n.method === 'notifications/progress').length, 2);
  assert.equal(notes.filter((n) => n.method === 'notifications/message').length, 1);
});

test('2026-07-28 errors: unsupported version -32022 with supported/requested, missing capabilities -32602, removed methods -32601', { skip }, async () => {
  const messages = await exchange([
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...modernMeta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } },
    { jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'info', _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 5, method: 'server/discover' },
    { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'greet', arguments: {}, _meta: modernMeta() } },
  ]);
  const unsupported = byId(messages, 1);
  assertWire(assert, MODERN, 'UnsupportedProtocolVersionError', unsupported);
  assert.deepEqual(unsupported.error.data, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2099-01-01' });
  assert.equal(byId(messages, 2).error.code, ErrorCode.InvalidParams);
  assert.match(byId(messages, 2).error.message, /clientCapabilities/);
  assert.equal(byId(messages, 3).error.code, ErrorCode.MethodNotFound);
  assert.equal(byId(messages, 4).error.code, ErrorCode.MethodNotFound);
  assert.equal(byId(messages, 5).error.code, ErrorCode.InvalidParams);
  const missing = byId(messages, 6);
  assertWire(assert, MODERN, 'MissingRequiredClientCapabilityError', missing);
  assert.deepEqual(missing.error.data, { requiredCapabilities: { elicitation: {} } });
  for (const m of messages) assertWire(assert, MODERN, 'JSONRPCErrorResponse', m);
});

test('a dual-era connection: a legacy handshake and modern requests interleave on one stdio stream', { skip }, async () => {
  const messages = await exchange([
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'structured', arguments: {}, _meta: modernMeta() } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'structured', arguments: {} } },
  ]);
  assertWire(assert, MODERN, 'CallToolResultResponse', byId(messages, 2));
  assert.deepEqual(byId(messages, 2).result.structuredContent, { n: 2 });
  const legacy = byId(messages, 3).result;
  assertWire(assert, '2025-03-26', 'CallToolResult', legacy);
  assert.equal('structuredContent' in legacy, false);
  assert.equal('resultType' in legacy, false);
});

test('multi round-trip: input_required, then retries with inputResponses and requestState finish the call', { skip }, async () => {
  const server = createServer({ info, tools, report: () => {} });
  const caps = { elicitation: { form: {} } };
  const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': caps });
  const call = (id, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Hi' }, _meta: meta, ...extra } });
  const first = byId(await exchange([call(1)], server), 1);
  assertWire(assert, MODERN, 'JSONRPCResultResponse', first);
  assertWire(assert, MODERN, 'InputRequiredResult', first.result);
  assert.equal(first.result.resultType, 'input_required');
  const [key] = Object.keys(first.result.inputRequests);
  assert.equal(first.result.inputRequests[key].method, 'elicitation/create');
  assertWire(assert, MODERN, 'InputRequest', first.result.inputRequests[key]);

  const second = byId(await exchange([call(2, { inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.result.requestState })], server), 2);
  assert.equal(second.result.resultType, 'input_required');
  const [key2] = Object.keys(second.result.inputRequests);
  assert.notEqual(key2, key);

  const third = byId(await exchange([call(3, { inputResponses: { [key2]: { action: 'accept', content: { city: 'London' } } }, requestState: second.result.requestState })], server), 3);
  assertWire(assert, MODERN, 'CallToolResultResponse', third);
  assert.equal(third.result.content[0].text, 'Hi, Ada from London');

  // A tampered state, a state replayed on other arguments, and one from another server are refused.
  const tampered = first.result.requestState.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
  const refused = await exchange([
    call(4, { inputResponses: { [key]: { action: 'accept', content: { name: 'Eve' } } }, requestState: tampered }),
    { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'greet', arguments: { greeting: 'Yo' }, _meta: meta, requestState: first.result.requestState } },
  ], server);
  for (const id of [4, 5]) {
    assert.equal(byId(refused, id).error.code, ErrorCode.InvalidParams);
    assert.match(byId(refused, id).error.message, /requestState/);
  }
  const other = byId(await exchange([call(6, { requestState: first.result.requestState })], createServer({ info, tools })), 6);
  assert.equal(other.error.code, ErrorCode.InvalidParams);
});

test('two servers sharing a stateSecret resume each other\'s multi round-trip requests', async () => {
  const a = createServer({ info, tools, stateSecret: 'shared secret' });
  const b = createServer({ info, tools, stateSecret: 'shared secret' });
  const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
  const first = await a.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: {}, _meta: meta } });
  const key = Object.keys(first.result.inputRequests)[0];
  const second = await b.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {}, _meta: meta, inputResponses: { [key]: { action: 'decline' } }, requestState: first.result.requestState } });
  assert.equal(second.result.content[0].text, 'no name given');
});

test('a legacy client gets a real elicitation/create request, correlated by id', async () => {
  const server = createServer({ info, tools });
  const sent = [];
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } } });
  const pending = connection.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {} } });
  await new Promise((r) => setTimeout(r, 5));
  const ask = sent.find((m) => m.method === 'elicitation/create');
  assert.ok(ask, 'an elicitation request was sent');
  assert.equal(typeof ask.id, 'string');
  await connection.handle({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Bo' } } });
  await new Promise((r) => setTimeout(r, 5));
  const ask2 = sent.filter((m) => m.method === 'elicitation/create')[1];
  await connection.handle({ jsonrpc: '2.0', id: ask2.id, result: { action: 'accept', content: {} } });
  const reply = await pending;
  assert.equal(reply.result.content[0].text, 'Hello, Bo from nowhere');
});

test('a legacy client request times out with notifications/cancelled, and a missing capability is a tool error', async () => {
  const server = createServer({ info, tools, inputTimeoutMs: 20 });
  const sent = [];
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } } });
  const reply = await connection.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {} } });
  assert.equal(reply.result.isError, true);
  assert.match(reply.result.content[0].text, /timed out/);
  const ask = sent.find((m) => m.method === 'elicitation/create');
  assert.deepEqual(sent.find((m) => m.method === 'notifications/cancelled').params.requestId, ask.id);

  const plain = createServer({ info, tools }).connect();
  await plain.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  const refused = await plain.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {} } });
  assert.equal(refused.result.isError, true);
  assert.match(refused.result.content[0].text, /elicitation/);
});

test('resolveClientIdentity takes each field from _meta, then the transport, then the session, and never throws', () => {
  const request = { params: { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'from-meta' } } } };
  assert.deepEqual(
    resolveClientIdentity({ request, transport: { protocolVersion: '2025-06-18', clientVersion: '9' }, session: { clientName: 's', clientVersion: '1', protocolVersion: '2024-11-05' } }),
    { clientName: 'from-meta', clientVersion: '9', protocolVersion: '2025-06-18' },
  );
  assert.deepEqual(resolveClientIdentity({ session: { clientName: 's', protocolVersion: '2024-11-05' } }), { clientName: 's', protocolVersion: '2024-11-05' });
  assert.deepEqual(resolveClientIdentity({ request: { params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } } }), { protocolVersion: MODERN });
  for (const junk of [undefined, null, 5, 'x', { request: 7 }, { request: { params: [] } }, { transport: 'x', session: 3 }]) {
    assert.deepEqual(resolveClientIdentity(junk), {});
  }
  const hostile = { get params() { throw new Error('boom'); } };
  assert.deepEqual(resolveClientIdentity({ request: hostile }), {});
});

test('identity is per request: concurrent modern requests see their own client', async () => {
  const seen = [];
  const who = { name: 'who', description: 'Who calls.', inputSchema: { type: 'object' }, run: async (_a, ctx) => { await new Promise((r) => setTimeout(r, 5)); seen.push(`${ctx.client.name}@${ctx.protocolVersion}`); return ctx.client.name ?? 'anon'; } };
  const server = createServer({ info, tools: [who] });
  const connection = server.connect();
  await connection.handle({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } });
  const calls = ['a', 'b', 'c'].map((name, i) => connection.handle({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'who', arguments: {}, _meta: modernMeta({ 'io.modelcontextprotocol/clientInfo': { name, version: '1' } }) } }));
  calls.push(connection.handle({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'who', arguments: {} } }));
  const replies = await Promise.all(calls);
  assert.deepEqual(replies.map((r) => r.result.content[0].text), ['a', 'b', 'c', 'legacy']);
  assert.deepEqual(seen.sort(), ['a@2026-07-28', 'b@2026-07-28', 'c@2026-07-28', 'legacy@2025-06-18']);
});

test('2026-07-28 subscriptions/listen: acknowledged first, tagged notifications, cancel ends it silently, end of input ends it gracefully', { skip }, async () => {
  const server = createServer({ info, tools, report: () => {} });
  const input = new PassThrough();
  const chunks = [];
  const output = new Writable({ write(c, _e, cb) { chunks.push(c); cb(); } });
  const session = serve(input, output, server);
  const messages = () => Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const listen = (id, notifications) => ({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: modernMeta(), notifications } });
  input.write(JSON.stringify(listen('s1', { toolsListChanged: true, promptsListChanged: true })) + '\n');
  input.write(JSON.stringify(listen('s2', { resourcesListChanged: true })) + '\n');
  await new Promise((r) => setTimeout(r, 10));
  server.tools.add({ name: 'late', description: 'Late.', inputSchema: { type: 'object' }, run: () => 'x' });
  input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 's2' } }) + '\n');
  await new Promise((r) => setTimeout(r, 10));
  input.end();
  await session.closed;
  const all = messages();
  const acks = all.filter((m) => m.method === 'notifications/subscriptions/acknowledged');
  assert.deepEqual(acks.map((a) => [a.params._meta['io.modelcontextprotocol/subscriptionId'], a.params.notifications]), [['s1', { toolsListChanged: true }], ['s2', {}]]);
  const changed = all.filter((m) => m.method === 'notifications/tools/list_changed');
  assert.deepEqual(changed.map((m) => m.params._meta['io.modelcontextprotocol/subscriptionId']), ['s1']);
  assert.ok(all.indexOf(acks[0]) < all.indexOf(changed[0]));
  for (const m of [...acks, ...changed]) assertWire(assert, MODERN, 'ServerNotification', m);
  assert.equal(byId(all, 's2'), undefined, 'a cancelled subscription gets no reply');
  const end = byId(all, 's1');
  assertWire(assert, MODERN, 'SubscriptionsListenResultResponse', end);
  assert.equal(end.result._meta['io.modelcontextprotocol/subscriptionId'], 's1');
});

test('multi round-trip: questions asked together come back in one input_required, with the keys the tool chose', { skip }, async () => {
  const all = {
    name: 'all',
    description: 'Asks three things at once.',
    inputSchema: { type: 'object' },
    run: async (_a, ctx) => {
      const [who, said, roots] = await Promise.all([
        ctx.elicit({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { key: 'user_name' }),
        ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 5 }),
        ctx.listRoots(),
      ]);
      return `${who.content.name} / ${said.content.text} / ${roots.roots.length}`;
    },
  };
  const server = createServer({ info, tools: [all] });
  const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {}, roots: {} } });
  const first = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'all', arguments: {}, _meta: meta } });
  assertWire(assert, MODERN, 'InputRequiredResult', first.result);
  assert.deepEqual(Object.keys(first.result.inputRequests).sort(), ['input-1', 'input-2', 'user_name']);
  assert.deepEqual(Object.values(first.result.inputRequests).map((r) => r.method).sort(), ['elicitation/create', 'roots/list', 'sampling/createMessage']);
  const inputResponses = {
    user_name: { action: 'accept', content: { name: 'Ada' } },
    'input-1': { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm', stopReason: 'endTurn' },
    'input-2': { roots: [{ uri: 'file:///a' }] },
  };
  const done = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'all', arguments: {}, _meta: meta, inputResponses, requestState: first.result.requestState } });
  assert.equal(done.result.content[0].text, 'Ada / hello / 1');
  // Answers sent without a requestState (a client answering what it was asked) are taken too.
  const direct = await server.handle({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'all', arguments: {}, _meta: meta, inputResponses } });
  assert.equal(direct.result.content[0].text, 'Ada / hello / 1');
});
