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
// Helpers.

const hasOwn = Object.prototype.hasOwnProperty;
/** Names a plain object inherits from Object.prototype. */
const inheritedName = (n) => n in Object.prototype;

/** An object with exactly these own properties (`__proto__` included, as JSON.parse makes it). */
const fromEntries = (entries) => Object.fromEntries(entries);

/** A deep copy through JSON text (keeps own `__proto__` keys own). */
const jsonCopy = (v) => JSON.parse(JSON.stringify(v));

/** Readable description of any value (-0, undefined, NaN, prototypes) for failure messages. */
function describe(v, depth = 0) {
  if (depth > 6) return '…';
  if (Object.is(v, -0)) return '-0';
  if (v === undefined) return 'undefined';
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => describe(x, depth + 1)).join(',')}]`;
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    const body = `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${describe(v[k], depth + 1)}`).join(',')}}`;
    if (proto === Object.prototype) return body;
    if (proto === null) return `Object.create(null)<-${body}`;
    if (proto.constructor !== Object) return `new ${proto.constructor.name}()<-${body}`;
    return `Object.create(${describe(proto, depth + 1)})<-${body}`;
  }
  return String(v);
}

/** Every node of a JSON document, with the key it sits under. */
function* walk(node, key = null) {
  yield [key, node];
  if (Array.isArray(node)) for (const x of node) yield* walk(x, null);
  else if (typeof node === 'object' && node !== null) for (const k of Object.keys(node)) yield* walk(node[k], k);
}

// ---------------------------------------------------------------------------------------------
// Schemas.

const PLAIN_NAMES = ['a', 'b', 'c', 'length', '0', '1'];
const ODD_NAMES = [
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', 'a"b', '</script>', '\\',
  'a.b', '${a}', '${', '`', '\u2028', '😀',
];
const NAMES = [...PLAIN_NAMES, ...ODD_NAMES];
const SCALARS = [
  -0, 0, 1, 2, -1, 1.5, 0.1, 1e21, 'a', 'b', '', 'a"b', 'q\\', "it's", '\u2028', '😀', 'x`y${z}',
  '0', 'true', 'null', null, true, false,
];
const STRUCTS = [{}, [], { a: 1 }, [1, 'a'], [0], [-0, { b: [null] }], { a: { b: 'c' } }, { '': 0 },
  JSON.parse('{"__proto__":{"a":1}}'), { constructor: 'x' }, ['a', 'a'], [[]]];
const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];
const PATTERNS = ['^a', 'b$', '^_', '\\.', '^$', '^[0-9]+$', '😀', '\\$\\{', '^.{2}$', '"', '^[a-c]*$', 'o'];
const NUMBERS = [-1, 0, 1, 2, 2.5, 10, -0, 0.5, 100];
const MULTIPLES = [1, 2, 3, 1, 0.5, 0.01, 0.1, 0.25];
const COUNTS = [0, 1, 2, 3];

const name = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN_NAMES) }, { weight: 2, arbitrary: fc.constantFrom(...ODD_NAMES) });
const names = (max) => fc.uniqueArray(name, { maxLength: max });
const enumMember = fc.oneof({ arbitrary: fc.constantFrom(...SCALARS), weight: 4 }, { arbitrary: fc.constantFrom(...STRUCTS), weight: 1 });
const count = fc.constantFrom(...COUNTS);
const bool = fc.boolean();
const one = (k, arb) => arb.map((v) => [[k, v]]);
// Each keyword of `pairs` half the time (at least one): fewer contradictory combinations.
const some = (pairs) => fc.tuple(...pairs.map(([k, arb]) => fc.option(arb, { nil: undefined, freq: 2 })))
  .map((vs) => vs.flatMap((v, i) => (v === undefined ? [] : [[pairs[i][0], v]])))
  .filter((entries) => entries.length > 0);

/**
 * Keyword groups of one schema object: each arbitrary gives a list of [keyword, value] entries.
 * `sub` is the arbitrary of subschemas (one level shallower); `ref` that of `$ref` values.
 */
