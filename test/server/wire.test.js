// Per-revision shaping of content blocks, annotations and results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { audio, embeddedResource, image, resourceLink, text } from '../../dist/server/content.js';
import { copyFields, wireAnnotations, wireContent, wireResourceContents } from '../../dist/server/wire.js';
import { checkCacheHints, shapeResult } from '../../dist/server/result.js';
import { assertSchema, REVISIONS, SKIP } from './mcp-schema.js';

const opts = { annotations: { audience: ['assistant'], priority: 1, lastModified: '2025-01-12T15:00:58Z' }, _meta: { k: 1 } };
const blocks = () => [
  text('t', opts),
  image('aGk=', 'image/png', opts),
  audio('aGk=', 'audio/wav', opts),
  resourceLink({ uri: 'file:///a.md', name: 'a.md', title: 'A', description: 'the a file', icons: [{ src: 'https://e.com/i.png' }], ...opts }),
  embeddedResource({ uri: 'file:///a.txt', text: 'x', _meta: { m: 1 } }, opts),
];

test('every content block is a valid prompt message content in every revision', { skip: SKIP }, () => {
  for (const revision of REVISIONS) {
    for (const block of blocks()) {
      assertSchema(revision, 'PromptMessage', { role: 'user', content: wireContent(block, revision) });
    }
  }
});

test('audio before 2025-03-26 becomes a text block that says it was left out', () => {
  const old = wireContent(audio('aGk=', 'audio/wav'), '2024-11-05');
  assert.equal(old.type, 'text');
  assert.match(old.text, /audio\/wav/);
  assert.equal(wireContent(audio('aGk=', 'audio/wav'), '2025-03-26').type, 'audio');
});

test('a resource link before 2025-06-18 becomes a text block naming its URI', () => {
  const link = resourceLink({ uri: 'file:///a.md', name: 'a.md', title: 'The A' });
  for (const revision of ['2024-11-05', '2025-03-26']) {
    const shaped = wireContent(link, revision);
    assert.equal(shaped.type, 'text');
    assert.match(shaped.text, /file:\/\/\/a\.md/);
    assert.match(shaped.text, /The A/);
  }
  assert.equal(wireContent(link, '2025-06-18').type, 'resource_link');
});

test('_meta and lastModified are left out before 2025-06-18, icons before 2025-11-25', () => {
  const t = wireContent(text('t', opts), '2025-03-26');
  assert.deepEqual(t, { type: 'text', text: 't', annotations: { audience: ['assistant'], priority: 1 } });
  assert.deepEqual(wireContent(text('t', opts), '2025-06-18'), { type: 'text', text: 't', ...opts });
  const link = blocks()[3];
  assert.equal(wireContent(link, '2025-06-18').icons, undefined);
  assert.deepEqual(wireContent(link, '2025-11-25').icons, [{ src: 'https://e.com/i.png' }]);
  const embedded = wireContent(blocks()[4], '2024-11-05');
  assert.deepEqual(embedded.resource, { uri: 'file:///a.txt', text: 'x' });
  assert.equal(embedded._meta, undefined);
});

test('annotations that keep no field are left out entirely', () => {
  assert.equal(wireAnnotations({ lastModified: '2025-01-12T15:00:58Z' }, '2025-03-26'), undefined);
  assert.equal(wireAnnotations(null, '2025-11-25'), undefined);
  assert.deepEqual(wireContent(text('t', { annotations: { lastModified: 'x' } }), '2024-11-05'), { type: 'text', text: 't' });
});

test('copyFields copies only defined fields that the revision has', () => {
  const fields = [['title', '2025-06-18'], ['description', '2024-11-05'], ['icons', '2025-11-25']];
  const source = { title: 'T', description: undefined, icons: [] };
  assert.deepEqual(copyFields({ name: 'n' }, source, fields, '2025-06-18'), { name: 'n', title: 'T' });
  assert.deepEqual(copyFields({}, source, fields, '2025-11-25'), { title: 'T', icons: [] });
});

test('resource contents keep their _meta from 2025-06-18 only', () => {
  const c = { uri: 'file:///b', mimeType: 'application/octet-stream', blob: 'AA==', _meta: { a: 1 } };
  assert.deepEqual(wireResourceContents(c, '2025-03-26'), { uri: 'file:///b', mimeType: 'application/octet-stream', blob: 'AA==' });
  assert.deepEqual(wireResourceContents(c, '2025-06-18'), c);
});

test('results get resultType, serverInfo and caching hints from 2026-07-28 only, without overriding', () => {
  const serverInfo = { name: 's', version: '1' };
  const cache = { ttlMs: 5, cacheScope: 'public' };
  const meta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
  const legacy = { a: 1 };
  assert.equal(shapeResult(legacy, { modern: false, serverInfo, cache }), legacy);
  assert.deepEqual(shapeResult({ a: 1 }, { modern: true, serverInfo, cache: undefined }), { a: 1, resultType: 'complete', _meta: meta });
  assert.deepEqual(shapeResult({ a: 1, ttlMs: 9 }, { modern: true, serverInfo, cache }), { a: 1, ttlMs: 9, resultType: 'complete', cacheScope: 'public', _meta: meta });
  // Only complete results are cacheable; the handler's own _meta keys stay.
  const asked = { resultType: 'input_required', inputRequests: {}, _meta: { k: 1 } };
  assert.deepEqual(shapeResult(asked, { modern: true, serverInfo, cache }), { ...asked, _meta: { k: 1, ...meta } });
  assert.deepEqual(asked._meta, { k: 1 }, 'the input is not mutated');
});

test('caching hints must be a non-negative integer and public or private', () => {
  assert.deepEqual(checkCacheHints({ ttlMs: 0, cacheScope: 'private' }, 'x'), { ttlMs: 0, cacheScope: 'private' });
  assert.throws(() => checkCacheHints({ ttlMs: -1, cacheScope: 'public' }, 'x'), /ttlMs/);
  assert.throws(() => checkCacheHints({ ttlMs: 1.5, cacheScope: 'public' }, 'x'), /ttlMs/);
  assert.throws(() => checkCacheHints({ ttlMs: 1, cacheScope: 'shared' }, 'x'), /cacheScope/);
});
