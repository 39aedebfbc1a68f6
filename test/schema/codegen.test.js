// Differential test of the two verdict backends of compileSchema: the generated JavaScript
// (plan-codegen, the default) and the interpreter ({ codegen: false }) must give the same verdict
// for every schema and value. Random schemas (fast-check, fixed seed) cover the whole 2020-12
// vocabulary the plans know, with adversarial property names and enum strings; random values are
// built from each schema's own names, enum values and bounds, plus objects that are not plain
// (null prototype, inherited properties, class instances) and values JSON cannot hold. For plain
// JSON values the verdict must also equal ajv's (ajv/dist/2020), except where ajv is known to
// differ. A second test feeds JavaScript-breaking text to the generator as names and enum strings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { compileSchema } from '../../dist/schema/validate.js';
import { SchemaCompileError } from '../../dist/schema/types.js';
import {
  anyDocumentArb, describe, documentArb, fromEntries, hasOwn, inheritedName,
  otherValueArb, recursiveDocumentArb, valueArb, vocabulary, walk,
} from './arbitraries.js';

const SEED = 20251130;

// ---------------------------------------------------------------------------------------------
// Watch code generation: every `new Function('R', 'C', 'V', source)` of plan-codegen is recorded, so
// a generator that emits a broken source (and silently falls back to the interpreter) or that is
// never reached fails here instead of passing as "both backends agree".
const RealFunction = globalThis.Function;
const generated = { sources: [], failures: [] };
globalThis.Function = new Proxy(RealFunction, {
  construct(target, args, newTarget) {
    const isCodegen = args.length === 4 && args[0] === 'R' && args[1] === 'C' && args[2] === 'V';
    if (isCodegen) generated.sources.push(args[3]);
    try {
      return Reflect.construct(target, args, newTarget);
    } catch (e) {
      if (isCodegen) generated.failures.push({ source: args[3], error: String(e) });
      throw e;
    }
  },
});

/** compileSchema with the generated verdict, asserting that a source was generated and compiled. */
function compileGenerated(schema, options = {}) {
  const before = generated.sources.length;
  const failuresBefore = generated.failures.length;
  const v = compileSchema(schema, { ...options, codegen: true });
  assert.equal(generated.failures.length, failuresBefore,
    `generated source does not compile: ${generated.failures.at(-1)?.error}\n${generated.failures.at(-1)?.source}`);
  assert.equal(generated.sources.length, before + 1, 'compileSchema generated no verdict source');
  return v;
}

// ---------------------------------------------------------------------------------------------
// ajv: compared on plain JSON values only, and not where it is known to differ.

const ajv = new Ajv2020({ strict: false });