function groups(sub, ref) {
  const leaf = [
    { weight: 3, arbitrary: one('type', fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }))) },
    { weight: 2, arbitrary: one('enum', fc.array(enumMember, { minLength: 1, maxLength: 4 })) },
    // Over 16 scalars: a Set in the generated code.
    { weight: 1, arbitrary: one('enum', fc.array(fc.constantFrom(...SCALARS), { minLength: 17, maxLength: 20 })) },
    { weight: 2, arbitrary: one('const', enumMember) },
    { weight: 2, arbitrary: some([['minLength', count], ['maxLength', count], ['pattern', fc.constantFrom(...PATTERNS)]]) },
    {
      weight: 2,
      arbitrary: some([
        ['minimum', fc.constantFrom(...NUMBERS)], ['maximum', fc.constantFrom(...NUMBERS)],
        ['exclusiveMinimum', fc.constantFrom(...NUMBERS)], ['exclusiveMaximum', fc.constantFrom(...NUMBERS)],
        ['multipleOf', fc.constantFrom(...MULTIPLES)],
      ]),
    },
  ];
  if (ref !== undefined) leaf.push({ weight: 1, arbitrary: one('$ref', ref) });
  if (sub === undefined) return leaf;
  const schemas = (min, max) => fc.array(sub, { minLength: min, maxLength: max });
  const dict = (keys, value) => fc.array(fc.tuple(keys, value), { maxLength: 3 }).map(fromEntries);
  return [
    ...leaf,
    {
      weight: 5,
      arbitrary: fc.tuple(dict(name, sub), names(3), fc.option(fc.oneof(bool, sub), { nil: undefined }),
        fc.option(dict(fc.constantFrom(...PATTERNS), sub), { nil: undefined, freq: 3 }))
        .map(([properties, required, additional, patterns]) => [
          ['type', 'object'], ['properties', properties],
          ...(required.length > 0 ? [['required', required]] : []),
          ...(additional === undefined ? [] : [['additionalProperties', additional]]),
          ...(patterns === undefined ? [] : [['patternProperties', patterns]]),
        ]),
    },
    { weight: 1, arbitrary: one('required', names(3)) },
    { weight: 2, arbitrary: one('additionalProperties', fc.oneof(bool, sub)) },
    { weight: 2, arbitrary: one('patternProperties', dict(fc.constantFrom(...PATTERNS), sub)) },
    { weight: 1, arbitrary: one('propertyNames', sub) },
    { weight: 1, arbitrary: some([['minProperties', count], ['maxProperties', count]]) },
    { weight: 1, arbitrary: one('dependentRequired', dict(name, names(2))) },
    { weight: 1, arbitrary: one('dependentSchemas', dict(name, sub)) },
    {
      weight: 4,
      arbitrary: some([
        ['items', fc.oneof(bool, sub)], ['prefixItems', schemas(1, 3)], ['minItems', count],
        ['maxItems', count], ['uniqueItems', bool],
      ]),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(sub, fc.option(count, { nil: undefined }), fc.option(count, { nil: undefined }))
        .map(([contains, min, max]) => [
          ['contains', contains],
          ...(min === undefined ? [] : [['minContains', min]]),
          ...(max === undefined ? [] : [['maxContains', max]]),
        ]),
    },
    { weight: 2, arbitrary: one('allOf', schemas(1, 3)) },
    { weight: 3, arbitrary: one('anyOf', schemas(1, 3)) },
    { weight: 2, arbitrary: one('oneOf', schemas(1, 3)) },
    { weight: 1, arbitrary: one('not', sub) },
    { weight: 2, arbitrary: some([['if', sub], ['then', sub], ['else', sub]]) },
    { weight: 1, arbitrary: one('unevaluatedProperties', fc.oneof(bool, sub)) },
    { weight: 1, arbitrary: one('unevaluatedItems', fc.oneof(bool, sub)) },
  ];
}

