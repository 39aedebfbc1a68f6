// The pure dispatcher, table-driven: one message in, one reply (or none) out, no process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, handle, ErrorCode, ToolDefinitionError } from '../../dist/index.js';
import { init, INITD } from '../helpers.js';
import { modernMeta } from './drive.js';

const info = { name: 'test-server', version: '1.2.3', title: 'Test', description: 'd', websiteUrl: 'https://example.com', icons: [{ src: 'https://example.com/i.png' }] };
const echo = {
  name: 'echo',
  title: 'Echo',
  description: 'Echo the text back.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  annotations: { readOnlyHint: true },
  icons: [{ src: 'https://example.com/e.png' }],
  run: ({ text }) => String(text),
};
const tools = [
  echo,
  { name: 'content', description: 'Returns content blocks.', inputSchema: { type: 'object' }, run: () => [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
  { name: 'full', description: 'Returns a full result.', inputSchema: { type: 'object' }, run: async () => ({ content: [{ type: 'text', text: 'x' }], isError: true }) },
  { name: 'throw_string', description: 'Throws a string.', inputSchema: { type: 'object' }, run: () => { throw 'boom'; } },
  { name: 'throw_object', description: 'Throws an object.', inputSchema: { type: 'object' }, run: () => { throw { code: 42, detail: 'x' }; } },
  { name: 'throw_null', description: 'Throws null.', inputSchema: { type: 'object' }, run: () => { throw null; } },
  { name: 'throw_error', description: 'Throws an Error.', inputSchema: { type: 'object' }, run: async () => { throw new Error('disk full'); } },
  {
    name: 'structured',
    description: 'Returns structured content.',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    run: () => ({ content: [], structuredContent: { n: 1 } }),
  },
  {
    name: 'structured_missing',
    description: 'Declares an outputSchema and returns none.',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object' },
    run: () => 'plain',
  },
  { name: 'args', description: 'Returns its arguments as JSON.', inputSchema: { type: 'object' }, run: (a) => JSON.stringify(a) },
];

function fresh(revision = '2025-06-18') {
  const lines = [];
  const server = createServer({ info, tools, report: (l) => lines.push(l), pageSize: 3 });
  const connection = server.connect();
  return { server, connection, lines, ready: connection.handle(init(1, revision)) };
}

const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } });

const cases = [
  ['ping answers an empty result', { jsonrpc: '2.0', id: 7, method: 'ping' }, { jsonrpc: '2.0', id: 7, result: {} }],
  ['id 0 is echoed exactly', { jsonrpc: '2.0', id: 0, method: 'ping' }, { jsonrpc: '2.0', id: 0, result: {} }],
  ['id "" is echoed exactly', { jsonrpc: '2.0', id: '', method: 'ping' }, { jsonrpc: '2.0', id: '', result: {} }],
  ['id -1 is echoed exactly', { jsonrpc: '2.0', id: -1, method: 'ping' }, { jsonrpc: '2.0', id: -1, result: {} }],
  ['id "1" stays a string', { jsonrpc: '2.0', id: '1', method: 'ping' }, { jsonrpc: '2.0', id: '1', result: {} }],
  ['an unknown method is -32601', { jsonrpc: '2.0', id: 2, method: 'frob/nicate' }, { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: frob/nicate' } }],
  ['a notification gets no reply', INITD, null],
  ['an unknown notification gets no reply', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, null],
  ['a response from the client gets no reply', { jsonrpc: '2.0', id: 99, result: {} }, null],
  ['an error response from the client gets no reply', { jsonrpc: '2.0', id: 99, error: { code: 1, message: 'x' } }, null],
];

for (const [name, message, expected] of cases) {
  test(name, async () => {
    const { connection, ready } = fresh();
    await ready;
    assert.deepEqual(await connection.handle(message), expected);
  });
}

const invalid = [
  ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'ping' }, 1],
  ['no jsonrpc member', { id: 1, method: 'ping' }, 1],
  ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, undefined],
  ['id 1.5', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, undefined],
  ['id {}', { jsonrpc: '2.0', id: {}, method: 'ping' }, undefined],
  ['a non-string method', { jsonrpc: '2.0', id: 3, method: 5 }, 3],
  ['array params', { jsonrpc: '2.0', id: 4, method: 'ping', params: [1] }, 4],
  ['string params', { jsonrpc: '2.0', id: 4, method: 'ping', params: 'x' }, 4],
  ['a number', 42, undefined],
  ['null', null, undefined],
  ['a string', 'ping', undefined],
  ['an object with neither method nor result', { jsonrpc: '2.0', id: 5 }, 5],
];
for (const [name, message, id] of invalid) {
  test(`${name} is an Invalid Request (-32600)`, async () => {
    const { connection, ready } = fresh();
    await ready;
    const reply = await connection.handle(message);
    assert.equal(reply.error.code, ErrorCode.InvalidRequest);
    assert.equal(reply.id, id);
    assert.equal('result' in reply, false);
  });
}