/** Why ajv's verdict cannot be compared for this schema, or undefined. */
function ajvExclusion(schemaText) {
  const schema = JSON.parse(schemaText);
  let contains = false;
  let unevaluatedItems = false;
  let union = false;
  let unevaluated = false;
  let cond = false;
  for (const [, node] of walk(schema)) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    // ajv reads properties with plain loads: inherited names (toString, __proto__, …) count as present.
    for (const kw of ['properties', 'dependentRequired', 'dependentSchemas']) {
      if (typeof node[kw] === 'object' && node[kw] !== null && Object.keys(node[kw]).some(inheritedName)) return 'inherited name';
    }
    for (const list of [node.required, ...Object.values(node.dependentRequired ?? {})]) {
      if (Array.isArray(list) && list.some((n) => typeof n === 'string' && inheritedName(n))) return 'inherited name';
      // ajv ignores a required name "" (its check `missing = ""` is falsy).
      if (Array.isArray(list) && list.includes('')) return 'required ""';
    }
    // ajv divides in binary floating point: 0.07 is not a multiple of 0.01 there.
    if (typeof node.multipleOf === 'number' && !Number.isInteger(node.multipleOf)) return 'fractional multipleOf';
    // ajv skips contains on an empty array after a prefixItems check (its `valid` flag is unset).
    if (Array.isArray(node.prefixItems) && node.prefixItems.some((x) => x !== true) && hasOwn.call(node, 'contains')) return 'prefixItems with contains';
    if (hasOwn.call(node, 'contains')) contains = true;
    if (hasOwn.call(node, 'unevaluatedItems')) unevaluatedItems = true;
    if (hasOwn.call(node, 'anyOf') || hasOwn.call(node, 'oneOf')) union = true;
    if (hasOwn.call(node, 'unevaluatedItems') || hasOwn.call(node, 'unevaluatedProperties')) unevaluated = true;
    if (hasOwn.call(node, 'if') && (hasOwn.call(node, 'then') || hasOwn.call(node, 'else'))) cond = true;
  }
  // ajv 8 counts every item as evaluated by contains (Core §10.3.1.3: only the matches), so
  // {unevaluatedItems: false, contains: {const: 0}} accepts ["a", 0] there.
  if (contains && unevaluatedItems) return 'contains with unevaluatedItems';
  // ajv counts the items of a failed anyOf/oneOf branch as evaluated when that branch evaluates
  // all of them (`items: true`, `unevaluatedItems`): {unevaluatedItems: false, anyOf: [{type:
  // 'array'}, {items: true, minItems: 5}]} accepts [0] there.
  if (union && unevaluatedItems) return 'anyOf/oneOf with unevaluatedItems';
  // Likewise for a failed `if` when `else` runs: {unevaluatedItems: false, if: {items: true,
  // const: 0}, else: {type: 'array'}} accepts [1] there (and the same with properties).
  if (cond && unevaluated) return 'if/then/else with unevaluated*';
  return undefined;
}

/**
 * ajv's deep equality (enum, const, uniqueItems) reads `constructor`, `valueOf` and `toString` on
 * the value: an object with such own keys is compared wrongly or throws there.
 */
function hasInheritedKey(value) {
  for (const [, node] of walk(value)) {
    if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).some(inheritedName)) return true;
  }
  return false;
}

