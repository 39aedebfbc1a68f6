// The resource registry: list, templates/list, read, subscribe, list changes; shaped per revision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError } from '../../dist/protocol/errors.js';
import { ResourceDefinitionError } from '../../dist/server/resource.js';
import { ResourceRegistry, resourceNotFound } from '../../dist/server/resources.js';
import { safeRelativePath } from '../../dist/server/uri.js';
import { isUri } from '../../dist/server/uri.js';
import { createServer } from '../../dist/server/server.js';
import { assertSchema, fakeCtx, REVISIONS, shaped, SKIP } from './mcp-schema.js';

const files = { 'README.md': '# Hi', 'src/main.rs': 'fn main() {}', 'my file.txt': 'spaced' };
function definitions() {
  const resources = [
    {
      uri: 'file:///README.md',
      name: 'README.md',
      title: 'Read me',
      description: 'The readme',
      mimeType: 'text/markdown',
      size: 4,
      icons: [{ src: 'https://example.com/md.png', mimeType: 'image/png', sizes: ['48x48'] }],
      annotations: { audience: ['user'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
      _meta: { 'example.com/k': 1 },
      read: () => '# Hi',
    },
    { uri: 'mem://bytes', name: 'bytes', mimeType: 'application/octet-stream', read: () => new Uint8Array([0, 1, 2, 255]) },
    { uri: 'mem://many', name: 'many', read: () => [{ text: 'a' }, { uri: 'mem://many/b', mimeType: 'text/csv', text: 'b,c' }, { blob: 'AAE=', _meta: { m: 1 } }] },
    { uri: 'mem://full', name: 'full', read: async () => ({ contents: [{ text: 'f' }], _meta: { r: 2 } }) },
    { uri: 'mem://gone', name: 'gone', read: () => undefined },
    { uri: 'mem://empty', name: 'empty', read: () => [] },
    { uri: 'mem://bad', name: 'bad', read: () => [{ text: 'x', blob: 'AA==' }] },
    { uri: 'mem://badblob', name: 'badblob', read: () => ({ blob: 'not base64!' }) },
  ];
  const templates = [
    {
      uriTemplate: 'file:///{+path}',
      name: 'files',
      title: 'Project files',
      mimeType: 'text/plain',
      icons: [{ src: 'https://example.com/folder.png' }],
      annotations: { priority: 0.1, lastModified: '2025-01-12T15:00:58Z' },
      read: ({ path }, ctx) => {
        assert.equal(typeof ctx.protocolVersion, 'string');
        const rel = safeRelativePath(path);
        return rel === undefined ? undefined : files[rel];
      },
      complete: { path: (value) => Object.keys(files).filter((f) => f.startsWith(value)) },
    },
    { uriTemplate: 'users://{id}/profile', name: 'profile', read: ({ id }) => (id === 'nobody' ? undefined : { text: JSON.stringify({ id }), mimeType: 'application/json' }) },
    { uriTemplate: 'users://{id}/{+rest}', name: 'fallback', read: ({ id, rest }) => `${id}:${rest}` },
  ];
  return [...resources, ...templates];
}

function registry() {
  return new ResourceRegistry(definitions());
}

async function rejects(promise, code, uri) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, code);
    if (uri !== undefined) assert.deepEqual(error.data, { uri });
    return true;
  });
}

test('resources/list is a valid ListResourcesResult in every revision', { skip: SKIP }, async () => {
  const r = registry();
  for (const revision of REVISIONS) {
    const page = await shaped(revision, r.list(undefined, fakeCtx(revision), 100), 'public');
    assertSchema(revision, 'ListResourcesResult', page);
    assert.equal(page.resources.length, 8);
    for (const resource of page.resources) assert.ok(isUri(resource.uri), resource.uri);
  }
});

test('resource fields are served only to revisions that have them', () => {
  const r = registry();
  const first = (revision) => r.list(undefined, fakeCtx(revision), 100).resources[0];
  assert.deepEqual(first('2024-11-05'), {
    uri: 'file:///README.md',
    name: 'README.md',
    description: 'The readme',
    mimeType: 'text/markdown',
    size: 4,
    annotations: { audience: ['user'], priority: 0.8 },
  });
  assert.equal(first('2025-06-18').title, 'Read me');
  assert.deepEqual(first('2025-06-18')._meta, { 'example.com/k': 1 });
  assert.equal(first('2025-06-18').annotations.lastModified, '2025-01-12T15:00:58Z');
  assert.equal(first('2025-06-18').icons, undefined);
  assert.equal(first('2025-11-25').icons.length, 1);
});

