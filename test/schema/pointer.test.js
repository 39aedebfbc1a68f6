// Unit tests for src/schema/pointer.ts (RFC 6901 JSON Pointer).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decodeFragmentPointer, decodePointer, encodePointer, escapeToken, unescapeToken,
} from '../../dist/schema/pointer.js';

test('escapeToken escapes ~ before / so that the result decodes back', () => {
  assert.equal(escapeToken('a/b~c'), 'a~1b~0c');
  assert.equal(escapeToken('~1'), '~01');
  assert.equal(unescapeToken('~01'), '~1');
  assert.equal(escapeToken('plain'), 'plain');
});

test('encodePointer joins tokens and writes indexes in decimal', () => {
  assert.equal(encodePointer([]), '');
  assert.equal(encodePointer(['a/b', 0, '']), '/a~1b/0/');
});

test('decodePointer splits a pointer and refuses malformed ones', () => {
  assert.deepEqual(decodePointer(''), []);
  assert.deepEqual(decodePointer('/a~1b/~0/'), ['a/b', '~', '']);
  assert.equal(decodePointer('a/b'), undefined);
  assert.equal(decodePointer('/a~2'), undefined);
});

test('decodeFragmentPointer undoes percent-encoding first', () => {
  assert.deepEqual(decodeFragmentPointer('/$defs/foo%22bar'), ['$defs', 'foo"bar']);
  assert.equal(decodeFragmentPointer('/%E0%A4%A'), undefined);
});
