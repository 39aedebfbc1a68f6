// Tests for src/schema/strict-refs.ts: where a $ref leads (through the one resolver,
// dereference.ts) and recursion among a schema's $refs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexSchema } from '../../dist/schema/dereference.js';
import { isRecursiveRef, refTarget } from '../../dist/schema/strict-refs.js';

test('refTarget decodes ~1, ~0 and percent escapes, follows anchors and $id, and refuses what is not in the document', () => {
  const root = {
    $defs: { 'a/b~c d': { type: 'string' }, named: { $anchor: 'node', type: 'object' } },
    properties: { t: { prefixItems: [{ type: 'string' }] }, sub: { $id: 'https://example.com/sub', $defs: { x: true } } },
  };
  const index = indexSchema(root, { lenient: true });
  assert.deepEqual(refTarget(index, '#', root), []);
  assert.deepEqual(refTarget(index, '#/$defs/a~1b~0c%20d', root), ['$defs', 'a/b~c d']);
  assert.deepEqual(refTarget(index, '#node', root), ['$defs', 'named']);
  assert.deepEqual(refTarget(index, '#/properties/t/prefixItems/0', root), ['properties', 't', 'prefixItems', '0']);
  assert.deepEqual(refTarget(index, 'https://example.com/sub#/$defs/x', root), ['properties', 'sub', '$defs', 'x']);
  assert.deepEqual(refTarget(index, '#/$defs/x', root.properties.sub), ['properties', 'sub', '$defs', 'x']);
  for (const ref of ['#/properties/t/prefixItems/1', '#/properties/t/prefixItems/01', '#/properties/t/prefixItems/0/type',
    '#/toString', 'other.json#/a', '#/bad%E0', '#missing']) {
    assert.equal(refTarget(index, ref, root), undefined, ref);
  }
});

test('a lenient index skips a bad $id or $anchor instead of throwing', () => {
  const root = { $id: 3, $defs: { a: { $anchor: '1bad', type: 'string' } }, $ref: '#/$defs/a' };
  assert.throws(() => indexSchema(root), /\$id must be a string/);
  const index = indexSchema(root, { lenient: true });
  assert.deepEqual(refTarget(index, '#/$defs/a', root), ['$defs', 'a']);
  assert.equal(refTarget(index, '#1bad', root), undefined);
});

test('isRecursiveRef follows chains of refs and ignores refs that do not resolve', () => {
  const a = { segs: ['$defs', 'a', 'properties', 'b'], ref: '#/$defs/b', target: ['$defs', 'b'] };
  const b = { segs: ['$defs', 'b', 'properties', 'c'], ref: '#/$defs/c', target: ['$defs', 'c'] };
  const c = { segs: ['$defs', 'c', 'properties', 'a'], ref: '#/$defs/a', target: ['$defs', 'a'] };
  const leaf = { segs: ['properties', 'x'], ref: '#/$defs/c', target: ['$defs', 'c'] };
  const refs = [a, b, c, leaf];
  assert.equal(isRecursiveRef(refs, a), true);
  assert.equal(isRecursiveRef(refs, leaf), false);
  assert.equal(isRecursiveRef([...refs, { segs: ['y'], ref: 'x.json', target: undefined }], refs[0]), true);
  const loose = { segs: ['y'], ref: '#y', target: undefined };
  assert.equal(isRecursiveRef([loose], loose), false);
  assert.equal(isRecursiveRef([a, b], a), false);
});