test('lists are paginated with opaque cursors and refuse a foreign cursor', () => {
  const r = registry();
  const ctx = fakeCtx('2025-11-25');
  const one = r.list(undefined, ctx, 3);
  assert.equal(one.resources.length, 3);
  assert.equal(typeof one.nextCursor, 'string');
  const two = r.list({ cursor: one.nextCursor }, ctx, 3);
  assert.equal(two.resources[0].uri, 'mem://full');
  const three = r.list({ cursor: two.nextCursor }, ctx, 3);
  assert.equal(three.resources.length, 2);
  assert.equal(three.nextCursor, undefined);
  assert.throws(() => r.list({ cursor: 'nope' }, ctx, 3), (e) => e instanceof RpcError && e.code === -32602);
  const templates = r.listTemplates(undefined, ctx, 2);
  assert.equal(templates.resourceTemplates.length, 2);
  assert.equal(r.listTemplates({ cursor: templates.nextCursor }, ctx, 2).resourceTemplates[0].name, 'fallback');
});

test('resources/templates/list is a valid ListResourceTemplatesResult in every revision', { skip: SKIP }, async () => {
  const r = registry();
  for (const revision of REVISIONS) {
    const page = await shaped(revision, r.listTemplates(undefined, fakeCtx(revision), 100), 'public');
    assertSchema(revision, 'ListResourceTemplatesResult', page);
    assert.equal(page.resourceTemplates[0].uriTemplate, 'file:///{+path}');
  }
  const old = r.listTemplates(undefined, fakeCtx('2025-03-26'), 100).resourceTemplates[0];
  assert.deepEqual(old, { uriTemplate: 'file:///{+path}', name: 'files', mimeType: 'text/plain', annotations: { priority: 0.1 } });
  assert.equal(r.listTemplates(undefined, fakeCtx('2025-11-25'), 100).resourceTemplates[0].icons.length, 1);
});