/** ajv's multipleOf tests `q !== parseInt(q)`: from 1e21 on, parseInt reads the exponent form. */
function hasHugeNumber(value) {
  for (const [, node] of walk(value)) if (typeof node === 'number' && Math.abs(node) >= 1e21) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------

const caseArb = anyDocumentArb.chain((text) => {
  const v = vocabulary(JSON.parse(text));
  return fc.tuple(
    fc.constant(text),
    fc.array(valueArb(JSON.parse(text), v), { minLength: 6, maxLength: 10 }),
    fc.array(otherValueArb(v), { minLength: 1, maxLength: 3 }),
  );
});

const RUNS = 3000;

test(`generated and interpreted verdicts and errors agree, and verdicts agree with ajv (${RUNS} random schemas)`, (t) => {
  const sourcesBefore = generated.sources.length;
  const stats = { schemas: 0, refused: 0, ajvRefused: 0, ajvThrew: 0, ajvExcluded: {}, pairs: 0, ajvPairs: 0, valid: 0, other: 0, errorLists: 0 };
  fc.assert(fc.property(caseArb, ([text, values, others]) => {
    let slow;
    try {
      slow = compileSchema(JSON.parse(text), { codegen: false });
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      stats.refused++;
      return;
    }
    const fast = compileGenerated(JSON.parse(text));
    stats.schemas++;
    let theirs;
    const excluded = ajvExclusion(text);
    if (excluded !== undefined) {
      stats.ajvExcluded[excluded] = (stats.ajvExcluded[excluded] ?? 0) + 1;
    } else {
      try {
        theirs = ajv.compile(JSON.parse(text));
      } catch {
        stats.ajvRefused++;
      }
    }
    for (const value of values) {
      const fastResult = fast.validate(value);
      const slowResult = slow.validate(value);
      const a = fastResult.valid;
      const b = slowResult.valid;
      assert.equal(a, b, `backends differ: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
      // The generated error pass (plan-explain.ts) reports what the interpreter's walker does:
      // the same errors, locations and messages, in the same order.
      if (!a) {
        assert.deepEqual(fastResult.errors, slowResult.errors, `errors differ\nschema: ${text}\nvalue: ${describe(value)}`);
        stats.errorLists++;
      }
      stats.pairs++;
      if (a) stats.valid++;
      if (theirs !== undefined && !hasInheritedKey(value) && !(text.includes('"multipleOf"') && hasHugeNumber(value))) {
        let expected;
        try {
          expected = theirs(value);
        } catch {
          // ajv's own faults: a stack overflow, or e.g. "Cannot set properties of undefined" for
          // {if: false, then: {anyOf: [{patternProperties: {"^a": {}}}]}, patternProperties: {"^a": {}}}.
          stats.ajvThrew++;
          continue;
        }
        assert.equal(a, expected, `baremcp says ${a}, ajv says ${expected}\nschema: ${text}\nvalue: ${describe(value)}`);
        stats.ajvPairs++;
      }
    }
    for (const value of others) {
      const fastResult = fast.validate(value);
      const slowResult = slow.validate(value);
      const a = fastResult.valid;
      const b = slowResult.valid;
      assert.equal(a, b, `backends differ: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
      if (!a) {
        assert.deepEqual(fastResult.errors, slowResult.errors, `errors differ\nschema: ${text}\nvalue: ${describe(value)}`);
        stats.errorLists++;
      }
      stats.other++;
    }
    if (theirs !== undefined && typeof theirs.schema === 'object') ajv.removeSchema(theirs.schema);
  }), { numRuns: RUNS, seed: SEED, includeErrorInReport: true });
  t.diagnostic(JSON.stringify(stats));
  // The schemas reached every part of the generator (counted in the generated sources).
  const sources = generated.sources.slice(sourcesBefore);
  const features = {
    'recursive $ref': '<=s.maxDepth&&', 'memoised recursion': 'R.memoCall(', 'interpreter fallback': 'R.verdict(', 'property loop': 'for(const k',
    'own-property read': 'R.hasOwn.call(x,"', 'contains': 'let t', 'oneOf': 'let o', 'uniqueItems': 'R.uniqueOk(',
    'structured enum/const': 'R.valuesOk(', 'large enum': '.has(', 'multipleOf': 'R.isMultipleOf(',
    'code points': 'R.codePoints(', 'pattern': '.test(', 'prototype pollution check': 'P["',
    'prefixItems': 'if(n>0){', 'if/then/else': ')?', 'type switch': 'if(typeof x==="string"){',
    'unevaluatedProperties': 'for(const u', 'unevaluatedItems': 'for(let u',
    'unevaluatedItems from branches': 'const e=new Set();', 'unevaluatedProperties from branches': /let r\d+=false/, 'unevaluated* explained': '/unevaluatedProperties"',
    'unevaluated* explained where other keywords fail': 'function xo', 'anyOf/oneOf explained in one pass': 'R.drop(E,',
  };
  const seen = Object.fromEntries(Object.entries(features).map(([k, needle]) => [k, sources.filter((src) => (typeof needle === 'string' ? src.includes(needle) : needle.test(src))).length]));
  t.diagnostic(`generated sources using: ${JSON.stringify(seen)}`);
  for (const [k, n] of Object.entries(seen)) assert.ok(n >= 10, `only ${n} generated sources use ${k}`);
  // The comparison must have had something to compare.
  assert.ok(stats.schemas > RUNS / 2, `only ${stats.schemas} of ${RUNS} schemas compiled`);
  assert.ok(stats.pairs > RUNS * 3, `only ${stats.pairs} values compared`);
  assert.ok(stats.valid > stats.pairs / 10 && stats.valid < stats.pairs * 0.9, `${stats.valid} of ${stats.pairs} values valid`);
  assert.ok(stats.ajvPairs > stats.pairs / 5, `only ${stats.ajvPairs} values compared with ajv`);
  assert.ok(stats.errorLists > stats.pairs / 10, `only ${stats.errorLists} error lists compared`);
  // The generated error pass was reached, not only the interpreter's (explain-runtime.ts: R.fail).
  const explained = sources.filter((src) => src.includes('R.fail(E,') || src.includes('R.failm(E,')).length;
  assert.ok(explained > RUNS / 4, `only ${explained} generated sources explain errors`);
  assert.equal(generated.failures.length, 0);
});

test('with a polluted Object.prototype the backends still agree (own properties only)', (t) => {
  let n = 0;
  const arb = documentArb.chain((text) => {
    const v = vocabulary(JSON.parse(text));
    return fc.tuple(fc.constant(text), fc.constant(v.names), fc.array(valueArb(JSON.parse(text), v), { minLength: 2, maxLength: 4 }));
  });
  fc.assert(fc.property(arb, fc.nat(), ([text, polluting, values], pick) => {
    let slow;
    try {
      slow = compileSchema(JSON.parse(text), { codegen: false });
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      return;
    }
    const fast = compileGenerated(JSON.parse(text));
    const key = polluting.filter((k) => !inheritedName(k))[pick % polluting.length] ?? 'a';
    for (const value of values) {
      let a;
      let b;
      Object.prototype[key] = 'polluted';
      try {
        a = fast.validate(value).valid;
        b = slow.validate(value).valid;
      } finally {
        delete Object.prototype[key];
      }
      assert.equal(a, b, `backends differ with Object.prototype[${JSON.stringify(key)}]: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
      n++;
    }
  }), { numRuns: 300, seed: SEED + 1, includeErrorInReport: true });
  t.diagnostic(`${n} values compared`);
  assert.ok(n > 300);
});

test('with a small maxDepth the backends count depth alike', (t) => {
  let n = 0;
  let limited = 0;
  const arb = recursiveDocumentArb.chain((text) =>
    fc.tuple(fc.constant(text), fc.constantFrom(0, 1, 2, 3), fc.array(
      // Nested 0 to 4 levels deeper, in arrays or objects.
      fc.tuple(valueArb(JSON.parse(text), vocabulary(JSON.parse(text))), fc.array(fc.constantFrom('[]', 'a', ''), { maxLength: 4 }))
        .map(([v, wraps]) => wraps.reduce((x, w) => (w === '[]' ? [x] : fromEntries([[w, x]])), v)),
      { minLength: 3, maxLength: 6 })));
  fc.assert(fc.property(arb, ([text, maxDepth, values]) => {
    let slow;
    try {
      slow = compileSchema(JSON.parse(text), { codegen: false, maxDepth });
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      return;
    }
    const fast = compileGenerated(JSON.parse(text), { maxDepth });
    const deep = compileSchema(JSON.parse(text));
    for (const value of values) {
      const a = fast.validate(value).valid;
      const b = slow.validate(value).valid;
      assert.equal(a, b, `backends differ with maxDepth ${maxDepth}: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
      if (a !== deep.validate(value).valid) limited++;
      n++;
    }
  }), { numRuns: 400, seed: SEED + 2, includeErrorInReport: true });
  t.diagnostic(`${n} values compared, ${limited} of them cut off by maxDepth`);
  assert.ok(n > 500 && limited > 10);
});

test('with a small maxErrors the generated error pass lists what the interpreter lists', (t) => {
  // The error pass stops on a full list, and anyOf/oneOf explain their branches in one pass and
  // drop the errors of a branch that passes: the list must still be the interpreter's, cut alike.
  let n = 0;
  let full = 0;
  const arb = documentArb.chain((text) => fc.tuple(fc.constant(text), fc.constantFrom(1, 2, 3),
    fc.array(valueArb(JSON.parse(text), vocabulary(JSON.parse(text))), { minLength: 2, maxLength: 4 })));
  fc.assert(fc.property(arb, ([text, maxErrors, values]) => {
    let slow;
    try {
      slow = compileSchema(JSON.parse(text), { codegen: false, maxErrors });
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      return;
    }
    const fast = compileGenerated(JSON.parse(text), { maxErrors });
    for (const value of values) {
      const a = fast.validate(value);
      const b = slow.validate(value);
      assert.equal(a.valid, b.valid, `backends differ with maxErrors ${maxErrors}\nschema: ${text}\nvalue: ${describe(value)}`);
      assert.deepEqual(a.errors, b.errors, `errors differ with maxErrors ${maxErrors}\nschema: ${text}\nvalue: ${describe(value)}`);
      if (b.errors.length === maxErrors) full++;
      n++;
    }
  }), { numRuns: 1000, seed: SEED + 3, includeErrorInReport: true });
  t.diagnostic(`${n} values compared, ${full} of them with a full list`);
  assert.ok(n > 1000 && full > 100);
});

// ---------------------------------------------------------------------------------------------
// Injection: JavaScript-breaking text as names and enum strings compiles to working code and runs
// nothing.

const EVIL = [
  '"', '`', "'", '\\', '\\"', '*/', '/*', '//', '\n', '\r', '\u2028', '\u2029', '\ud800', '<!--', '-->',
  '${globalThis.__pwned=1}', '`+(globalThis.__pwned=1)+`', '"+(globalThis.__pwned=1)+"',
  "'+(globalThis.__pwned=1)+'", '});process.exit(1);//', '"});globalThis.__pwned=1;//',
  '"]);globalThis.__pwned=1;//', '*/globalThis.__pwned=1;/*', '\nglobalThis.__pwned=1;//',
  '\u2028globalThis.__pwned=1;//', '\r\nglobalThis.__pwned=1;//', '</script><script>globalThis.__pwned=1</script>',
  '\\u0022+(globalThis.__pwned=1)+\\u0022', '\\"+(globalThis.__pwned=1)+\\"', 'x\0y',
  '-->globalThis.__pwned=1', '<!--\nglobalThis.__pwned=1',
];

test('names and enum strings that break JavaScript compile to correct code and run nothing', () => {
  assert.equal(new Set(EVIL).size, EVIL.length);
  delete globalThis.__pwned;
  const sourcesBefore = generated.sources.length;
  const other = 'plain';
  const entries = EVIL.map((n) => [n, { type: 'string', enum: [n, other] }]);
  // Inline === chains (≤ 16 values) and a Set (> 16), property loads, required, dependencies.
  const schemas = [
    {
      type: 'object',
      properties: fromEntries(entries),
      required: EVIL,
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: fromEntries(EVIL.map((n) => [n, { const: n }])),
      // Each name at an even index needs the next one.
      dependentRequired: fromEntries(EVIL.flatMap((n, i) => (i % 2 === 0 && i + 1 < EVIL.length ? [[n, [EVIL[i + 1]]]] : []))),
      propertyNames: { enum: EVIL },
    },
    {
      type: 'object',
      properties: fromEntries(EVIL.slice(0, 10).map((n) => [n, { enum: EVIL.slice(0, 12) }])),
      dependentSchemas: fromEntries(EVIL.slice(0, 10).map((n) => [n, { required: [n], properties: fromEntries([[n, { not: { const: 'x' } }]]) }])),
      additionalProperties: { type: 'integer' },
    },
    {
      type: 'array',
      items: { type: 'string', enum: EVIL.slice(0, 14) },
      prefixItems: [{ const: EVIL[16] }],
    },
    {
      anyOf: EVIL.map((n) => ({ type: 'object', properties: fromEntries([[n, { const: n }]]), required: [n] })),
    },
  ].map((s) => JSON.parse(JSON.stringify(s)));
  const full = fromEntries(EVIL.map((n) => [n, n]));
  const without = (o, k) => fromEntries(Object.entries(o).filter(([x]) => x !== k));
  const cases = [
    [0, full, true],
    [0, without(full, EVIL[5]), false],
    [0, { ...full, [EVIL[3]]: other }, true],
    [0, { ...full, [EVIL[3]]: EVIL[4] }, false],
    [0, { ...full, extra: 'x' }, false],
    [1, full, true],
    [1, fromEntries([[EVIL[0], EVIL[0]]]), false], // EVIL[0] needs EVIL[1]
    [1, fromEntries([[EVIL[0], EVIL[0]], [EVIL[1], EVIL[1]]]), true],
    [1, fromEntries([[EVIL[1], EVIL[1]]]), true],
    [1, fromEntries([[EVIL[7], EVIL[6]], [EVIL[8], EVIL[8]]]), false],
    [1, fromEntries([['nope', 1]]), false],
    [2, fromEntries([[EVIL[2], EVIL[11]]]), true],
    [2, fromEntries([[EVIL[2], EVIL[12]]]), false],
    [2, fromEntries([[EVIL[20], 3]]), true],
    [2, fromEntries([[EVIL[20], EVIL[20]]]), false],
    [3, [EVIL[16], EVIL[0], EVIL[13]], true],
    [3, [EVIL[16], EVIL[15]], false],
    [3, [EVIL[15]], false],
    [4, fromEntries([[EVIL[19], EVIL[19]]]), true],
    [4, fromEntries([[EVIL[19], EVIL[18]]]), false],
  ];
  const fast = schemas.map((s) => compileGenerated(s));
  const slow = schemas.map((s) => compileSchema(s, { codegen: false }));
  for (const [i, value, expected] of cases) {
    assert.equal(fast[i].validate(value).valid, expected, `generated, schema ${i}, value ${describe(value)}`);
    assert.equal(slow[i].validate(value).valid, expected, `interpreted, schema ${i}, value ${describe(value)}`);
  }
  assert.equal(globalThis.__pwned, undefined, 'text from the schema was executed');
  // The generated sources hold the text only inside double-quoted string literals (JSON's: a name
  // alone, or within a location or a message): with every such literal taken out, read left to
  // right, nothing of it is left, nor any other kind of string or comment that could hide it.
  const sources = generated.sources.slice(sourcesBefore).join(';');
  assert.ok(sources.includes(JSON.stringify('});process.exit(1);//')));
  assert.ok(sources.includes('/properties/});process.exit(1);~1~1/type'), 'a location holding a name');
  const code = sources.replace(/"(?:[^"\\\n\r]|\\.)*"/g, '""');
  for (const text of ['__pwned', 'process.exit', "'", '`', '//', '/*', '<!--', '-->', '\u2028', '\u2029']) {
    assert.ok(!code.includes(text), `generated code holds ${JSON.stringify(text)} outside a string literal`);
  }
  assert.equal(generated.failures.length, 0);
});

test('shared subschemas behind the memo (more than 8 paths to one plan) give the same verdicts', () => {
  // anyOf/oneOf/allOf levels over one subschema, through $ref and through a reused object:
  // past 8 paths per value the plan is memoised (plan-memo.ts), in both backends.
  const ajv = new Ajv2020({ strict: false });
  const values = [{ x: 1 }, { z: 1 }, { x: 'a' }, { x: 1, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9 }, [], 'x', null];
  let memoised = 0;
  for (const op of ['anyOf', 'oneOf', 'allOf']) {
    for (let depth = 1; depth <= 9; depth++) {
      const $defs = { d0: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } };
      for (let i = 1; i <= depth; i++) {
        $defs[`d${i}`] = { [op]: [{ $ref: `#/$defs/d${i - 1}`, minProperties: 0 }, { $ref: `#/$defs/d${i - 1}`, maxProperties: 9 }] };
      }
      const viaRef = { $defs, $ref: `#/$defs/d${depth}` };
      let reused = $defs.d0;
      for (let i = 0; i < depth; i++) reused = { [op]: [{ allOf: [reused], minProperties: 0 }, { allOf: [reused], maxProperties: 9 }] };
      for (const schema of [viaRef, reused]) {
        const before = generated.sources.length;
        const fast = compileGenerated(schema);
        if (generated.sources.slice(before).some((src) => src.includes('R.memoCall('))) memoised++;
        const slow = compileSchema(schema, { codegen: false });
        const oracle = ajv.compile(structuredClone(schema));
        for (const value of values) {
          const expected = oracle(value);
          assert.equal(fast.validate(value).valid, expected, `generated, ${op} depth ${depth}, ${JSON.stringify(value)}`);
          assert.equal(slow.validate(value).valid, expected, `interpreted, ${op} depth ${depth}, ${JSON.stringify(value)}`);
        }
      }
    }
  }
  // Depths 4 and up (2^3 = 8 paths and more) use the memo, for both kinds of sharing.
  assert.ok(memoised >= 2 * 3 * 5, `the memo was used in ${memoised} schemas`);
});

test('the generated error pass lists failing properties in the order of the value\'s keys, then the missing names', () => {
  // plan-explain.ts reads the properties by name while at most one fails, and walks the keys
  // when two do: both must give the interpreter's list.
  const schema = {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'string', minLength: 2 }, c: { type: 'boolean' } },
    required: ['a', 'c'],
  };
  const fast = compileGenerated(schema);
  const slow = compileSchema(schema, { codegen: false });
  const messages = (v) => {
    const r = fast.validate(v);
    assert.deepEqual(r, slow.validate(v));
    return r.errors.map((e) => e.message);
  };
  assert.deepEqual(messages({ b: 'x', a: 1 }), ['/b: expected a string of at least 2 characters, got 1', '/: missing required property "c"']);
  assert.deepEqual(messages({ c: 0, b: 1, a: 'x' }), [
    '/c: expected boolean, got integer 0', '/b: expected string, got integer 1', '/a: expected number, got string "x"',
  ]);
  assert.deepEqual(messages({ b: 1, c: 0, a: 1 }), ['/b: expected string, got integer 1', '/c: expected boolean, got integer 0']);
});