test('initialize echoes every supported revision', async () => {
  for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
    const { ready } = fresh(revision);
    const reply = await ready;
    assert.equal(reply.result.protocolVersion, revision);
  }
});

test('initialize answers the latest revision for an unknown one', async () => {
  for (const revision of ['2099-01-01', '1900-01-01', '2026-07-28']) {
    const reply = await fresh(revision).ready;
    assert.equal(reply.result.protocolVersion, '2025-11-25');
  }
});

test('initialize without protocolVersion is -32602 naming the field', async () => {
  const server = createServer({ info, tools });
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } });
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
  assert.match(reply.error.message, /protocolVersion/);
});

test('initialize lists only implemented capabilities and shapes serverInfo per revision', async () => {
  const old = (await fresh('2024-11-05').ready).result;
  assert.deepEqual(old.capabilities, { logging: {}, tools: { listChanged: true } });
  assert.deepEqual(old.serverInfo, { name: 'test-server', version: '1.2.3' });
  const mid = (await fresh('2025-06-18').ready).result;
  assert.deepEqual(mid.serverInfo, { name: 'test-server', version: '1.2.3', title: 'Test' });
  const now = (await fresh('2025-11-25').ready).result;
  assert.equal(now.serverInfo.websiteUrl, 'https://example.com');
  assert.deepEqual(now.serverInfo.icons, info.icons);
  const bare = await createServer({ info }).handle(init());
  assert.deepEqual(bare.result.capabilities, { logging: {} });
  // A method of a capability the server does not announce does not exist (MCP 2025-11-25,
  // Lifecycle: both parties use only negotiated capabilities).
  const none = await createServer({ info }).handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  assert.deepEqual(none.error, { code: -32601, message: 'Method not found: tools/list (this server has no tools)' });
});

test('tools/list paginates with nextCursor and refuses a forged cursor', async () => {
  const { connection, ready } = fresh();
  await ready;
  const names = [];
  let cursor;
  let pages = 0;
  do {
    const reply = await connection.handle({ jsonrpc: '2.0', id: 10 + pages, method: 'tools/list', params: cursor ? { cursor } : {} });
    names.push(...reply.result.tools.map((t) => t.name));
    cursor = reply.result.nextCursor;
    pages++;
  } while (cursor);
  assert.deepEqual(names, tools.map((t) => t.name));
  assert.equal(pages, Math.ceil(tools.length / 3));
  const bad = await connection.handle({ jsonrpc: '2.0', id: 50, method: 'tools/list', params: { cursor: 'nope' } });
  assert.equal(bad.error.code, ErrorCode.InvalidParams);
});

test('tools/list leaves out fields older revisions lack', async () => {
  const list = async (revision) => {
    const { connection, ready } = fresh(revision);
    await ready;
    return (await connection.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).result.tools;
  };
  const old = await list('2024-11-05');
  assert.deepEqual(Object.keys(old[0]).sort(), ['description', 'inputSchema', 'name']);
  const mid = await list('2025-03-26');
  assert.deepEqual(mid[0].annotations, { readOnlyHint: true });
  assert.equal(mid[0].title, undefined);
  const newer = await list('2025-06-18');
  assert.equal(newer[0].title, 'Echo');
  assert.equal(newer[0].icons, undefined);
  const latest = await list('2025-11-25');
  assert.deepEqual(latest[0].icons, echo.icons);
});

