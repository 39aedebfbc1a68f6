// Read-only mode: only tools annotated readOnlyHint: true are listed, in every revision (filtered
// on the definitions, since 2024-11-05 tools carry no annotations on the wire), and a call of any
// other tool gets exactly the error of a tool that does not exist: directly, over stdio and over
// HTTP in both eras.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, SUPPORTED_REVISIONS } from '../../dist/index.js';
import { readOnly } from '../../dist/policies/index.js';
import { initialize, MODERN, modernHeaders, modernMeta, overHttp, overStdio } from './drive.js';

const info = { name: 'read-only-test', version: '1.0.0' };
const tool = (name, annotations) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object' },
  ...(annotations === undefined ? {} : { annotations }),
  run: () => `${name} ran`,
});
const tools = [
  tool('read_file', { readOnlyHint: true }),
  tool('write_file', { readOnlyHint: false, destructiveHint: true }),
  tool('delete_file', { destructiveHint: true }),
  tool('plain'),
  tool('stat', { readOnlyHint: true, title: 'Stat' }),
];
const fixture = (options = {}) => createServer({ info, tools, middleware: [readOnly()], ...options });
const call = (id, name, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...extra } });
const unknown = (name) => ({ code: -32602, message: `Unknown tool: ${name}`, data: { name } });

test('tools/list lists only read-only tools in every revision, 2024-11-05 (no annotations on the wire) included', async () => {
  for (const revision of SUPPORTED_REVISIONS) {
    const server = fixture();
    let listed;
    if (revision === MODERN) {
      listed = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
    } else {
      assert.ok((await server.handle(initialize(revision))).result, revision);
      listed = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    }
    assert.deepEqual(listed.result.tools.map((t) => t.name), ['read_file', 'stat'], revision);
    if (revision === '2024-11-05') assert.equal(listed.result.tools[0].annotations, undefined, 'the wire form has none');
  }
});

test('a call of a tool that is not read-only gets exactly the error of a tool that does not exist, in both eras', async () => {
  const server = fixture();
  await server.handle(initialize());
  assert.equal((await server.handle(call(1, 'read_file'))).result.content[0].text, 'read_file ran');
  for (const name of ['write_file', 'delete_file', 'plain']) {
    assert.deepEqual((await server.handle(call(2, name))).error, unknown(name), name);
    assert.deepEqual((await server.handle(call(3, name, { _meta: modernMeta() }))).error, unknown(name), `${name} (2026-07-28)`);
  }
  // The same words as a server without read-only mode answers for a missing tool.
  const open = createServer({ info, tools });
  assert.deepEqual((await open.handle(call(4, 'nope'))).error, unknown('nope'));
  assert.deepEqual((await server.handle(call(5, 'nope'))).error, unknown('nope'));
  // Tools added later follow their annotations too.
  server.tools.add(tool('peek', { readOnlyHint: true }), tool('poke'));
  assert.deepEqual((await server.handle({ jsonrpc: '2.0', id: 6, method: 'tools/list' })).result.tools.map((t) => t.name), ['read_file', 'stat', 'peek']);
  assert.equal((await server.handle(call(7, 'peek'))).result.content[0].text, 'peek ran');
  assert.deepEqual((await server.handle(call(8, 'poke'))).error, unknown('poke'));
});

test('over stdio, a hidden tool is listed nowhere and its call is refused as unknown', async () => {
  const replies = await overStdio(fixture(), [
    initialize('2025-06-18'),
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    call(2, 'write_file'),
    call(3, 'stat'),
  ]);
  const byId = new Map(replies.map((r) => [r.id, r]));
  assert.deepEqual(byId.get(1).result.tools.map((t) => t.name), ['read_file', 'stat']);
  assert.deepEqual(byId.get(2).error, unknown('write_file'));
  assert.equal(byId.get(3).result.content[0].text, 'stat ran');
});

test('over HTTP a hidden tool answers as an unknown one: 400 at 2026-07-28, 200 with the error on a legacy session', async () => {
  const { post, handler } = overHttp(fixture());
  const _meta = modernMeta();
  const modern = await post(call(1, 'write_file', { _meta }), modernHeaders('tools/call', 'write_file'));
  const missing = await post(call(2, 'nope', { _meta }), modernHeaders('tools/call', 'nope'));
  assert.deepEqual([modern.status, missing.status], [400, 400]);
  assert.deepEqual((await modern.json()).error, unknown('write_file'));
  assert.deepEqual((await missing.json()).error, unknown('nope'));
  const listed = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta } }, modernHeaders('tools/list'));
  assert.deepEqual((await listed.json()).result.tools.map((t) => t.name), ['read_file', 'stat']);
  const opened = await post(initialize());
  const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') };
  const legacy = await post(call(4, 'delete_file'), session);
  assert.equal(legacy.status, 200);
  assert.deepEqual((await legacy.json()).error, unknown('delete_file'));
  await handler.close();
});

test('paged listings: every page is filtered, and following the cursors yields exactly the read-only tools', async () => {
  const server = fixture({ pageSize: 2 });
  await server.handle(initialize());
  const names = [];
  const pages = [];
  let cursor;
  do {
    const page = (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor === undefined ? {} : { cursor } })).result;
    pages.push(page.tools.length);
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  assert.deepEqual(names, ['read_file', 'stat']);
  assert.deepEqual(pages, [1, 0, 1], 'a page may hold fewer tools than the page size, even none');
});