test('unevaluatedProperties and unevaluatedItems run in generated code, branch annotations recorded only when the branch passes', () => {
  // plan-codegen-unevaluated.ts: names from properties/allOf/$ref are known while generating;
  // anyOf, oneOf, if/then/else, dependentSchemas and contains record at run time.
  const cases = [
    [{
      $defs: { base: { properties: { id: { type: 'integer' } } } },
      $ref: '#/$defs/base',
      allOf: [{ patternProperties: { '^x-': true } }],
      anyOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: true }, required: ['b'] }],
      unevaluatedProperties: false,
    }, [
      [{ id: 1, 'x-y': 0, a: 's' }, true], [{ id: 1, b: 0 }, true], [{ a: 's', b: 0 }, true],
      [{ a: 1, b: 0 }, false], // the first branch fails: `a` is not evaluated
      [{ id: 1, a: 's', c: 0 }, false], [{ a: 's', 'y-x': 0 }, false],
    ]],
    [{
      if: { properties: { kind: { const: 'a' } } },
      then: { properties: { x: true } },
      else: { properties: { y: true } },
      dependentSchemas: { kind: { properties: { z: true } } },
      unevaluatedProperties: { type: 'number' },
    }, [
      [{ kind: 'a', x: 'q', z: 'q' }, true], [{ kind: 2, y: 'q', z: 'q' }, true],
      [{ kind: 'b', y: 'q' }, false], // `if` fails: its annotation of `kind` is dropped
      [{ kind: 'a', y: 'q' }, false], [{ x: 'q' }, true], [{ y: 'q' }, false], [{ kind: 'a' }, true],
    ]],
    [{
      prefixItems: [{ type: 'string' }],
      oneOf: [{ contains: { type: 'boolean' } }, { prefixItems: [true, { type: 'null' }] }],
      unevaluatedItems: false,
    }, [
      [['s', true], true], [['s', null], true], [['s', true, false], true],
      [['s', 1, true], false], [['s', null, 2], false], [['s', true, null], false],
    ]],
    [{ allOf: [{ unevaluatedProperties: true }], unevaluatedProperties: false }, [[{ a: 1 }, true]]],
    [{ anyOf: [{ items: true }, true], unevaluatedItems: false }, [[[], true], [[1], true], ['s', true]]],
  ];
  for (const [schema, values] of cases) {
    const before = generated.sources.length;
    const fast = compileGenerated(schema);
    // The verdict's functions (`f…`, `g…`; the error pass's are `x…`, and its loop for a value
    // whose other keywords fail records at run time what passed).
    const source = generated.sources[before].split('\n').filter((line) => /^function [fg]\d/.test(line)).join('\n');
    // (The fourth evaluates everything while generating: no loop is left.)
    assert.equal(source.includes('for(const u') || source.includes('for(let u'), cases.findIndex(([x]) => x === schema) !== 3,
      `generated unevaluated* loop for ${JSON.stringify(schema)}`);
    const slow = compileSchema(schema, { codegen: false });
    for (const [value, expected] of values) {
      assert.equal(fast.validate(value).valid, expected, `generated: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      assert.equal(slow.validate(value).valid, expected, `interpreted: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      // The generated error pass reports what the interpreter does (the same errors, in order).
      assert.deepEqual(fast.validate(value), slow.validate(value));
    }
  }
  // An unevaluated property, named in the message a model reads.
  const fast = compileGenerated(cases[0][0]);
  assert.deepEqual(fast.validate({ id: 1, a: 's', c: 0 }).errors.map((e) => [e.keywordLocation, e.message]),
    [['/unevaluatedProperties', '/c: property "c" is not allowed']]);
});