/** Schemas up to `depth` levels of subschemas; `refs` are the `$ref` values that resolve. */
function schemaArb(depth, refs) {
  const ref = refs.length > 0 ? fc.constantFrom(...refs) : undefined;
  let sub;
  for (let d = 0; d <= depth; d++) {
    const object = fc.array(fc.oneof(...groups(sub, ref)), { minLength: 1, maxLength: d === 0 ? 2 : 3 })
      .map((gs) => fromEntries(gs.flat()));
    // Many leaves (only type, enum, const, string and number keywords): subschemas then overlap,
    // as oneOf and contains need.
    const leafOnly = fc.array(fc.oneof(...groups(undefined, undefined)), { minLength: 1, maxLength: 2 })
      .map((gs) => fromEntries(gs.flat()));
    sub = fc.oneof({ arbitrary: bool, weight: 1 }, { arbitrary: leafOnly, weight: 3 }, { arbitrary: object, weight: 5 });
  }
  return sub;
}

const DEPTH = 3;
const REFS = ['#', '#/$defs/d0'];
/** Recursive through the value: arrays and objects of the whole schema, or of a $defs entry. */
const recursiveDocumentArb = fc.tuple(schemaArb(2, REFS), schemaArb(2, REFS), fc.constantFrom(...REFS), bool)
  .map(([a, b, ref, unique]) => JSON.stringify({
    $defs: { d0: { anyOf: [b, { type: 'object', additionalProperties: { $ref: ref } }] } },
    anyOf: [a, { type: 'array', items: { $ref: ref }, uniqueItems: unique }],
  }));
/**
 * A whole schema document as JSON text (built with Object.fromEntries, so `__proto__` keys are own
 * properties, and parsed again with JSON.parse for each use); some have `$defs` and `$ref`s.
 */
const documentArb = fc.oneof(
  { weight: 3, arbitrary: schemaArb(DEPTH, ['#']) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      schemaArb(DEPTH - 1, ['#', '#/$defs/d0', '#/$defs/d1']),
      schemaArb(DEPTH - 1, ['#', '#/$defs/d0', '#/$defs/d1']),
      schemaArb(DEPTH - 1, ['#', '#/$defs/d0', '#/$defs/d1']),
      fc.constantFrom('#/$defs/d0', '#/$defs/d1', undefined),
    ).map(([root, d0, d1, entry]) => {
      const doc = typeof root === 'boolean' ? {} : root;
      doc.$defs = { d0, d1 };
      if (entry !== undefined) doc.$ref = entry;
      return doc;
    }),
  },
).map((s) => JSON.stringify(s));
const anyDocumentArb = fc.oneof({ weight: 6, arbitrary: documentArb }, { weight: 1, arbitrary: recursiveDocumentArb });

// ---------------------------------------------------------------------------------------------
// Values, biased toward each schema's names, enum/const values and bounds.

/** Property names, scalars and structured values that the schema text mentions. */
function vocabulary(schema) {
  const names = new Set(['a', 'x']);
  const scalars = new Set([0, 1, -1, 0.07, 0.3, 'a', 'ab', '', null, true]);
  const structs = [];
  const addNumber = (n) => { for (const m of [n, -n, n + 1, n - 1, n + 0.5, n * 3, n * 7, n * 2]) scalars.add(m); };
  for (const [key, node] of walk(schema)) {
    if (typeof node !== 'object' || node === null) continue;
    if (key === 'properties' || key === 'dependentRequired' || key === 'dependentSchemas') {
      for (const k of Object.keys(node)) names.add(k);
    }
    if ((key === 'required' || key === 'enum') && Array.isArray(node)) {
      for (const x of node) {
        if (typeof x === 'string') names.add(x);
        if (typeof x === 'object' && x !== null) structs.push(x);
        else scalars.add(x);
      }
    }
    if (!Array.isArray(node)) {
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']) {
        if (typeof node[k] === 'number') addNumber(node[k]);
      }
      for (const k of ['minLength', 'maxLength']) {
        if (typeof node[k] === 'number') for (const n of [node[k] - 1, node[k], node[k] + 1]) if (n >= 0) { scalars.add('a'.repeat(n)); scalars.add('😀'.repeat(n)); scalars.add(`${'😀'.repeat(n)}a`); }
      }
      if (hasOwn.call(node, 'const')) {
        if (typeof node.const === 'object' && node.const !== null) structs.push(node.const);
        else scalars.add(node.const);
      }
    }
    if (key === 'dependentRequired' && !Array.isArray(node)) {
      for (const list of Object.values(node)) if (Array.isArray(list)) for (const n of list) names.add(n);
    }
  }
  return { names: [...names], scalars: [...scalars], structs: structs.map((s) => JSON.stringify(s)) };
}