test('tools/call accepts a string, a content array or a full result', async () => {
  const { connection, ready } = fresh();
  await ready;
  assert.deepEqual((await connection.handle(call(1, 'echo', { text: 'hi' }))).result, { content: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual((await connection.handle(call(2, 'content', {}))).result.content.map((c) => c.text), ['a', 'b']);
  assert.deepEqual((await connection.handle(call(3, 'full', {}))).result, { content: [{ type: 'text', text: 'x' }], isError: true });
});

test('a tool that throws gives a readable isError result, never [object Object]', async () => {
  const { connection, ready } = fresh();
  await ready;
  const text = async (name) => {
    const reply = await connection.handle(call(1, name, {}));
    assert.equal(reply.result.isError, true);
    return reply.result.content[0].text;
  };
  assert.equal(await text('throw_string'), 'boom');
  assert.equal(await text('throw_object'), '{"code":42,"detail":"x"}');
  assert.equal(await text('throw_null'), 'null');
  assert.equal(await text('throw_error'), 'disk full');
});

test('an unknown tool is a -32602 protocol error', async () => {
  const { connection, ready } = fresh();
  await ready;
  const reply = await connection.handle(call(1, 'nope', {}));
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
  assert.match(reply.error.message, /Unknown tool: nope/);
});

test('tools/call without a name is -32602', async () => {
  const { connection, ready } = fresh();
  await ready;
  const reply = await connection.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
});

test('missing or null arguments are treated as {}', async () => {
  const { connection, ready } = fresh();
  await ready;
  assert.equal((await connection.handle(call(1, 'args'))).result.content[0].text, '{}');
  assert.equal((await connection.handle(call(2, 'args', null))).result.content[0].text, '{}');
});

test('arguments sent as a JSON string of an object are decoded and reported', async () => {
  const { connection, ready, lines } = fresh();
  await ready;
  const reply = await connection.handle(call(1, 'args', '{"a":1}'));
  assert.equal(reply.result.content[0].text, '{"a":1}');
  assert.match(lines.join('\n'), /json-string-to-object/);
  for (const bad of ['[1]', 'nope', 5, [1]]) {
    const r = await connection.handle(call(2, 'args', bad));
    assert.equal(r.error.code, ErrorCode.InvalidParams);
  }
});

test('structuredContent is served from 2025-06-18 with a JSON text block, and folded into text before', async () => {
  const a = fresh('2025-06-18');
  await a.ready;
  const now = (await a.connection.handle(call(1, 'structured', {}))).result;
  assert.deepEqual(now.structuredContent, { n: 1 });
  assert.deepEqual(now.content, [{ type: 'text', text: '{"n":1}' }]);
  const b = fresh('2025-03-26');
  await b.ready;
  const old = (await b.connection.handle(call(1, 'structured', {}))).result;
  assert.equal('structuredContent' in old, false);
  assert.deepEqual(old.content, [{ type: 'text', text: '{"n":1}' }]);
});

test('a tool that declares outputSchema and returns no structuredContent is an isError result and a log line', async () => {
  const { connection, ready, lines } = fresh();
  await ready;
  const reply = await connection.handle(call(1, 'structured_missing', {}));
  assert.equal(reply.result.isError, true);
  assert.match(reply.result.content[0].text, /server bug/);
  assert.match(lines.join('\n'), /structured_missing/);
});

test('a handler fault is -32603 without the stack, and the stack goes to the report', async () => {
  const lines = [];
  const server = createServer({ info, tools, report: (l) => lines.push(l) });
  server.method('com.example/boom', () => { throw new Error('secret internals'); });
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'com.example/boom' });
  assert.equal(reply.error.code, ErrorCode.InternalError);
  assert.doesNotMatch(JSON.stringify(reply), /secret/);
  assert.match(lines.join('\n'), /secret internals/);
});

