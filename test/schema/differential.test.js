// Differential test: for random values (fast-check), baremcp's verdict must equal ajv's
// (ajv/dist/2020, a devDependency) on the same JSON Schema 2020-12 schemas. The schemas avoid
// the few places where ajv deliberately differs: fractional multipleOf (ajv divides in binary
// floating point), formats, and property names that exist on Object.prototype (ajv's
// `required` reads inherited properties).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { compileSchema } from '../../dist/schema/validate.js';

const ajv = new Ajv2020({ strict: false, allErrors: false });
const RUNS = 700;
const anyJson = fc.jsonValue({ maxDepth: 3 });
const word = fc.constantFrom('a', 'b', 'ab', 'read', 'write', '', 'Ω', '😀', 'x y', 'A1');
const smallInt = fc.integer({ min: -5, max: 50 });
const num = fc.oneof(smallInt, fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }));
const scalar = fc.oneof(word, num, fc.boolean(), fc.constant(null));
const maybe = (arb) => fc.option(arb, { nil: undefined, freq: 3 });
const record = (shape) => fc.record(shape, { requiredKeys: [] }).map((o) => {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
});
const bias = (good, bad) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 });
const withNoise = (arb) => fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: anyJson, weight: 1 });

const CASES = [
  {
    name: 'a flat tool schema of primitives',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 3 },
        mode: { enum: ['read', 'write'] },
        limit: { type: 'integer', minimum: 1, maximum: 20, multipleOf: 2 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        follow: { type: 'boolean' },
        note: { type: ['string', 'null'], pattern: '^[a-z]*$' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    values: withNoise(fc.tuple(record({
      path: bias(fc.constantFrom('a', 'ab', 'Ω😀', '😀😀😀'), fc.oneof(word, scalar)),
      mode: bias(fc.constantFrom('read', 'write'), scalar),
      limit: bias(fc.integer({ min: 0, max: 11 }).map((n) => n * 2), fc.oneof(smallInt, scalar)),
      ratio: bias(fc.double({ min: 0, max: 1, noNaN: true }), num),
      follow: bias(fc.boolean(), scalar),
      note: bias(fc.constantFrom('abc', '', null), fc.oneof(word, scalar)),
    }), fc.option(scalar, { freq: 5 })).map(([o, extra]) => (extra === null ? o : { ...o, extra }))),
  },
  {
    name: 'nested objects and arrays',
    schema: {
      type: 'object',
      properties: {
        tags: {
          type: 'array', items: { type: 'string', maxLength: 2 }, maxItems: 3, uniqueItems: true,
          contains: { const: 'a' }, minContains: 0, maxContains: 1,
        },
        points: {
          type: 'array',
          items: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x'] },
          minItems: 1,
        },
        meta: {
          type: 'object',
          patternProperties: { '^a': { type: 'string' }, 'b$': { type: 'number' } },
          additionalProperties: { type: 'boolean' },
          propertyNames: { maxLength: 2 },
          maxProperties: 3,
        },
      },
      minProperties: 1,
    },
    values: withNoise(record({
      tags: fc.array(fc.oneof(word, scalar), { maxLength: 4 }),
      points: fc.array(record({ x: fc.oneof(smallInt, scalar), y: num }), { maxLength: 3 }),
      meta: fc.dictionary(fc.constantFrom('a', 'ab', 'b', 'xb', 'abc', 'q'), scalar, { maxKeys: 4 }),
    })),
  },
  {
    name: 'a recursive tree through $defs and $ref',
    schema: {
      $defs: {
        node: {
          type: 'object',
          properties: {
            value: { $ref: '#/$defs/value' },
            children: { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 3 },
          },
          required: ['value'],
          additionalProperties: false,
        },
        value: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1 }] },
      },
      $ref: '#/$defs/node',
    },
    values: withNoise(fc.letrec((tie) => ({
      node: record({
        value: fc.oneof(smallInt, word, scalar),
        children: fc.array(tie('node'), { maxLength: 3, depthIdentifier: 'tree' }),
      }),
    })).node),
  },
  {
    name: 'unions with anyOf, oneOf, not and if/then/else',
    schema: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'click' }, at: { type: 'integer' } },
          required: ['kind'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'type' }, text: { type: 'string' } },
          required: ['kind', 'text'],
        },
        { type: 'array', prefixItems: [{ type: 'string' }], not: { contains: { const: null } } },
      ],
      if: { type: 'object', required: ['at'] },
      then: { properties: { at: { minimum: 0 } } },
      else: { anyOf: [{ type: 'array' }, { required: ['kind'] }] },
    },
    values: withNoise(fc.oneof(
      record({ kind: fc.constantFrom('click', 'type', 'x'), at: fc.oneof(smallInt, scalar), text: scalar }),
      fc.array(scalar, { maxLength: 3 }),
    )),
  },
  {
    // No contains here: ajv 8 counts every item as evaluated when maxContains is present, while
    // 2020-12 Core §10.3.1.3 annotates only the matching items.
    name: 'unevaluatedProperties, unevaluatedItems and dependencies',
    schema: {
      type: ['object', 'array'],
      properties: { a: { type: 'integer' } },
      allOf: [{ properties: { b: { type: 'string' } } }],
      anyOf: [{ properties: { c: { type: 'boolean' } }, required: ['c'] }, { maxProperties: 2 }, { type: 'array' }],
      dependentRequired: { a: ['b'] },
      dependentSchemas: { d: { properties: { d: { type: 'null' } } } },
      unevaluatedProperties: false,
      prefixItems: [{ type: 'integer' }],
      unevaluatedItems: { type: 'boolean' },
    },
    values: withNoise(fc.oneof(
      record({ a: fc.oneof(smallInt, scalar), b: fc.oneof(word, scalar), c: scalar, d: scalar, e: scalar }),
      fc.array(fc.oneof(smallInt, word, fc.boolean()), { maxLength: 4 }),
    )),
  },
  {
    name: 'numbers, enum and const with structured values',
    schema: {
      anyOf: [
        { type: 'number', minimum: -3, exclusiveMaximum: 40, multipleOf: 3 },
        { enum: [null, 'x', [1, 2], { k: 1 }] },
        { const: { a: [1, { b: true }] } },
        { type: 'array', items: { type: 'number' }, uniqueItems: true, minItems: 2 },
      ],
    },
    values: withNoise(fc.oneof(
      num, scalar,
      fc.constantFrom([1, 2], [1.0, 2], { k: 1 }, { k: 1.0 }, { a: [1, { b: true }] }, { a: [1, { b: 1 }] }),
      fc.array(fc.oneof(smallInt, fc.constantFrom(1, 1.0, -0, 0)), { maxLength: 4 }),
    )),
  },
  {
    // The interpreter's shortcuts: objects whose properties are all leaves, arrays of them, an
    // anyOf of such objects, string enums and lengths in code points, integer ranges.
    name: 'tool-shaped objects, unions of them and arrays of them',
    schema: {
      type: 'object',
      properties: {
        action: {
          anyOf: [
            {
              type: 'object',
              properties: { type: { const: 'click' }, at: { type: 'integer', minimum: 0, maximum: 9 } },
              required: ['type', 'at'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { type: { const: 'type' }, text: { type: 'string', minLength: 2, maxLength: 3 } },
              required: ['type', 'text'],
              additionalProperties: false,
            },
          ],
        },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'ab', 'Ω😀'] }, uniqueItems: true, maxItems: 3 },
        points: {
          type: 'array',
          items: {
            type: 'object',
            properties: { x: { type: 'number', exclusiveMinimum: 0 }, ok: { type: 'boolean' } },
            additionalProperties: { type: 'null' },
          },
        },
        name: { type: 'string', minLength: 2 },
      },
      required: ['action'],
    },
    values: withNoise(record({
      action: bias(fc.oneof(
        record({ type: fc.constant('click'), at: bias(fc.integer({ min: 0, max: 9 }), fc.oneof(smallInt, scalar)) }),
        record({ type: fc.constant('type'), text: bias(fc.constantFrom('ab', 'Ω😀', 'abc'), word) }),
      ), fc.oneof(scalar, record({ type: word, at: smallInt, text: word }))),
      tags: fc.array(bias(fc.constantFrom('a', 'ab', 'Ω😀'), scalar), { maxLength: 4 }),
      points: fc.array(record({ x: num, ok: fc.oneof(fc.boolean(), scalar), z: fc.oneof(fc.constant(null), scalar) }), { maxLength: 3 }),
      name: bias(fc.constantFrom('ab', '😀😀', 'abc'), fc.constantFrom('a', '😀', '', 3)),
    })),
  },
];

for (const { name, schema, values } of CASES) {
  test(`baremcp agrees with ajv on ${name} (${RUNS} random values)`, () => {
    // Both of baremcp's verdicts: the generated code (the default) and the interpreter.
    const ours = compileSchema(schema, { codegen: true });
    const interpreted = compileSchema(schema, { codegen: false });
    const theirs = ajv.compile(structuredClone(schema));
    let validSeen = 0;
    fc.assert(fc.property(values, (value) => {
      const result = ours.validate(value);
      const expected = theirs(value);
      if (result.valid) validSeen++;
      assert.equal(result.valid, expected, `verdict differs for ${JSON.stringify(value)}`);
      assert.equal(interpreted.validate(value).valid, expected, `interpreter differs for ${JSON.stringify(value)}`);
      assert.equal(result.errors.length === 0, result.valid);
    }), { numRuns: RUNS, seed: 20251130 });
    // Both verdicts must occur, or the comparison says little.
    assert.ok(validSeen > RUNS / 50, `only ${validSeen} valid values were generated`);
    assert.ok(validSeen < RUNS - RUNS / 50, `only ${RUNS - validSeen} invalid values were generated`);
  });
}