/** JSON values for `schema`, whose vocabulary is `v`: shaped by it, or built from its vocabulary. */
function valueArb(schema, v) {
  const any = jsonValueArb(v);
  return fc.oneof({ weight: 3, arbitrary: directedArb(schema, v, any) }, { weight: 2, arbitrary: any });
}

/** JSON values for a schema's vocabulary `v`. */
function jsonValueArb(v) {
  const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...v.names) }, { weight: 1, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) });
  const scalar = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...v.scalars) },
    { weight: 2, arbitrary: fc.constantFrom(...v.names) },
    { weight: 1, arbitrary: fc.constantFrom(...SCALARS) },
    { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -50, max: 50 }), fc.string({ maxLength: 4 })) },
  );
  const struct = v.structs.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...v.structs).map((s) => JSON.parse(s)) }] : [];
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth: 3, withCrossShrink: true },
      { weight: 5, arbitrary: scalar },
      ...struct,
      { weight: 4, arbitrary: tie('object') },
      { weight: 3, arbitrary: tie('array') },
    ),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map(fromEntries),
    array: fc.tuple(fc.array(tie('value'), { maxLength: 5 }), fc.nat(3)).map(([a, dup]) =>
      // Repeat an item now and then, for uniqueItems.
      (dup === 0 && a.length > 0 ? [...a, jsonCopy(a[0])] : a)),
  }));
  return value;
}

/**
 * Values shaped by the schema `root` (best effort, often valid): its const and enum members, its
 * properties with values for their subschemas, prefixItems, items and contains, a branch of its
 * anyOf/oneOf/allOf, its $ref targets; otherwise anything from `any`.
 */