test('batches are answered as a batch at 2025-03-26 only', async () => {
  const batch = [{ jsonrpc: '2.0', id: 2, method: 'ping' }, { jsonrpc: '2.0', id: 3, method: 'ping' }, INITD];
  const a = fresh('2025-03-26');
  await a.ready;
  assert.deepEqual(await a.connection.handle(batch), [{ jsonrpc: '2.0', id: 2, result: {} }, { jsonrpc: '2.0', id: 3, result: {} }]);
  assert.equal(await a.connection.handle([INITD]), null);
  const b = fresh('2025-06-18');
  await b.ready;
  const reply = await b.connection.handle(batch);
  assert.equal(reply.error.code, ErrorCode.InvalidRequest);
  assert.equal(Array.isArray(reply), false);
});

test('an empty batch is a single -32600', async () => {
  const a = fresh('2025-03-26');
  await a.ready;
  const reply = await a.connection.handle([]);
  assert.equal(reply.error.code, ErrorCode.InvalidRequest);
});

test('a cancelled request gets no reply and its signal aborts, including id 0', async () => {
  let seen;
  const slow = {
    name: 'slow',
    description: 'Waits for its signal.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { seen = ctx.signal.aborted; resolve('late'); })),
  };
  const server = createServer({ info, tools: [slow] });
  const connection = server.connect();
  await connection.handle(init());
  const pending = connection.handle(call(0, 'slow', {}));
  assert.equal(connection.inFlight, 1);
  await connection.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } });
  assert.equal(await pending, null);
  assert.equal(seen, true);
  assert.equal(connection.inFlight, 0);
});

test('a request id already in flight is refused, and "1" and 1 are distinct', async () => {
  let release;
  const gate = new Promise((r) => (release = r));
  const wait = { name: 'wait', description: 'Waits.', inputSchema: { type: 'object' }, run: () => gate.then(() => 'done') };
  const server = createServer({ info, tools: [wait] });
  const connection = server.connect();
  const first = connection.handle(call(1, 'wait', {}));
  const other = connection.handle(call('1', 'wait', {}));
  const dup = await connection.handle(call(1, 'wait', {}));
  assert.equal(dup.error.code, ErrorCode.InvalidRequest);
  release();
  assert.equal((await first).id, 1);
  assert.equal((await other).id, '1');
});

test('progress is sent only with a progressToken, only increasing, with the token exactly', async () => {
  const sent = [];
  const reporter = {
    name: 'progress',
    description: 'Reports progress.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) => { ctx.progress(1, 3, 'one'); ctx.progress(1); ctx.progress(0.5); ctx.progress(2, 3); return 'ok'; },
  };
  const server = createServer({ info, tools: [reporter] });
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle(init(1, '2025-11-25'));
  await connection.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 'abc' } } });
  assert.deepEqual(sent.map((m) => m.params), [
    { progressToken: 'abc', progress: 1, total: 3, message: 'one' },
    { progressToken: 'abc', progress: 2, total: 3 },
  ]);
  sent.length = 0;
  await connection.handle(call(3, 'progress', {}));
  assert.deepEqual(sent, []);
});

test('ctx.log sends notifications/message at or above the level set by logging/setLevel', async () => {
  const sent = [];
  const logger = { name: 'logger', description: 'Logs.', inputSchema: { type: 'object' }, run: (_a, ctx) => { ctx.log('debug', 'd'); ctx.log('error', { e: 1 }, 'db'); return 'ok'; } };
  const server = createServer({ info, tools: [logger] });
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle(init());
  await connection.handle(call(2, 'logger', {}));
  assert.deepEqual(sent, []);
  assert.deepEqual(await connection.handle({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'warning' } }), { jsonrpc: '2.0', id: 3, result: {} });
  await connection.handle(call(4, 'logger', {}));
  assert.deepEqual(sent, [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: { e: 1 }, logger: 'db' } }]);
  const bad = await connection.handle({ jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'loud' } });
  assert.equal(bad.error.code, ErrorCode.InvalidParams);
});

