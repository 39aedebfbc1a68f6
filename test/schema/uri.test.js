// Unit tests for src/schema/uri.ts (RFC 3986 §5 reference resolution).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveUri, splitFragment } from '../../dist/schema/uri.js';

test('resolveUri follows the RFC 3986 §5.4 examples', () => {
  const base = 'http://a/b/c/d;p?q';
  const cases = {
    'g': 'http://a/b/c/g', './g': 'http://a/b/c/g', 'g/': 'http://a/b/c/g/', '/g': 'http://a/g',
    '//g': 'http://g', '?y': 'http://a/b/c/d;p?y', '#s': 'http://a/b/c/d;p?q#s', '': 'http://a/b/c/d;p?q',
    '..': 'http://a/b/', '../g': 'http://a/b/g', '../../../g': 'http://a/g', 'g;x=1/../y': 'http://a/b/c/y',
  };
  for (const [ref, expected] of Object.entries(cases)) assert.equal(resolveUri(ref, base), expected, ref);
});

test('resolveUri keeps non-hierarchical bases such as urn:', () => {
  assert.equal(resolveUri('#/$defs/a', 'urn:uuid:1234'), 'urn:uuid:1234#/$defs/a');
  assert.equal(resolveUri('urn:x:y', 'http://a/b'), 'urn:x:y');
});

test('splitFragment cuts at the first #', () => {
  assert.deepEqual(splitFragment('http://a/b#/c#d'), ['http://a/b', '/c#d']);
  assert.deepEqual(splitFragment('http://a/b'), ['http://a/b', '']);
});