function directedArb(root, v, any) {
  const strings = [...v.scalars, ...v.names].filter((x) => typeof x === 'string');
  const numbers = v.scalars.filter((x) => typeof x === 'number');
  const integers = numbers.filter(Number.isInteger);
  const pick = (list) => fc.constantFrom(...list.map((x) => JSON.stringify(x))).map((t) => JSON.parse(t));
  const resolve = (ref) => (ref === '#' ? root : ref.startsWith('#/$defs/') ? root.$defs?.[ref.slice(8)] : undefined);
  const objectWords = ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames',
    'minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties'];
  const arrayWords = ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems'];
  const typesOf = (s) => {
    if (typeof s.type === 'string') return [s.type];
    if (Array.isArray(s.type)) return s.type;
    const out = [];
    if (objectWords.some((k) => hasOwn.call(s, k))) out.push('object');
    if (arrayWords.some((k) => hasOwn.call(s, k))) out.push('array');
    if (['minLength', 'maxLength', 'pattern'].some((k) => hasOwn.call(s, k))) out.push('string');
    if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => hasOwn.call(s, k))) out.push('number');
    return out;
  };
  const isSchema = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
  const go = (s, depth) => {
    if (depth > 4 || !isSchema(s)) return any;
    const options = [];
    if (hasOwn.call(s, 'const')) options.push(pick([s.const]));
    if (Array.isArray(s.enum) && s.enum.length > 0) options.push(pick(s.enum));
    if (typeof s.$ref === 'string' && resolve(s.$ref) !== undefined) {
      // Lazily: a recursive $ref is only followed when drawn.
      options.push(fc.constant(s.$ref).chain((ref) => go(resolve(ref), depth + 1)));
    }
    for (const kw of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[kw])) for (const b of s[kw]) options.push(go(b, depth + 1));
    for (const kw of ['if', 'then', 'else']) if (isSchema(s[kw])) options.push(go(s[kw], depth + 1));
    for (const type of typesOf(s)) {
      if (type === 'object') options.push(objectOf(s, depth));
      else if (type === 'array') options.push(arrayOf(s, depth));
      else if (type === 'string' && strings.length > 0) options.push(pick(strings));
      else if (type === 'number' && numbers.length > 0) options.push(pick(numbers));
      else if (type === 'integer' && integers.length > 0) options.push(pick(integers));
      else if (type === 'boolean') options.push(fc.boolean());
      else if (type === 'null') options.push(fc.constant(null));
    }
    return options.length === 0 ? any : fc.oneof(...options);
  };
  const entry = (name, sub, depth, freq) => fc.option(go(sub, depth + 1).map((x) => [name, x]), { nil: undefined, freq });
  const objectOf = (s, depth) => {
    const parts = [];
    const props = isSchema(s.properties) ? s.properties : {};
    for (const k of Object.keys(props)) parts.push(entry(k, props[k], depth, 4));
    if (Array.isArray(s.required)) for (const k of s.required) if (!hasOwn.call(props, k)) parts.push(entry(k, true, depth, 6));
    if (isSchema(s.patternProperties)) {
      for (const [source, sub] of Object.entries(s.patternProperties)) {
        const re = new RegExp(source, 'u');
        const matching = v.names.filter((n) => re.test(n));
        if (matching.length > 0) parts.push(fc.option(fc.tuple(fc.constantFrom(...matching), go(sub, depth + 1)), { nil: undefined, freq: 2 }));
      }
    }
    const others = v.names.filter((n) => !hasOwn.call(props, n));
    if (others.length > 0) {
      const additional = isSchema(s.additionalProperties) ? s.additionalProperties : true;
      parts.push(fc.option(fc.tuple(fc.constantFrom(...others), go(additional, depth + 1)), { nil: undefined, freq: 2 }));
    }
    return fc.tuple(...parts).map((es) => fromEntries(es.filter((e) => e !== undefined)));
  };
  const arrayOf = (s, depth) => {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.map((x) => go(x, depth + 1)) : [];
    return fc.tuple(
      fc.tuple(...prefix),
      fc.nat(prefix.length),
      fc.array(go(s.items, depth + 1), { maxLength: 3 }),
      fc.array(go(s.contains, depth + 1), { maxLength: 3 }),
    ).map(([head, cut, rest, contained]) => [...head.slice(0, cut), ...(cut === prefix.length ? rest : []), ...contained]);
  };
  return go(root, 0);
}

class Thing {
  constructor(entries) {
    for (const [k, val] of entries) Object.defineProperty(this, k, { value: val, enumerable: true, writable: true, configurable: true });
  }
}

