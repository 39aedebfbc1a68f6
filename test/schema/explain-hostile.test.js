// The generated error pass (issue 21) against hostile schemas: nastier than codegen.test.js. Schemas nest
// anyOf/oneOf/allOf/not/if-then-else under unevaluatedProperties/Items, recurse through $ref
// ($defs, an $anchor, the document's $id), and use dependentSchemas, prefixItems/contains and
// names and patterns that break JavaScript text (`__proto__`, quotes, backslashes, U+2028/2029,
// lone surrogates, `*/`, `${`, a 300-character name). For each value the generated validator
// (codegen: true) must give exactly the interpreter's result: same errors, order, locations and
// messages, with maxErrors 1-3 and a small maxDepth too. Then values that are not plain objects,
// and huge or deep values, which must give one result (or the same throw) on both backends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileSchema } from '../../dist/schema/validate.js';
import { SchemaCompileError } from '../../dist/schema/types.js';
import { describe, fromEntries, otherValueArb, valueArb, vocabulary } from './arbitraries.js';

// Every source plan-codegen compiles is counted: a validator that never generated would make
// "both backends agree" vacuous.
const RealFunction = globalThis.Function;
let compiled = 0;
globalThis.Function = new Proxy(RealFunction, {
  construct(target, args, newTarget) {
    const made = Reflect.construct(target, args, newTarget);
    if (args.length === 4 && args[0] === 'R' && args[1] === 'C' && args[2] === 'V') compiled++;
    return made;
  },
});