test('the simple form handle(message, tools, info) keeps its negotiated revision', async () => {
  const list = [echo];
  await handle(init(1, '2025-03-26'), list, info);
  const reply = await handle([{ jsonrpc: '2.0', id: 2, method: 'ping' }], list, info);
  assert.deepEqual(reply, [{ jsonrpc: '2.0', id: 2, result: {} }]);
  const result = await handle(call(3, 'echo', { text: 'x' }), list, info);
  assert.equal(result.result.content[0].text, 'x');
});

test('tool definitions are checked when the server is created', () => {
  const base = { description: 'd', inputSchema: { type: 'object' }, run: () => '' };
  const bad = [
    [{ ...base, name: 'a/b' }, /a\/b/],
    [{ ...base, name: '' }, /name/],
    [{ ...base, name: 'x'.repeat(65) }, /1-64/],
    [{ ...base, name: 'ok', description: undefined }, /description/],
    [{ ...base, name: 'ok', inputSchema: { oneOf: [] } }, /"type": "object"/],
    [{ ...base, name: 'ok', inputSchema: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' } }, /draft-07/],
    [{ ...base, name: 'ok', inputSchema: { type: 'object', $schema: 'https://json-schema.org/draft-07/schema' } }, /2020-12/],
    [{ ...base, name: 'ok', run: undefined }, /run/],
    [{ ...base, name: 'ok', outputSchema: [] }, /outputSchema must be a JSON Schema object/],
  ];
  for (const [tool, pattern] of bad) {
    assert.throws(() => createServer({ info, tools: [tool] }), (e) => e instanceof ToolDefinitionError && pattern.test(e.message));
  }
  assert.throws(() => createServer({ info, tools: [{ ...base, name: 'x' }, { ...base, name: 'x' }] }), /twice/);
  assert.throws(() => createServer({}), /info/);
});

test('a $schema naming 2020-12 is served as written; a schema without one gets none', async () => {
  const dialect = 'https://json-schema.org/draft/2020-12/schema';
  const tool = { name: 't', description: 'd', inputSchema: { $schema: dialect, type: 'object' }, outputSchema: { $schema: dialect, type: 'object' }, run: () => ({ content: [], structuredContent: {} }) };
  const bare = { name: 'u', description: 'd', inputSchema: { type: 'object' }, run: () => '' };
  const server = createServer({ info, tools: [tool, bare] });
  for (const revision of ['2025-11-25', '2026-07-28']) {
    const connection = server.connect({ send: () => {} });
    const reply = revision === '2026-07-28'
      ? await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } })
      : (await connection.handle(init(0, revision)), await connection.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.deepEqual(reply.result.tools[0].inputSchema, { $schema: dialect, type: 'object' }, revision);
    assert.deepEqual(reply.result.tools[0].outputSchema, { $schema: dialect, type: 'object' }, revision);
    assert.deepEqual(reply.result.tools[1].inputSchema, { type: 'object' }, revision);
  }
  const call = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: {} } });
  assert.deepEqual(call.result.structuredContent, {});
});