/** Values that are not plain JSON: other prototypes, and scalars JSON cannot hold. */
function otherValueArb(v) {
  const json = jsonValueArb(v);
  const entries = fc.array(fc.tuple(fc.constantFrom(...v.names), json), { maxLength: 4 });
  const own = (o, list) => {
    for (const [k, val] of list) Object.defineProperty(o, k, { value: val, enumerable: true, writable: true, configurable: true });
    return o;
  };
  const inheritedAll = () => fromEntries(v.names.map((n) => [n, 1]));
  const object = fc.oneof(
    entries.map((list) => own(Object.create(null), list)),
    entries.map((list) => own(Object.create({ a: 1 }), list)),
    entries.map((list) => own(Object.create(inheritedAll()), list)),
    entries.map((list) => new Thing(list)),
    entries.map((list) => own(fromEntries([]), [...list, ['u', undefined]])),
  );
  const weird = fc.constantFrom(undefined, NaN, Infinity, -Infinity, 10n, Symbol('s'), () => 1, new Date(0), /a/,
    [undefined], [1, undefined, 1], new Array(2), [1, , 1]);
  return fc.oneof(
    object,
    weird,
    // Inside a plain object or array, where the generated code reads them.
    fc.tuple(fc.constantFrom(...v.names), fc.oneof(object, weird)).map(([k, x]) => fromEntries([[k, x]])),
    fc.tuple(object, weird),
    fc.tuple(json, object),
  );
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

test(`generated and interpreted verdicts agree, and agree with ajv (${RUNS} random schemas)`, (t) => {
  const sourcesBefore = generated.sources.length;
  const stats = { schemas: 0, refused: 0, ajvRefused: 0, ajvThrew: 0, ajvExcluded: {}, pairs: 0, ajvPairs: 0, valid: 0, other: 0 };
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
      const a = fast.validate(value).valid;
      const b = slow.validate(value).valid;
      assert.equal(a, b, `backends differ: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
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
      const a = fast.validate(value).valid;
      const b = slow.validate(value).valid;
      assert.equal(a, b, `backends differ: generated ${a}, interpreted ${b}\nschema: ${text}\nvalue: ${describe(value)}`);
      stats.other++;
    }
    if (theirs !== undefined && typeof theirs.schema === 'object') ajv.removeSchema(theirs.schema);
  }), { numRuns: RUNS, seed: SEED, includeErrorInReport: true });
  t.diagnostic(JSON.stringify(stats));
  // The schemas reached every part of the generator (counted in the generated sources).
  const sources = generated.sources.slice(sourcesBefore);
  const features = {
    'recursive $ref': 'R.memoVerdict(', 'interpreter fallback': 'R.verdict(', 'property loop': 'for(const k',
    'own-property read': 'R.hasOwn.call(x,"', 'contains': 'let t', 'oneOf': 'let o', 'uniqueItems': 'R.uniqueOk(',
    'structured enum/const': 'R.valuesOk(', 'large enum': '.has(', 'multipleOf': 'R.isMultipleOf(',
    'code points': 'R.codePoints(', 'pattern': '.test(', 'prototype pollution check': 'P["',
    'prefixItems': 'if(n>0){', 'if/then/else': ')?', 'type switch': 'if(typeof x==="string"){',
  };
  const seen = Object.fromEntries(Object.entries(features).map(([k, needle]) => [k, sources.filter((src) => src.includes(needle)).length]));
  t.diagnostic(`generated sources using: ${JSON.stringify(seen)}`);
  for (const [k, n] of Object.entries(seen)) assert.ok(n >= 10, `only ${n} generated sources use ${k}`);
  // The comparison must have had something to compare.
  assert.ok(stats.schemas > RUNS / 2, `only ${stats.schemas} of ${RUNS} schemas compiled`);
  assert.ok(stats.pairs > RUNS * 3, `only ${stats.pairs} values compared`);
  assert.ok(stats.valid > stats.pairs / 10 && stats.valid < stats.pairs * 0.9, `${stats.valid} of ${stats.pairs} values valid`);
  assert.ok(stats.ajvPairs > stats.pairs / 5, `only ${stats.ajvPairs} values compared with ajv`);
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
  // The generated sources hold the text only inside JSON string literals: without them, nothing
  // of it is left.
  let sources = generated.sources.slice(sourcesBefore).join('\n');
  assert.ok(sources.includes(JSON.stringify('});process.exit(1);//')));
  for (const n of [...EVIL].sort((x, y) => y.length - x.length)) sources = sources.replaceAll(JSON.stringify(n), '""');
  assert.ok(!sources.includes('__pwned') && !sources.includes('process.exit'));
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
