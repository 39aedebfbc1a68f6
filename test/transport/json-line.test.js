// lineSafe (src/transport/json-line.ts): the property each line reader relies on, checked on
// generated strings. The real readers run in line-readers.test.js. Issue 19, "Wire hygiene".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lineSafe } from '../../dist/transport/json-line.js';

/** Every character some reader ends a line at: Python's str.splitlines() is the widest set. */
const LINE_BREAKS = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** UTF-16 strings with lone surrogates, pairs, separators and escape-like text mixed in. */
const units = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 0xffff }),
    fc.constantFrom(0x85, 0x2028, 0x2029, 0x1c, 0x1d, 0x1e, 0x0b, 0x0c, 0x0d, 0x0a, 0x00, 0x5c, 0x75, 0x64, 0x38, 0xd800, 0xdbff, 0xdc00, 0xdfff),
  ),
  { maxLength: 40 },
);
const text = units.map((codes) => String.fromCharCode(...codes));

test('no line reader splits a line: the text has no character any of them ends a line at, nor a control', () => {
  fc.assert(
    fc.property(text, (s) => {
      const line = lineSafe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { [s]: s, content: [{ type: 'text', text: s }] } }));
      assert.doesNotMatch(line, LINE_BREAKS);
      assert.doesNotMatch(line, /[\x00-\x1f]/);
    }),
    { numRuns: 2000, seed: 19 },
  );
});

test('every reader reads the same text: no lone surrogate, raw or escaped, and the value is the well-formed string', () => {
  fc.assert(
    fc.property(text, (s) => {
      const line = lineSafe(JSON.stringify({ [s]: s }));
      // serde_json rejects an escaped lone surrogate; a raw one cannot be written as UTF-8.
      assert.doesNotMatch(line, LONE);
      assert.doesNotMatch(JSON.stringify(JSON.parse(line)), /\\ud[89a-f]/);
      assert.deepEqual(JSON.parse(line), { [s.toWellFormed()]: s.toWellFormed() });
    }),
    { numRuns: 2000, seed: 21 },
  );
});

test('each kind of string some reader splits or rejects is escaped or replaced, and nothing else changes', () => {
  const cases = [
    ['a\u2028b', '"a\\u2028b"'],
    ['a\u2029b', '"a\\u2029b"'],
    ['a\u0085b', '"a\\u0085b"'],
    ['a\ud800b', '"a\\ufffdb"'],
    ['a\udfffb', '"a\\ufffdb"'],
    ['\udc00\ud800', '"\\ufffd\\ufffd"'],
    ['😀', '"😀"'],
    // The text of an escape is not an escape: an escaped backslash, then "ud800".
    ['\\ud800', '"\\\\ud800"'],
    ['\\\ud800', '"\\\\\\ufffd"'],
    ['\u001c\u000b\u0000', '"\\u001c\\u000b\\u0000"'],
    ['\u007f\u0080\u009f', '"\u007f\u0080\u009f"'],
  ];
  for (const [input, expected] of cases) {
    assert.equal(lineSafe(JSON.stringify(input)), expected, JSON.stringify(input));
  }
  const plain = JSON.stringify({ text: 'nothing to do here: é★' });
  assert.equal(lineSafe(plain), plain);
});

test('a response echoes a string id with a lone surrogate exactly, while its text is made safe', async () => {
  const { jsonLine } = await import('../../dist/transport/json-line.js');
  const reply = { jsonrpc: '2.0', id: 'a\ud800b\u2028', result: { content: [{ type: 'text', text: 'x\udc00y\u2028' }] } };
  const line = jsonLine(reply);
  assert.equal(line.includes('\u2028'), false, 'no raw separator anywhere');
  const back = JSON.parse(line);
  assert.equal(back.id, 'a\ud800b\u2028', 'the id as the client sent it');
  assert.equal(back.result.content[0].text, 'x\ufffdy\u2028', 'the text as UTF-8 would carry it');
  const batch = JSON.parse(jsonLine([reply, { jsonrpc: '2.0', id: 2, result: {} }]));
  assert.deepEqual(batch.map((r) => r.id), ['a\ud800b\u2028', 2]);
  assert.equal(jsonLine({ jsonrpc: '2.0', id: 1, result: {} }), '{"jsonrpc":"2.0","id":1,"result":{}}');
});

test('a progress notification echoes a progressToken with a lone surrogate exactly', async () => {
  const { jsonLine } = await import('../../dist/transport/json-line.js');
  const note = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '\ud800', progress: 1, message: 'half\udc00' } };
  const back = JSON.parse(jsonLine(note));
  assert.equal(back.params.progressToken, '\ud800');
  assert.equal(back.params.message, 'half\ufffd');
});