test('the error pass copies a function per place it is reached from, within a budget, and lists what the interpreter lists', () => {
  // plan-explain.ts writes a copy of an explain function for each place with literal locations
  // (a shared $def under two properties: two copies, each with its locations written in), takes
  // them as arguments in a recursive plan, and stops copying past its budget (a fan-out of 2^14
  // places to one $def).
  const point = { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x'], additionalProperties: false };
  const node = { type: 'object', properties: { name: { type: 'string' }, next: { $ref: '#/$defs/node' } }, required: ['name'] };
  const shared = { $defs: { point, node }, type: 'object', properties: { a: { $ref: '#/$defs/point' }, b: { $ref: '#/$defs/point' }, list: { $ref: '#/$defs/node' } } };
  const $defs = { d0: point };
  for (let i = 1; i <= 14; i++) $defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } } };
  const wide = { $defs, $ref: '#/$defs/d14' };
  let deep = { x: 'one', z: 1 };
  for (let i = 0; i < 14; i++) deep = i % 2 === 0 ? { l: deep, r: { x: 2.5 } } : { r: deep };
  const cases = [
    [shared, [{ a: { x: 'one' }, b: { y: 1, z: 2 } }, { list: { name: 'a', next: { name: 1, next: { next: {} } } } }]],
    [wide, [deep, { l: { l: 1 } }]],
  ];
  for (const [schema, values] of cases) {
    const before = generated.sources.length;
    const fast = compileGenerated(schema);
    const slow = compileSchema(schema, { codegen: false });
    for (const value of values) {
      const r = fast.validate(value);
      assert.equal(r.valid, false);
      assert.deepEqual(r, slow.validate(value), JSON.stringify(value));
    }
    const source = generated.sources[before];
    if (schema === shared) {
      assert.ok(source.includes('"/a/x: expected integer, got "') && source.includes('"/b/x: expected integer, got "'), 'a copy per place');
      assert.ok(source.includes('at+"/name"'), 'the recursive plan takes its locations as arguments');
    } else {
      assert.ok(source.length < 2_000_000, `the copies stop at the budget (${source.length} characters)`);
    }
  }
});

