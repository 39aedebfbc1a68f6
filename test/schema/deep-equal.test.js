// Unit tests for src/schema/deep-equal.ts (JSON Schema instance equality).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalKey, deepEqual } from '../../dist/schema/deep-equal.js';

test('numbers compare mathematically and types never mix', () => {
  assert.equal(deepEqual(1, 1.0), true);
  assert.equal(deepEqual(0, -0), true);
  assert.equal(deepEqual(1, '1'), false);
  assert.equal(deepEqual(null, {}), false);
  assert.equal(deepEqual([], {}), false);
});

test('objects compare by own keys regardless of order', () => {
  assert.equal(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2.0 }], a: 1 }), true);
  assert.equal(deepEqual({ a: 1 }, { a: 1, b: 1 }), false);
  assert.equal(deepEqual({ a: undefined }, { b: undefined }), false);
  assert.equal(deepEqual(JSON.parse('{"__proto__": 1}'), {}), false);
});

test('canonicalKey agrees with deepEqual and stops at the depth limit', () => {
  assert.equal(canonicalKey({ b: 1, a: [1.0, 'x'] }, 5), canonicalKey({ a: [1, 'x'], b: 1 }, 5));
  assert.notEqual(canonicalKey(['1'], 5), canonicalKey([1], 5));
  assert.equal(canonicalKey([[[1]]], 2), undefined);
  assert.equal(canonicalKey([[[1]]], 3), '[[[1]]]');
});
