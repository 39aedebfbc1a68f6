// Content builders: every block type, with annotations and _meta, checked against the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  audio,
  embeddedResource,
  image,
  json,
  resourceLink,
  text,
  toBase64,
} from '../../dist/server/content.js';
import { assertSchema, SKIP } from './mcp-schema.js';

const opts = { annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' }, _meta: { k: 1 } };

test('text builds a text block and carries annotations and _meta', () => {
  assert.deepEqual(text('hi'), { type: 'text', text: 'hi' });
  assert.deepEqual(text('hi', opts), { type: 'text', text: 'hi', ...opts });
});

test('image and audio keep base64 strings and encode raw bytes', () => {
  assert.deepEqual(image('aGk=', 'image/png'), { type: 'image', data: 'aGk=', mimeType: 'image/png' });
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  assert.equal(image(bytes, 'image/png').data, Buffer.from(bytes).toString('base64'));
  assert.deepEqual(audio(bytes, 'audio/wav', opts), {
    type: 'audio',
    data: Buffer.from(bytes).toString('base64'),
    mimeType: 'audio/wav',
    ...opts,
  });
  assert.throws(() => image(42, 'image/png'), TypeError);
  assert.throws(() => audio(null, 'audio/wav'), TypeError);
});

test('toBase64 matches standard base64 for empty, odd and large inputs', () => {
  for (const length of [0, 1, 2, 3, 4, 0x8000 - 1, 0x8000, 0x8000 * 3 + 7]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 7919) & 0xff);
    assert.equal(toBase64(bytes), Buffer.from(bytes).toString('base64'), `length ${length}`);
  }
});

test('resourceLink builds a resource_link block with every field it was given', () => {
  const link = resourceLink({ uri: 'file:///a.md', name: 'a.md', title: 'A', mimeType: 'text/markdown', size: 3, icons: [{ src: 'https://e.com/i.png' }], ...opts });
  assert.equal(link.type, 'resource_link');
  assert.equal(link.uri, 'file:///a.md');
  assert.equal(link.size, 3);
  assert.deepEqual(link._meta, { k: 1 });
  assert.throws(() => resourceLink({ uri: 'file:///a' }), TypeError);
});

test('embeddedResource wraps text or blob contents', () => {
  assert.deepEqual(embeddedResource({ uri: 'file:///a.txt', text: 'x' }), { type: 'resource', resource: { uri: 'file:///a.txt', text: 'x' } });
  assert.deepEqual(embeddedResource({ uri: 'file:///a.bin', blob: 'AA==' }, opts).annotations, opts.annotations);
  assert.throws(() => embeddedResource({ uri: 'file:///a' }), TypeError);
  assert.throws(() => embeddedResource('x'), TypeError);
});

test('json gives structuredContent and the same value as JSON text', () => {
  const value = { files: 3, names: ['a', 'b'], nested: { ok: true } };
  const result = json(value);
  assert.equal(result.structuredContent, value);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  assert.deepEqual(JSON.parse(result.content[0].text), value);
  for (const bad of [[1], null, 'x', 3]) assert.throws(() => json(bad), TypeError);
});

test('every builder output is a valid 2025-11-25 content block', { skip: SKIP }, () => {
  const blocks = [
    text('t', opts),
    image('aGk=', 'image/png', opts),
    audio(new Uint8Array([1]), 'audio/wav', opts),
    resourceLink({ uri: 'file:///a.md', name: 'a.md', title: 'A', icons: [{ src: 'https://e.com/i.png', sizes: ['48x48'] }], ...opts }),
    embeddedResource({ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'x', _meta: { m: 2 } }, opts),
    embeddedResource({ uri: 'file:///a.bin', blob: 'AAEC' }),
  ];
  for (const block of blocks) assertSchema('2025-11-25', 'ContentBlock', block);
  assertSchema('2025-11-25', 'CallToolResult', json({ n: 1 }, opts));
  assert.throws(() => assertSchema('2025-11-25', 'ContentBlock', { type: 'text' }), /not a valid/);
});
