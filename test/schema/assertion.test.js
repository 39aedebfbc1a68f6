// Tests for src/schema/assertion.ts and the assertion keywords (keywords-number.ts,
// keywords-string.ts, keywords-value.ts): each keyword is defined once, and its two backends,
// the interpreter's `test` and the generator's `js`, must agree for every keyword value and every
// value of the keyword's kind (fast-check, fixed seed). A failing value gets a message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NUMBER_KEYWORDS } from '../../dist/schema/keywords-number.js';
import { STRING_KEYWORDS } from '../../dist/schema/keywords-string.js';
import { VALUE_KEYWORDS, valuesOk } from '../../dist/schema/keywords-value.js';
import { numberChecksOk, stringChecksOk } from '../../dist/schema/verdict.js';
import { Plan } from '../../dist/schema/plan.js';
import { RUNTIME } from '../../dist/schema/plan-codegen.js';

const SEED = 20260101;
const ctx = { formatAssertion: true, sub: () => { throw new Error('no subschemas here'); }, ref: () => { throw new Error('no $ref here'); } };

/** The keyword's two backends for one keyword value: [interpreted, generated, plan, assertion]. */
function backends(assertion, value) {
  const plan = new Plan();
  if (!assertion.read(plan, { [assertion.keyword]: value }, '', ctx)) return undefined;
  const consts = [];
  const emit = {
    constant: (v) => {
      if (!consts.includes(v)) consts.push(v);
      return `C[${consts.indexOf(v)}]`;
    },
    scalar: (v) => (typeof v === 'string' || typeof v === 'boolean' || v === null ||
      (typeof v === 'number' && Number.isFinite(v)) ? (Object.is(v, -0) ? '-0' : JSON.stringify(v)) : emit.constant(v)),
  };
  const source = assertion.js(plan, 'x', emit);
  const generated = new Function('R', 'C', 'x', `"use strict";return ${source};`);
  return [(x) => assertion.test(plan, x), (x) => generated(RUNTIME, consts, x), plan, source];
}

const finite = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0, -0, 0.1, 0.0075, 1e-7, 2 ** 53, -(2 ** 53), 1.5));
const positive = fc.oneof(fc.constantFrom(0.01, 0.0001, 1e-7, 0.5, 2, 3, 1.1), fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
  fc.integer({ min: 1, max: 100 }));
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ maxLength: 8 }),
  fc.constantFrom('', '😀', '😀😀', 'a😀', '\ud83d', '2025-01-01', 'a@b.co', '::1', '10.0.0.1', 'https://x.y/z', '#/a/b', '1/a'));
const scalar = fc.oneof(finite, text, fc.boolean(), fc.constant(null), fc.constantFrom(NaN, Infinity, -Infinity));
const json = fc.jsonValue({ maxDepth: 2 });
const anyValue = fc.oneof(scalar, json, fc.constantFrom(undefined, [], {}, [1, [2]], { a: { b: 1 } }));

/** Keyword value and values of its kind, per keyword. */
const CASES = {
  minimum: [finite, finite], maximum: [finite, finite], exclusiveMinimum: [finite, finite],
  exclusiveMaximum: [finite, finite], multipleOf: [positive, finite],
  minLength: [fc.nat(6), text], maxLength: [fc.nat(6), text],
  pattern: [fc.constantFrom('^a', 'b$', '\\d+', '^[\\u{1F600}]$', '.{2}', '^$', 'a|b'), text],
  format: [fc.constantFrom('date-time', 'date', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri',
    'uri-reference', 'uuid', 'regex', 'json-pointer', 'relative-json-pointer'), text],
  enum: [fc.array(anyValue, { maxLength: 20 }), anyValue],
  const: [anyValue, anyValue],
};