test('adding and removing tools on a live server sends tools/list_changed to initialized clients only', async () => {
  const server = createServer({ info, tools: [echo] });
  const early = [];
  const late = [];
  const a = server.connect({ send: (m) => early.push(m) });
  const b = server.connect({ send: (m) => late.push(m) });
  await a.handle(init());
  await a.handle(INITD);
  await b.handle(init());
  server.tools.add({ name: 'extra', description: 'Extra.', inputSchema: { type: 'object' }, run: () => 'x' });
  assert.deepEqual(early, [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  assert.deepEqual(late, []);
  const list = await a.handle({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
  assert.deepEqual(list.result.tools.map((t) => t.name), ['echo', 'extra']);
  assert.equal(server.tools.remove('extra'), true);
  assert.equal(server.tools.remove('extra'), false);
  assert.equal(early.length, 2);
  assert.throws(() => server.tools.add(echo), /twice/);
  a.close();
  server.tools.add({ name: 'more', description: 'More.', inputSchema: { type: 'object' }, run: () => 'x' });
  assert.equal(early.length, 2);
});

test('arguments nested 10,000 levels deep get an error for that id, and the server goes on', async () => {
  const server = createServer({ info, tools });
  const deep = JSON.parse('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  const reply = await server.handle({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'args', arguments: deep } });
  assert.equal(reply.id, 41);
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
  assert.match(reply.error.message, /nested deeper than the limit of 100/);
  assert.deepEqual(await server.handle({ jsonrpc: '2.0', id: 42, method: 'ping' }), { jsonrpc: '2.0', id: 42, result: {} });
  const ok = JSON.parse('{"a":'.repeat(90) + '1' + '}'.repeat(90));
  assert.equal((await server.handle(call(43, 'args', ok))).result.isError, undefined);
});

test('a tool that hangs is stopped by its time-out: isError result and its signal aborted', async () => {
  let aborted = false;
  const hang = { name: 'hang', description: 'Never returns.', inputSchema: { type: 'object' }, run: (_a, ctx) => new Promise(() => ctx.signal.addEventListener('abort', () => { aborted = true; })) };
  const own = { ...hang, name: 'own', timeoutMs: 10 };
  const server = createServer({ info, tools: [hang, own], toolTimeoutMs: 30 });
  const started = Date.now();
  const reply = await server.handle(call(1, 'hang', {}));
  assert.equal(reply.result.isError, true);
  assert.match(reply.result.content[0].text, /timed out after 30 ms/);
  assert.equal(aborted, true);
  const second = await server.handle(call(2, 'own', {}));
  assert.match(second.result.content[0].text, /timed out after 10 ms/);
  assert.ok(Date.now() - started < 1000);
});

test('a result over maxResultSize becomes an isError result a model can act on', async () => {
  const big = { name: 'big', description: 'Large.', inputSchema: { type: 'object' }, run: () => 'x'.repeat(2000) };
  const lines = [];
  const server = createServer({ info, tools: [big], maxResultSize: 1000, report: (l) => lines.push(l) });
  const reply = await server.handle(call(1, 'big', {}));
  assert.equal(reply.result.isError, true);
  assert.match(reply.result.content[0].text, /2000 characters, over the limit of 1000/);
  assert.equal(lines.length, 1);
});

test('messages about one request go to that request\'s send (e.g. its HTTP stream) when the transport gives one', async () => {
  const connectionLevel = [];
  const perRequest = [];
  const reporter = { name: 'progress', description: 'Reports progress.', inputSchema: { type: 'object' }, run: (_a, ctx) => { ctx.progress(1); return 'ok'; } };
  const connection = createServer({ info, tools: [reporter] }).connect({ send: (m) => connectionLevel.push(m) });
  await connection.handle(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 't' } } },
    { send: (m) => perRequest.push(m) },
  );
  assert.equal(perRequest.length, 1);
  assert.equal(perRequest[0].method, 'notifications/progress');
  assert.deepEqual(connectionLevel, []);
});

test('an RpcError from another copy of baremcp (a served module with its own) is still a protocol error', async () => {
  // What `new RpcError(...)` of a second copy of the package looks like: not our class, same shape.
  class RpcError extends Error {
    constructor(code, message, data) {
      super(message);
      this.name = 'RpcError';
      this.code = code;
      this.data = data;
    }
  }
  const foreign = {
    name: 'needs_elicitation',
    description: 'Throws a missing-capability error made by another copy.',
    inputSchema: { type: 'object' },
    run: () => { throw new RpcError(ErrorCode.MissingRequiredClientCapability, 'needs elicitation', { requiredCapabilities: { elicitation: {} } }); },
  };
  const impostor = { ...foreign, name: 'impostor', run: () => { throw Object.assign(new Error('not one'), { name: 'RpcError', code: 1.5 }); } };
  const connection = createServer({ info, tools: [foreign, impostor], report: () => {} }).connect();
  await connection.handle(init(1));
  const reply = await connection.handle(call(2, 'needs_elicitation', {}));
  assert.deepEqual(reply.error, { code: ErrorCode.MissingRequiredClientCapability, message: 'needs elicitation', data: { requiredCapabilities: { elicitation: {} } } });
  // A non-integer code is not an RpcError: the tool failed, as for any other Error.
  const other = await connection.handle(call(3, 'impostor', {}));
  assert.equal(other.result.isError, true);
});