test('a string read becomes one text content with the resource uri and mimeType', async () => {
  const result = await registry().read({ uri: 'file:///README.md' }, fakeCtx());
  assert.deepEqual(result, { contents: [{ uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Hi' }] });
});

test('bytes become a base64 blob, and several contents come back in order', async () => {
  const r = registry();
  const bytes = await r.read({ uri: 'mem://bytes' }, fakeCtx());
  assert.deepEqual(bytes.contents, [{ uri: 'mem://bytes', mimeType: 'application/octet-stream', blob: 'AAEC/w==' }]);
  const many = await r.read({ uri: 'mem://many' }, fakeCtx('2025-11-25'));
  assert.deepEqual(many.contents, [
    { uri: 'mem://many', text: 'a' },
    { uri: 'mem://many/b', mimeType: 'text/csv', text: 'b,c' },
    { uri: 'mem://many', blob: 'AAE=', _meta: { m: 1 } },
  ]);
  const older = await r.read({ uri: 'mem://many' }, fakeCtx('2025-03-26'));
  assert.equal(older.contents[2]._meta, undefined);
  const full = await r.read({ uri: 'mem://full' }, fakeCtx());
  assert.deepEqual(full, { contents: [{ uri: 'mem://full', text: 'f' }], _meta: { r: 2 } });
});

test('every read result is a valid ReadResourceResult in every revision', { skip: SKIP }, async () => {
  const r = registry();
  for (const revision of REVISIONS) {
    for (const uri of ['file:///README.md', 'mem://bytes', 'mem://many', 'mem://full', 'file:///src/main.rs', 'users://7/profile']) {
      const result = await shaped(revision, r.read({ uri }, fakeCtx(revision)), 'private');
      assertSchema(revision, 'ReadResourceResult', result);
      assert.ok(result.contents.length > 0);
    }
  }
});

test('a template read gets the decoded variables', async () => {
  const r = registry();
  assert.deepEqual(await r.read({ uri: 'file:///my%20file.txt' }, fakeCtx()), {
    contents: [{ uri: 'file:///my%20file.txt', mimeType: 'text/plain', text: 'spaced' }],
  });
  assert.deepEqual((await r.read({ uri: 'users://7/profile' }, fakeCtx())).contents, [
    { uri: 'users://7/profile', mimeType: 'application/json', text: '{"id":"7"}' },
  ]);
});

test('a template whose read returns nothing falls through to the next matching template', async () => {
  const r = registry();
  assert.deepEqual((await r.read({ uri: 'users://nobody/profile' }, fakeCtx())).contents, [
    { uri: 'users://nobody/profile', text: 'nobody:profile' },
  ]);
});

test('path traversal through a file template is not found, never read', async () => {
  const r = registry();
  for (const uri of ['file:///../etc/passwd', 'file:///src/../../x', 'file:///%2e%2e/secret', 'file:///..%2Fsecret', 'file:///a%5C..%5Cb', 'file:///%00', 'file:////etc/passwd']) {
    await rejects(r.read({ uri }, fakeCtx('2025-11-25')), -32002, uri);
  }
});

test('not found is -32002 with data.uri up to 2025-11-25 and -32602 at 2026-07-28', async () => {
  const r = registry();
  for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
    await rejects(r.read({ uri: 'nothing://here' }, fakeCtx(revision)), -32002, 'nothing://here');
  }
  await rejects(r.read({ uri: 'nothing://here' }, fakeCtx('2026-07-28')), -32602, 'nothing://here');
  assert.equal(resourceNotFound('x:y', '2026-07-28').code, -32602);
});

test('a read that returns undefined or an empty array is not found, never empty contents', async () => {
  const r = registry();
  await rejects(r.read({ uri: 'mem://gone' }, fakeCtx()), -32002, 'mem://gone');
  await rejects(r.read({ uri: 'mem://empty' }, fakeCtx()), -32002, 'mem://empty');
  await rejects(r.read({ uri: 'mem://empty' }, fakeCtx('2026-07-28')), -32602, 'mem://empty');
});

test('a missing or malformed uri is -32602', async () => {
  const r = registry();
  await rejects(r.read(undefined, fakeCtx()), -32602);
  await rejects(r.read({ uri: 5 }, fakeCtx()), -32602);
  await rejects(r.read({ uri: 'file:///my file.txt' }, fakeCtx()), -32602, 'file:///my file.txt');
  await rejects(r.read({ uri: 'relative/path' }, fakeCtx()), -32602, 'relative/path');
});

test('a malformed read return is a server error, not a protocol error', async () => {
  const r = registry();
  for (const uri of ['mem://bad', 'mem://badblob']) {
    await assert.rejects(r.read({ uri }, fakeCtx()), (e) => !(e instanceof RpcError) && /resource mem:\/\/bad/.test(e.message));
  }
});

test('at 2026-07-28 the server adds resultType and the caching hints configured per method', { skip: SKIP }, async () => {
  const server = createServer({
    info: { name: 't', version: '1' },
    resources: definitions(),
    cache: { 'resources/list': { ttlMs: 60000, cacheScope: 'public' }, 'resources/read': { ttlMs: 1000, cacheScope: 'private' } },
  });
  const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const list = (await server.handle({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta } })).result;
  assert.deepEqual([list.resultType, list.ttlMs, list.cacheScope], ['complete', 60000, 'public']);
  const read = (await server.handle({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///README.md', _meta } })).result;
  assert.deepEqual([read.resultType, read.ttlMs, read.cacheScope], ['complete', 1000, 'private']);
  assertSchema('2026-07-28', 'ReadResourceResult', read);
  // A method without hints of its own gets the server-wide cacheTtlMs (0) and its default scope.
  const templates = (await server.handle({ jsonrpc: '2.0', id: 3, method: 'resources/templates/list', params: { _meta } })).result;
  assert.deepEqual([templates.ttlMs, templates.cacheScope], [0, 'public']);
  // The registry itself adds nothing: a legacy result is as the registry made it.
  assert.equal(new ResourceRegistry(definitions()).list(undefined, fakeCtx('2026-07-28'), 100).resultType, undefined);
  assert.throws(
    () => createServer({ info: { name: 't', version: '1' }, cache: { 'resources/read': { ttlMs: -5, cacheScope: 'private' } } }),
    /cache\["resources\/read"\]: ttlMs must be an integer >= 0/,
  );
  assert.throws(
    () => createServer({ info: { name: 't', version: '1' }, cache: { 'tools/call': { ttlMs: 5, cacheScope: 'private' } } }),
    /"tools\/call" is not a cacheable method \(choose from server\/discover, tools\/list/,
  );
});

test('legacy subscriptions are kept per connection and dropped with it', async () => {
  const server = createServer({ info: { name: 't', version: '1' }, resources: definitions() });
  const sent = [[], []];
  const connections = [0, 1].map((i) => server.connect({ send: (m) => sent[i].push(m) }));
  for (const c of connections) {
    await c.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  }
  const [c1, c2] = connections;
  assert.deepEqual((await c1.handle({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'file:///README.md' } })).result, {});
  await c2.handle({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'file:///README.md' } });
  await c1.handle({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'file:///src/main.rs' } });
  server.resourceUpdated('file:///README.md');
  assert.equal(sent[0].length, 1);
  assert.equal(sent[1].length, 1);
  assert.deepEqual((await c1.handle({ jsonrpc: '2.0', id: 4, method: 'resources/unsubscribe', params: { uri: 'file:///README.md' } })).result, {});
  await c2.handle({ jsonrpc: '2.0', id: 5, method: 'resources/unsubscribe', params: { uri: 'never://subscribed' } });
  server.resourceUpdated('file:///README.md');
  assert.deepEqual(sent.map((s) => s.length), [1, 2]);
  c2.close();
  server.resourceUpdated('file:///README.md');
  server.resourceUpdated('file:///src/main.rs');
  assert.deepEqual(sent.map((s) => s.length), [2, 2]);
  assert.deepEqual(sent[0][1], { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///src/main.rs' } });
});

test('subscribing to an unknown or malformed uri is refused', () => {
  const r = registry();
  assert.throws(() => r.subscriptionUri({ uri: 'nothing://here' }, fakeCtx('2025-11-25'), 'resources/subscribe', true), (e) => e.code === -32002 && e.data.uri === 'nothing://here');
  assert.throws(() => r.subscriptionUri({ uri: 'bad uri' }, fakeCtx(), 'resources/subscribe', true), (e) => e.code === -32602);
  assert.throws(() => r.subscriptionUri({}, fakeCtx(), 'resources/unsubscribe', false), (e) => e.code === -32602);
  assert.equal(r.subscriptionUri({ uri: 'nothing://here' }, fakeCtx(), 'resources/unsubscribe', false), 'nothing://here');
  assert.equal(r.knows('users://1/profile'), true);
  assert.equal(r.knows('nothing://here'), false);
});

test('adding and removing on a live registry updates the lists and tells listeners', async () => {
  const r = registry();
  const ctx = fakeCtx();
  const heard = [];
  const stop = r.onListChanged(() => heard.push('changed'));
  assert.equal(r.list(undefined, ctx, 100).resources.length, 8);
  r.add({ uri: 'mem://new', name: 'new', read: () => 'n' });
  assert.equal(r.list(undefined, ctx, 100).resources.length, 9);
  assert.deepEqual((await r.read({ uri: 'mem://new' }, ctx)).contents, [{ uri: 'mem://new', text: 'n' }]);
  assert.equal(r.remove('mem://new'), true);
  assert.equal(r.remove('mem://new'), false);
  await rejects(r.read({ uri: 'mem://new' }, ctx), -32002, 'mem://new');
  r.add({ uriTemplate: 'db://{table}', name: 'tables', read: ({ table }) => table });
  assert.equal(r.listTemplates(undefined, ctx, 100).resourceTemplates.length, 4);
  assert.equal(r.remove('db://{table}'), true);
  assert.equal(r.listTemplates(undefined, ctx, 100).resourceTemplates.length, 3);
  assert.deepEqual(heard, ['changed', 'changed', 'changed', 'changed']);
  stop();
  r.add({ uri: 'mem://quiet', name: 'quiet', read: () => 'q' });
  assert.equal(heard.length, 4);
  assert.equal(r.size, 12);
});

test('unusable definitions are refused with the reason', () => {
  const read = () => 'x';
  const cases = [
    [[{ uri: 'no scheme', name: 'a', read }], [], /absolute URI/],
    [[{ uri: 'x:a', name: '', read }], [], /name/],
    [[{ uri: 'x:a', name: 'a' }], [], /read must be a function/],
    [[{ uri: 'x:a', name: 'a', size: -1, read }], [], /size/],
    [[{ uri: 'x:a', name: 'a', read }, { uri: 'x:a', name: 'b', read }], [], /defined twice/],
    [[], [{ uriTemplate: 'x://{?q}', name: 't', read }], /not supported/],
    [[], [{ uriTemplate: '{a}', name: 't', read }], /absolute URI/],
    [[], [{ uriTemplate: 'x://{a}', name: 't', read, complete: { b: () => [] } }], /names no variable/],
    [[], [{ uriTemplate: 'x://{a}', name: 't', read, complete: { a: 'nope' } }], /must be a function/],
    [[], [{ uriTemplate: 'x://{a}', name: 't', read }, { uriTemplate: 'x://{a}', name: 'u', read }], /defined twice/],
  ];
  for (const [resources, templates, message] of cases) {
    assert.throws(() => new ResourceRegistry([...resources, ...templates]), (e) => e instanceof ResourceDefinitionError && message.test(e.message), message.source);
    // Adding on a live registry refuses the same, and adds none of a refused set.
    const live = new ResourceRegistry([]);
    assert.throws(() => live.add(...resources, ...templates), (e) => e instanceof ResourceDefinitionError && message.test(e.message), message.source);
    assert.equal(live.size, 0);
  }
});

test('completers on templates are reported for the completions capability', () => {
  assert.equal(registry().hasCompletions(), true);
  assert.equal(new ResourceRegistry([{ uriTemplate: 'x://{a}', name: 't', read: () => 'x' }]).hasCompletions(), false);
});