const NAMES = ['a', 'b', 'c', '0', '__proto__', 'constructor', 'toString', '\u2029', '\ud800', '*/', '${x}', "a'b", 'q"\\', '\\u0041', '</script>', 'x'.repeat(300)];
const PATTERNS = ['^a', '\\u2028', '^\\\\$', '\\*/|\\$\\{', '.', '^[\\ud800-\\udfff]$'];
const REFS = ['#', '#/$defs/d0', '#/$defs/d1', '#a', 'urn:x#/$defs/d0'];
const name = fc.constantFrom(...NAMES);
const leaf = fc.oneof(
  fc.constantFrom({ type: 'string' }, { type: 'integer' }, { type: 'object' }, { type: 'array' }, { minimum: 1 }, { maxLength: 1 }, true, false),
  name.map((n) => ({ const: n })),
  fc.array(name, { minLength: 1, maxLength: 3 }).map((e) => ({ enum: e })),
  fc.constantFrom(...PATTERNS).map((p) => ({ pattern: p })),
  fc.constantFrom(...REFS).map((r) => ({ $ref: r })),
);
const dict = (key, value, max) => fc.array(fc.tuple(key, value), { maxLength: max }).map(fromEntries);
const sub = fc.letrec((tie) => ({
  s: fc.oneof({ depthSize: 'small' }, leaf, fc.array(fc.oneof(
    fc.tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(tie('s'), { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constantFrom('not', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems',
      'additionalProperties', 'items', 'contains', 'propertyNames'), tie('s')),
    fc.tuple(fc.constant('properties'), dict(name, tie('s'), 3)),
    fc.tuple(fc.constant('patternProperties'), dict(fc.constantFrom(...PATTERNS), tie('s'), 2)),
    fc.tuple(fc.constant('dependentSchemas'), dict(name, tie('s'), 2)),
    fc.tuple(fc.constant('dependentRequired'), dict(name, fc.uniqueArray(name, { maxLength: 2 }), 2)),
    fc.tuple(fc.constant('required'), fc.uniqueArray(name, { maxLength: 3 })),
    fc.tuple(fc.constant('prefixItems'), fc.array(tie('s'), { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constantFrom('minContains', 'maxContains', 'minItems', 'maxProperties'), fc.integer({ min: 0, max: 2 })),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constant('type'), fc.constantFrom('object', 'array', 'string')),
  ), { minLength: 1, maxLength: 4 }).map(fromEntries)),
})).s;
// Copied through JSON (constants are shared objects); `__proto__` keys stay own properties.
const documentArb = fc.tuple(sub, sub, sub).map((t) => JSON.parse(JSON.stringify(t))).map(([r, d0, d1]) => {
  const root = typeof r === 'boolean' ? { allOf: [r] } : r;
  const target = typeof d1 === 'boolean' ? { allOf: [d1] } : d1;
  target.$anchor = 'a';
  root.$id = 'urn:x';
  root.$defs = { d0, d1: target };
  return JSON.stringify(root);
});

function agree(seed, numRuns, limits) {
  const stats = { values: 0, invalid: 0, full: 0, schemas: 0 };
  const arb = documentArb.chain((text) => {
    const v = vocabulary(JSON.parse(text));
    return fc.tuple(fc.constant(text), limits,
      fc.array(fc.oneof({ weight: 3, arbitrary: valueArb(JSON.parse(text), v) }, { weight: 1, arbitrary: otherValueArb(v) }), { minLength: 3, maxLength: 6 }));
  });
  fc.assert(fc.property(arb, ([text, options, values]) => {
    let slow;
    try {
      slow = compileSchema(JSON.parse(text), { ...options, codegen: false });
    } catch (e) {
      if (e instanceof SchemaCompileError) return;
      throw e;
    }
    const before = compiled;
    const fast = compileSchema(JSON.parse(text), { ...options, codegen: true });
    assert.equal(compiled, before + 1, `no generated validator\nschema: ${text}`);
    stats.schemas++;
    for (const value of values) {
      const b = slow.validate(value);
      assert.deepEqual(fast.validate(value), b, `options ${JSON.stringify(options)}\nschema: ${text}\nvalue: ${describe(value)}`);
      stats.values++;
      if (!b.valid) stats.invalid++;
      if (b.errors.length === options.maxErrors) stats.full++;
    }
  }), { numRuns, seed, includeErrorInReport: true });
  return stats;
}

test('nested unions under unevaluated*, $ref recursion, hostile names: generated errors are the interpreter\'s (maxErrors 1-3 and 100)', (t) => {
  const stats = agree(20261201, 700, fc.record({ maxErrors: fc.constantFrom(1, 2, 3, 100) }));
  t.diagnostic(JSON.stringify(stats));
  assert.ok(stats.schemas > 500 && stats.invalid > 800 && stats.full > 200, JSON.stringify(stats));
});

test('the same with maxDepth 1-3: the depth cut-off is reported alike', (t) => {
  const stats = agree(20261202, 400, fc.record({ maxErrors: fc.constantFrom(1, 3, 100), maxDepth: fc.constantFrom(1, 2, 3) }));
  t.diagnostic(JSON.stringify(stats));
  assert.ok(stats.schemas > 300 && stats.invalid > 400, JSON.stringify(stats));
});

/** Both backends' result (or what they throw) for `value`; `codegen: true` generates at once. */
function both(schema, value, options = {}) {
  const run = (codegen) => {
    const before = compiled;
    const v = compileSchema(structuredClone(schema), { ...options, codegen });
    if (codegen) assert.equal(compiled, before + 1, 'no generated validator');
    const out = [];
    for (let i = 0; i < 6; i++) {
      try {
        out.push(v.validate(value));
      } catch (e) {
        out.push(`throws ${e.constructor.name}: ${e.message}`);
      }
    }
    return out.at(-1);
  };
  const slow = run(false);
  assert.deepEqual(run(true), slow);
  return slow;
}

const OBJECT = {
  type: 'object', properties: { a: { type: 'integer' }, b: { anyOf: [{ type: 'string' }, { minimum: 3 }] } },
  required: ['a'], additionalProperties: false,
};
const UNEVALUATED = {
  type: 'object', properties: { a: { type: 'integer' } },
  anyOf: [{ properties: { b: { type: 'string' } } }, { required: ['c'] }], unevaluatedProperties: false,
};

test('objects that are not plain: null prototype, class instances, Proxies, inherited names, throwing getters', () => {
  const bare = Object.assign(Object.create(null), { a: 'x', q: 1 });
  class Point { constructor() { this.a = 1; this.z = 2; } }
  const inherited = Object.assign(Object.create({ a: 1 }), { b: 2 });
  const getter = { a: 'no', get b() { throw new Error('getter'); } };
  const keysThrow = new Proxy({ a: 'x' }, { ownKeys() { throw new Error('ownKeys'); } });
  for (const schema of [OBJECT, UNEVALUATED]) {
    for (const value of [bare, new Point(), inherited, new Proxy({ a: 'x', b: 1 }, {}), getter, keysThrow, new Date(0), [, 'a'], new Uint8Array(2)]) {
      both(schema, value);
    }
  }
  assert.equal(both(OBJECT, getter), 'throws Error: getter');
  assert.equal(both(OBJECT, bare).errors.length, 2);
});

test('huge and deep values: one result, the same on both backends', () => {
  let deep = 0;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const nested = { anyOf: [{ type: 'array', items: { $ref: '#' } }, { type: 'integer' }], unevaluatedItems: false };
  assert.equal(both(nested, deep).valid, false);
  assert.equal(both(nested, deep, { maxDepth: 3, maxErrors: 2 }).errors.length, 2);
  const wide = {};
  for (let i = 0; i < 20_000; i++) wide[`k${i}`] = i;
  assert.equal(both(UNEVALUATED, wide, { maxErrors: 2 }).errors.length, 2);
  assert.equal(both(OBJECT, wide).errors.length, 100);
  assert.equal(both({ type: 'array', items: { type: 'string', maxLength: 1 } }, Array(1e6).fill('bb'), { maxErrors: 1 }).errors.length, 1);
});