test('every assertion keyword has a case here, in its backends\' report order', () => {
  const keywords = [...NUMBER_KEYWORDS, ...STRING_KEYWORDS, ...VALUE_KEYWORDS].map((a) => a.keyword);
  assert.deepEqual(keywords, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
    'minLength', 'maxLength', 'pattern', 'format', 'enum', 'const']);
  assert.deepEqual(Object.keys(CASES).sort(), [...keywords].sort());
});

for (const assertion of [...NUMBER_KEYWORDS, ...STRING_KEYWORDS, ...VALUE_KEYWORDS]) {
  test(`${assertion.keyword}: the interpreter's test and the generated check agree, and a failure has a message`, () => {
    const [keywordValue, value] = CASES[assertion.keyword];
    let compared = 0;
    let failed = 0;
    fc.assert(fc.property(keywordValue, fc.array(value, { minLength: 1, maxLength: 8 }), (kv, xs) => {
      const pair = backends(assertion, kv);
      if (pair === undefined) return; // A value that cannot fail (minLength 0), or an unknown format.
      const [interpreted, generated, plan, source] = pair;
      for (const x of xs) {
        const a = interpreted(x);
        assert.equal(generated(x), a, `${assertion.keyword} ${JSON.stringify(kv)} on ${String(x)}: ${source}`);
        compared++;
        if (!a) {
          failed++;
          const message = assertion.message(plan, x);
          assert.ok(typeof message === 'string' && message.length > 0);
        }
      }
    }), { numRuns: 300, seed: SEED });
    assert.ok(compared > 500 && failed > 0 && failed < compared, `${compared} compared, ${failed} failed`);
  });
}

test('the interpreter\'s written-out group checks run exactly the keywords of their lists', () => {
  const groups = [
    [[...NUMBER_KEYWORDS, ...VALUE_KEYWORDS], (p, x) => numberChecksOk(p, x), fc.array(finite, { maxLength: 4 })],
    [[...STRING_KEYWORDS, ...VALUE_KEYWORDS], (p, x) => stringChecksOk(p, x), fc.array(text, { maxLength: 4 })],
    [VALUE_KEYWORDS, (p, x) => valuesOk(p, x, p.flags), fc.array(anyValue, { maxLength: 4 })],
  ];
  for (const [keywords, groupOk, values] of groups) {
    const schema = fc.record(Object.fromEntries(keywords.map((a) => [a.keyword, CASES[a.keyword][0]])), { requiredKeys: [] });
    fc.assert(fc.property(schema, values, (s, xs) => {
      const plan = new Plan();
      for (const a of keywords) if (a.read(plan, s, '', ctx)) plan.flags |= a.flag;
      for (const x of xs) {
        const each = keywords.every((a) => (plan.flags & a.flag) === 0 || a.test(plan, x));
        assert.equal(groupOk(plan, x), each, `${JSON.stringify(s)} on ${String(x)}`);
      }
    }), { numRuns: 300, seed: SEED });
  }
});

test('a keyword value JSON Schema does not allow is refused where it is read', () => {
  const read = (assertion, value) => () => assertion.read(new Plan(), { [assertion.keyword]: value }, '/p', ctx);
  const [minimum, , , , multipleOf] = NUMBER_KEYWORDS;
  const [minLength, , pattern, format] = STRING_KEYWORDS;
  const [enumKeyword] = VALUE_KEYWORDS;
  assert.throws(read(minimum, '1'), { name: 'SchemaCompileError', message: '/p/minimum: minimum must be a number' });
  assert.throws(read(multipleOf, 0), { message: '/p/multipleOf: multipleOf must be greater than 0' });
  assert.throws(read(minLength, 1.5), { message: '/p/minLength: minLength must be a non-negative integer' });
  assert.throws(read(pattern, '('), { message: /^\/p\/pattern: "\(" is not a valid ECMAScript regular expression/ });
  assert.throws(read(format, 3), { message: '/p/format: format must be a string' });
  assert.throws(read(enumKeyword, 'a'), { message: '/p/enum: enum must be an array' });
});