test('the error pass writes no location longer than its bound into a copy: a chain of long property names keeps its source linear', () => {
  // A $ref chain of 40 levels, each through a property with a 1000-character name: each copy of a
  // level would hold its location (growing by 1000 characters a level) several times, and all the
  // copies of a chain are open at once (not yet counted against the budget): 40 levels gave
  // about 12 million characters of source, quadratic in the schema's 85 000.
  const name = 'n'.repeat(1000);
  const $defs = { d0: { type: 'integer' } };
  for (let i = 1; i <= 40; i++) {
    $defs[`d${i}`] = { type: 'object', properties: { [name]: { $ref: `#/$defs/d${i - 1}` }, b: { type: 'string' } }, required: [name, 'b'], additionalProperties: false };
  }
  const schema = { $defs, $ref: '#/$defs/d40' };
  const before = generated.sources.length;
  const fast = compileGenerated(schema);
  const source = generated.sources[before];
  const schemaChars = JSON.stringify(schema).length;
  assert.ok(source.length < 10 * schemaChars, `${source.length} characters of source for ${schemaChars} of schema`);
  let value = 1.5;
  for (let i = 0; i < 40; i++) value = { [name]: value, z: 1 };
  assert.deepEqual(fast.validate(value), compileSchema(schema, { codegen: false }).validate(value));
});
