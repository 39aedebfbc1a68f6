// Tests for src/schema/strict-refs.ts: local JSON Pointer $refs, their resolution, recursion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRecursiveRef, refPointer, refResolves } from '../../dist/schema/strict-refs.js';

test('refPointer decodes ~1, ~0 and percent escapes, and refuses anchors and remote refs', () => {
  assert.deepEqual(refPointer('#'), []);
  assert.deepEqual(refPointer('#/$defs/a~1b~0c%20d'), ['$defs', 'a/b~c d']);
  assert.equal(refPointer('#anchor'), undefined);
  assert.equal(refPointer('other.json#/a'), undefined);
  assert.equal(refPointer('#/bad%E0'), undefined);
});

test('refResolves walks objects and array indexes and stops at anything else', () => {
  const root = { properties: { t: { prefixItems: [{ type: 'string' }] } } };
  assert.equal(refResolves(root, ['properties', 't', 'prefixItems', '0']), true);
  assert.equal(refResolves(root, ['properties', 't', 'prefixItems', '1']), false);
  assert.equal(refResolves(root, ['properties', 't', 'prefixItems', '01']), false);
  assert.equal(refResolves(root, ['properties', 't', 'prefixItems', '0', 'type', 'x']), false);
  assert.equal(refResolves(root, ['toString']), false);
});

test('isRecursiveRef follows chains of refs and ignores remote and anchor refs', () => {
  const a = { segs: ['$defs', 'a', 'properties', 'b'], ref: '#/$defs/b' };
  const b = { segs: ['$defs', 'b', 'properties', 'c'], ref: '#/$defs/c' };
  const c = { segs: ['$defs', 'c', 'properties', 'a'], ref: '#/$defs/a' };
  const leaf = { segs: ['properties', 'x'], ref: '#/$defs/c' };
  const refs = [a, b, c, leaf];
  assert.equal(isRecursiveRef(refs, a), true);
  assert.equal(isRecursiveRef(refs, leaf), false);
  assert.equal(isRecursiveRef([...refs, { segs: ['y'], ref: 'x.json' }], refs[0]), true);
  assert.equal(isRecursiveRef([{ segs: ['y'], ref: '#y' }], { segs: ['y'], ref: '#y' }), false);
  assert.equal(isRecursiveRef([a, b], a), false);
});
