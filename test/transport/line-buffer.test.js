// Newline framing without streams: chunks in, whole lines out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineBuffer } from '../../dist/transport/line-buffer.js';

const bytes = (s) => new TextEncoder().encode(s);
const texts = (frames) => frames.map((f) => (f.kind === 'line' ? f.text : f.kind));

test('a message split across chunks is joined, and several per chunk are split', () => {
  const b = new LineBuffer(1024);
  assert.deepEqual(texts(b.push(bytes('{"a":'))), []);
  assert.deepEqual(texts(b.push(bytes('1}\n{"b":2}\n{"c"'))), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(texts(b.push(bytes(':3}\n'))), ['{"c":3}']);
});

test('a multi-byte character split across chunks decodes whole', () => {
  const b = new LineBuffer(1024);
  const all = bytes('"a😀b ★"\n');
  const frames = [...b.push(all.subarray(0, 3)), ...b.push(all.subarray(3, 5)), ...b.push(all.subarray(5))];
  assert.deepEqual(texts(frames), ['"a😀b ★"']);
});

test('\\r\\n endings, a UTF-8 BOM and blank lines are handled', () => {
  const b = new LineBuffer(1024);
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"x":1}\r\n\n  \r\n{"y":2}\n')]);
  assert.deepEqual(texts(b.push(bom)), ['{"x":1}', '{"y":2}']);
});

test('invalid UTF-8 is reported as its own frame', () => {
  const b = new LineBuffer(1024);
  const frames = b.push(new Uint8Array([0x22, 0xff, 0xfe, 0x22, 0x0a, ...bytes('{"ok":1}\n')]));
  assert.deepEqual(texts(frames), ['invalid-utf8', '{"ok":1}']);
});

test('a line over the limit is dropped once, keeps a head for its id, and the stream resynchronises', () => {
  const b = new LineBuffer(16);
  const frames = [...b.push(bytes('{"id":3,"method":"x","p')), ...b.push(bytes('aaaaaaaaaaaaaaaaaaaa')), ...b.push(bytes('aaaa"}\n{"ok":1}\n'))];
  assert.equal(frames.length, 2);
  assert.equal(frames[0].kind, 'too-long');
  assert.match(frames[0].head, /^\{"id":3/);
  assert.deepEqual(texts([frames[1]]), ['{"ok":1}']);
  assert.equal(b.buffered, 0);
});

test('a line exactly at the limit is accepted', () => {
  const b = new LineBuffer(7);
  assert.deepEqual(texts(b.push(bytes('{"a":1}\n'))), ['{"a":1}']);
});

test('50 MB with no newline keeps memory bounded and is rejected at the limit', () => {
  const b = new LineBuffer(1024 * 1024);
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  for (let i = 0; i < 800; i++) {
    assert.deepEqual(b.push(chunk), []);
    assert.ok(b.buffered <= 1024 * 1024);
  }
  const end = b.end();
  assert.equal(end[0].kind, 'too-long');
});

test('end() returns a last line without a newline', () => {
  const b = new LineBuffer(100);
  b.push(bytes('{"z":1}'));
  assert.deepEqual(texts(b.end()), ['{"z":1}']);
  assert.deepEqual(b.end(), []);
});

test('feed() hands lines to a sink in order, across chunks, with faults in their place', () => {
  const b = new LineBuffer(64);
  const seen = [];
  const sink = { line: (text) => seen.push(text), fault: (f) => seen.push(f.kind) };
  b.feed(bytes('{"a":1}\n{"b":'), sink);
  b.feed(new Uint8Array([...bytes('2}\n"'), 0xff, ...bytes('"\n{"c":3}\r\n\n{"d"')]), sink);
  b.feed(bytes(`:4}\n${'x'.repeat(100)}\n{"e":5}\n`), sink);
  assert.deepEqual(seen, ['{"a":1}', '{"b":2}', 'invalid-utf8', '{"c":3}', '{"d":4}', 'too-long', '{"e":5}']);
  assert.equal(b.buffered, 0);
});

test('many lines in one chunk are framed like the same lines one chunk each', () => {
  const lines = ['{"a":"é"}', '\ufeff{"b":1}', '[1,2]\r', '   ', '{"c":"😀"}', '{"d":"\u2028"}'];
  const one = texts(new LineBuffer(1024).push(bytes(lines.join('\n') + '\n')));
  const each = new LineBuffer(1024);
  const apart = lines.flatMap((l) => texts(each.push(bytes(l + '\n'))));
  assert.deepEqual(one, ['{"a":"é"}', '{"b":1}', '[1,2]', '{"c":"😀"}', '{"d":"\u2028"}']);
  assert.deepEqual(apart, one);
});
