// LiveList: the list of what is alive now (requests in flight, open connections) that replaces a
// Set where every request adds and removes (src/server/live-list.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveList } from '../../dist/server/live-list.js';

test('values come back in the order they were added, and size counts them', () => {
  const list = new LiveList();
  assert.equal(list.size, 0);
  assert.deepEqual(list.values(), []);
  list.add('a');
  list.add('b');
  list.add('c');
  assert.equal(list.size, 3);
  assert.deepEqual(list.values(), ['a', 'b', 'c']);
});

test('removing the first, a middle and the last entry keeps the others linked in order', () => {
  const list = new LiveList();
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((v) => list.add(v));
  b.remove();
  assert.deepEqual(list.values(), ['a', 'c', 'd']);
  a.remove();
  assert.deepEqual(list.values(), ['c', 'd']);
  d.remove();
  assert.deepEqual(list.values(), ['c']);
  c.remove();
  assert.deepEqual(list.values(), []);
  assert.equal(list.size, 0);
  list.add('e');
  assert.deepEqual(list.values(), ['e']);
});

test('removing an entry twice changes nothing the second time', () => {
  const list = new LiveList();
  const a = list.add('a');
  list.add('b');
  a.remove();
  a.remove();
  assert.equal(list.size, 1);
  assert.deepEqual(list.values(), ['b']);
});

test('the same value added twice is held twice, each entry removed on its own', () => {
  const list = new LiveList();
  const value = {};
  const first = list.add(value);
  list.add(value);
  first.remove();
  assert.equal(list.size, 1);
  assert.equal(list.values()[0], value);
});

test('a removed entry points at no other entry, so a dead entry keeps nothing alive', () => {
  const list = new LiveList();
  list.add('a');
  const b = list.add('b');
  list.add('c');
  b.remove();
  assert.equal(b.prev, undefined);
  assert.equal(b.next, undefined);
});

test('values() is a copy: entries removed while iterating it do not cut the iteration short', () => {
  const list = new LiveList();
  const entries = ['a', 'b', 'c'].map((v) => list.add(v));
  const seen = [];
  for (const value of list.values()) {
    seen.push(value);
    for (const entry of entries) entry.remove();
  }
  assert.deepEqual(seen, ['a', 'b', 'c']);
  assert.equal(list.size, 0);
});
