// Random JSON Schema documents and values for the property tests of the validator
// (codegen.test.js, errors.test.js): schemas over the whole 2020-12 vocabulary the plans know,
// with adversarial property names and enum strings, some recursive through $ref; values shaped by
// each schema (its names, enum values and bounds), plus objects that are not plain and values
// JSON cannot hold.
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// Helpers.

export const hasOwn = Object.prototype.hasOwnProperty;
/** Names a plain object inherits from Object.prototype. */
export const inheritedName = (n) => n in Object.prototype;

/** An object with exactly these own properties (`__proto__` included, as JSON.parse makes it). */
export const fromEntries = (entries) => Object.fromEntries(entries);

/** A deep copy through JSON text (keeps own `__proto__` keys own). */
export const jsonCopy = (v) => JSON.parse(JSON.stringify(v));

/** Readable description of any value (-0, undefined, NaN, prototypes) for failure messages. */
export function describe(v, depth = 0) {
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
export function* walk(node, key = null) {
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
export const NAMES = [...PLAIN_NAMES, ...ODD_NAMES];
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
export function schemaArb(depth, refs) {
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

export const DEPTH = 3;
export const REFS = ['#', '#/$defs/d0'];
/** Recursive through the value: arrays and objects of the whole schema, or of a $defs entry. */
export const recursiveDocumentArb = fc.tuple(schemaArb(2, REFS), schemaArb(2, REFS), fc.constantFrom(...REFS), bool)
  .map(([a, b, ref, unique]) => JSON.stringify({
    $defs: { d0: { anyOf: [b, { type: 'object', additionalProperties: { $ref: ref } }] } },
    anyOf: [a, { type: 'array', items: { $ref: ref }, uniqueItems: unique }],
  }));
/**
 * A whole schema document as JSON text (built with Object.fromEntries, so `__proto__` keys are own
 * properties, and parsed again with JSON.parse for each use); some have `$defs` and `$ref`s.
 */
export const documentArb = fc.oneof(
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
export const anyDocumentArb = fc.oneof({ weight: 6, arbitrary: documentArb }, { weight: 1, arbitrary: recursiveDocumentArb });

// ---------------------------------------------------------------------------------------------
// Values, biased toward each schema's names, enum/const values and bounds.

/** Property names, scalars and structured values that the schema text mentions. */
export function vocabulary(schema) {
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
export function valueArb(schema, v) {
  const any = jsonValueArb(v);
  return fc.oneof({ weight: 3, arbitrary: directedArb(schema, v, any) }, { weight: 2, arbitrary: any });
}

/** JSON values for a schema's vocabulary `v`. */
export function jsonValueArb(v) {
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
export function directedArb(root, v, any) {
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
export function otherValueArb(v) {
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
