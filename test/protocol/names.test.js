// Tests for src/protocol/names.ts: the membership test and the one message for a name outside a
// closed set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOneOf, notOneOf } from '../../dist/protocol/names.js';

test('isOneOf is exact: case matters and only strings match', () => {
  assert.equal(isOneOf('openai', ['openai', 'mcp']), true);
  assert.equal(isOneOf('OpenAI', ['openai', 'mcp']), false);
  assert.equal(isOneOf(undefined, ['openai']), false);
  assert.equal(isOneOf(['openai'], ['openai']), false);
});

test('notOneOf names the value as JSON and lists every known name in order', () => {
  const known = ['a', 'b'];
  assert.equal(notOneOf('level', 'c', known), 'unknown level "c" (choose from a, b)');
  assert.equal(notOneOf('level', undefined, known), 'no level given (choose from a, b)');
  assert.equal(notOneOf('level', 3, known), 'unknown level 3 (choose from a, b)');
  assert.equal(notOneOf('level', 'say "hi"\n', known), 'unknown level "say \\"hi\\"\\n" (choose from a, b)');
  assert.equal(notOneOf('level', 10n, known), 'unknown level 10 (choose from a, b)');
  assert.equal(notOneOf('level', Symbol('s'), known), 'unknown level Symbol(s) (choose from a, b)');
});
