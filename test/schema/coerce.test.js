// Tests src/schema/coerce.ts (and coerce-rules.ts, coerce-schema.ts, coerce-format.ts through it).
// The table covers every rule and every must-not-coerce shape from issue 5 and from the field
// cases in ../shared/cases (schemas-and-arguments 13–20, protocol 31, 36, 37, 39).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { coerceArguments, formatCoercions } from '../../dist/schema/index.js';
import { compileSchema } from '../../dist/schema/validate.js';

/** An object schema whose properties are `props`; `required` lists required names. */
const obj = (props, required) => ({
  type: 'object',
  properties: props,
  ...(required ? { required } : {}),
});
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const str = { type: 'string' };
const strings = { type: 'array', items: str };
const ints = { type: 'array', items: int };
/** One expected coercion: [path, from, to, rule]. */
const c = (path, from, to, rule) => ({ path, from, to, rule });
const LEFT = 'left for validation';

/** A row whose arguments come back as `value` with exactly `coercions`. */
const coerced = (name, schema, args, value, coercions, options) => ({
  name,
  schema,
  args,
  value,
  coercions,
  options,
});
/** A row left for validation: the same reference comes back, with no coercion. */
const left = (name, schema, args, options) => ({ name, schema, args, options, left: true });

/** The table: `(schema, args) -> (value, coercions)` or left for validation. */
const CASES = [
  // string -> number (cases 13)
  coerced(
    'two number parameters sent as strings become numbers (case 13)',
    obj({ a: num, b: num }),
    { a: '5', b: '7' },
    { a: 5, b: 7 },
    [c('/a', '5', 5, 'string-to-number'), c('/b', '7', 7, 'string-to-number')],
  ),
  coerced(
    'a negative decimal with an exponent becomes a number',
    obj({ x: num }),
    { x: '-2.5e3' },
    { x: -2500 },
    [c('/x', '-2.5e3', -2500, 'string-to-number')],
  ),
  coerced('a fraction below one becomes a number', obj({ x: num }), { x: '0.5' }, { x: 0.5 }, [
    c('/x', '0.5', 0.5, 'string-to-number'),
  ]),
  left('a number with a unit is left for validation', obj({ x: num }), { x: '12px' }),
  left('an empty string for a number is left for validation', obj({ x: num }), { x: '' }),
  left('a number with leading whitespace is left', obj({ x: num }), { x: ' 5' }),
  left('a number with trailing whitespace is left', obj({ x: num }), { x: '5 ' }),
  left('a literal that overflows to Infinity is left', obj({ x: num }), { x: '1e400' }),
  left('a hexadecimal literal is left', obj({ x: num }), { x: '0x10' }),
  left('a number with a thousands separator is left', obj({ x: num }), { x: '1,000' }),
  left('a number with a plus sign is left', obj({ x: num }), { x: '+5' }),
  left('a number with leading zeros is left', obj({ x: num }), { x: '00713' }),
  left('a fraction without a leading digit is left', obj({ x: num }), { x: '.5' }),
  left('a fraction without trailing digits is left', obj({ x: num }), { x: '5.' }),
  left('NaN spelled out is left', obj({ x: num }), { x: 'NaN' }),
  left('Infinity spelled out is left', obj({ x: num }), { x: 'Infinity' }),
  left('digits with underscores are left', obj({ x: num }), { x: '1_000' }),
  left('a boolean for a number is left (no boolean-to-number rule)', obj({ x: num }), { x: true }),
  // string -> integer (case 14, 39)
  coerced(
    'an integer parameter sent as a string becomes an integer (case 14)',
    obj({ ms: int }),
    { ms: '2000' },
    { ms: 2000 },
    [c('/ms', '2000', 2000, 'string-to-integer')],
  ),
  coerced(
    'an integral decimal literal becomes an integer',
    obj({ n: int }),
    { n: '5.0' },
    { n: 5 },
    [c('/n', '5.0', 5, 'string-to-integer')],
  ),
  coerced(
    'an integral exponent literal becomes an integer',
    obj({ n: int }),
    { n: '1e3' },
    { n: 1000 },
    [c('/n', '1e3', 1000, 'string-to-integer')],
  ),
  coerced(
    'a negative integer literal becomes an integer',
    obj({ n: int }),
    { n: '-42' },
    { n: -42 },
    [c('/n', '-42', -42, 'string-to-integer')],
  ),
  coerced('negative zero becomes the integer 0', obj({ n: int }), { n: '-0' }, { n: 0 }, [
    c('/n', '-0', 0, 'string-to-integer'),
  ]),
  coerced(
    'the largest safe integer becomes an integer',
    obj({ n: int }),
    { n: '9007199254740991' },
    { n: 9007199254740991 },
    [c('/n', '9007199254740991', 9007199254740991, 'string-to-integer')],
  ),
  left('an integer beyond the safe range is left, not rounded (case 39)', obj({ id: int }), {
    id: '9007199254740993',
  }),
  left('2^53 is left (not a safe integer)', obj({ id: int }), { id: '9007199254740992' }),
  left('a fraction for an integer is left', obj({ n: int }), { n: '2.5' }),
  left('a fraction that Number() would round to 1 is left for an integer', obj({ n: int }), {
    n: '0.99999999999999999999',
  }),
  left('a tiny non-zero literal that underflows is left for an integer', obj({ n: int }), {
    n: '1e-400',
  }),
  left('a dimension for an integer is left (case 14)', obj({ ms: int }), { ms: '12px' }),
  left('an empty string for an integer is left (case 14)', obj({ ms: int }), { ms: '' }),
  left('a padded integer is left (case 14)', obj({ ms: int }), { ms: ' 5' }),
  left('an overflowing exponent for an integer is left (case 14)', obj({ ms: int }), {
    ms: '1e400',
  }),
  left('a hexadecimal integer is left (case 14)', obj({ ms: int }), { ms: '0x10' }),
  left('a grouped integer is left (case 14)', obj({ ms: int }), { ms: '1,000' }),
  left(
    'a number type narrowed to integer by allOf refuses a fraction',
    { ...obj({ n: num }), allOf: [obj({ n: int })] },
    { n: '2.5' },
  ),
  // string -> boolean (case 15)
  coerced(
    '"true" becomes true (case 15)',
    obj({ verbose: bool }),
    { verbose: 'true' },
    { verbose: true },
    [c('/verbose', 'true', true, 'string-to-boolean')],
  ),
  coerced(
    '"False" becomes false (case 15)',
    obj({ verbose: bool }),
    { verbose: 'False' },
    { verbose: false },
    [c('/verbose', 'False', false, 'string-to-boolean')],
  ),
  coerced('"TRUE" becomes true', obj({ verbose: bool }), { verbose: 'TRUE' }, { verbose: true }, [
    c('/verbose', 'TRUE', true, 'string-to-boolean'),
  ]),
  left('"yes" is left (case 15)', obj({ verbose: bool }), { verbose: 'yes' }),
  left('"1" is left (case 15)', obj({ verbose: bool }), { verbose: '1' }),
  left('"0" is left', obj({ verbose: bool }), { verbose: '0' }),
  left('" true" with a space is left', obj({ verbose: bool }), { verbose: ' true' }),
  left('the number 1 is left for a boolean', obj({ verbose: bool }), { verbose: 1 }),
  // arrays (case 16)
  coerced(
    'a lone string for an array of strings becomes a one-element array (case 16)',
    obj({ tags: strings }),
    { tags: 'urgent' },
    { tags: ['urgent'] },
    [c('/tags', 'urgent', ['urgent'], 'value-to-array')],
  ),
  coerced(
    'a string holding a JSON array becomes that array (case 16)',
    obj({ tags: strings }),
    { tags: '["a","b"]' },
    { tags: ['a', 'b'] },
    [c('/tags', '["a","b"]', ['a', 'b'], 'json-string-to-array')],
  ),
  coerced(
    'a JSON array with surrounding whitespace is parsed',
    obj({ ns: ints }),
    { ns: ' [1, 2] ' },
    { ns: [1, 2] },
    [c('/ns', ' [1, 2] ', [1, 2], 'json-string-to-array')],
  ),
  coerced(
    'elements of a parsed JSON array are coerced by items',
    obj({ ns: ints }),
    { ns: '["1","2"]' },
    { ns: [1, 2] },
    [
      c('/ns', '["1","2"]', ['1', '2'], 'json-string-to-array'),
      c('/ns/0', '1', 1, 'string-to-integer'),
      c('/ns/1', '2', 2, 'string-to-integer'),
    ],
  ),
  coerced(
    'a lone numeric string for an array of integers is wrapped then coerced',
    obj({ ns: ints }),
    { ns: '5' },
    { ns: [5] },
    [c('/ns', '5', ['5'], 'value-to-array'), c('/ns/0', '5', 5, 'string-to-integer')],
  ),
  coerced(
    'a lone number for an array of integers is wrapped',
    obj({ ns: ints }),
    { ns: 5 },
    { ns: [5] },
    [c('/ns', 5, [5], 'value-to-array')],
  ),
  coerced(
    'a lone object for an array of objects is wrapped',
    obj({ rows: { type: 'array', items: obj({ a: int }) } }),
    { rows: { a: 1 } },
    { rows: [{ a: 1 }] },
    [c('/rows', { a: 1 }, [{ a: 1 }], 'value-to-array')],
  ),
  coerced(
    'a string that is not valid JSON is wrapped as a lone value',
    obj({ tags: strings }),
    { tags: '[draft' },
    { tags: ['[draft'] },
    [c('/tags', '[draft', ['[draft'], 'value-to-array')],
  ),
  coerced(
    'a lone string for an array of arrays is wrapped twice',
    obj({ m: { type: 'array', items: ints } }),
    { m: '1' },
    { m: [[1]] },
    [
      c('/m', '1', ['1'], 'value-to-array'),
      c('/m/0', '1', ['1'], 'value-to-array'),
      c('/m/0/0', '1', 1, 'string-to-integer'),
    ],
  ),
  left(
    'null for a required array is left (null is never wrapped)',
    obj({ tags: strings }, ['tags']),
    { tags: null },
  ),
  left(
    'a JSON array longer than maxStringLength is left (neither parsed nor wrapped)',
    obj({ tags: strings }),
    { tags: '["a","b"]' },
    { maxStringLength: 5 },
  ),
  coerced(
    'prefixItems coerce each position',
    obj({ t: { type: 'array', prefixItems: [int, bool], items: str } }),
    { t: ['1', 'true', 'x'] },
    { t: [1, true, 'x'] },
    [c('/t/0', '1', 1, 'string-to-integer'), c('/t/1', 'true', true, 'string-to-boolean')],
  ),
  coerced(
    'items applies after prefixItems',
    obj({ t: { type: 'array', prefixItems: [str], items: int } }),
    { t: ['1', '2'] },
    { t: ['1', 2] },
    [c('/t/1', '2', 2, 'string-to-integer')],
  ),
  coerced(
    'the older array form of items with additionalItems is followed',
    obj({ t: { type: 'array', items: [bool], additionalItems: num } }),
    { t: ['false', '1.5'] },
    { t: [false, 1.5] },
    [c('/t/0', 'false', false, 'string-to-boolean'), c('/t/1', '1.5', 1.5, 'string-to-number')],
  ),
  left('an array is never unwrapped for a scalar', obj({ n: int }), { n: ['5'] }),
  // objects (case 17, protocol 31)
  coerced(
    'a string holding a JSON object becomes that object (case 17)',
    obj({ filter: { type: 'object' } }),
    { filter: '{"k":1}' },
    { filter: { k: 1 } },
    [c('/filter', '{"k":1}', { k: 1 }, 'json-string-to-object')],
  ),
  left('a malformed JSON object is left (case 17)', obj({ filter: { type: 'object' } }), {
    filter: '{bad',
  }),
  left('a JSON array for an object is left', obj({ filter: { type: 'object' } }), {
    filter: '[1]',
  }),
  left('the string "null" for an object is left', obj({ filter: { type: 'object' } }), {
    filter: 'null',
  }),
  coerced(
    'properties of a parsed JSON object are coerced',
    obj({ f: obj({ n: int }) }),
    { f: '{"n":"5"}' },
    { f: { n: 5 } },
    [
      c('/f', '{"n":"5"}', { n: '5' }, 'json-string-to-object'),
      c('/f/n', '5', 5, 'string-to-integer'),
    ],
  ),
  coerced(
    'arguments sent as a JSON string are decoded at the root (protocol case 31)',
    obj({ a: int }),
    '{"a":1}',
    { a: 1 },
    [c('', '{"a":1}', { a: 1 }, 'json-string-to-object')],
  ),
  left('arguments sent as a non-JSON string are left (protocol case 31)', obj({ a: int }), 'a=1'),
  // null for optional properties (case 19)
  coerced(
    'null for an optional non-nullable integer removes the key (case 19)',
    obj({ limit: int, q: str }),
    { q: 'x', limit: null },
    { q: 'x' },
    [c('/limit', null, undefined, 'null-removed')],
  ),
  left(
    'null stays where the type allows null (case 19)',
    obj({ limit: { type: ['integer', 'null'] } }),
    { limit: null },
  ),
  left('null for a required non-nullable property is left', obj({ limit: int }, ['limit']), {
    limit: null,
  }),
  left(
    'null stays where an anyOf branch allows it',
    obj({ limit: { anyOf: [int, { type: 'null' }] } }),
    { limit: null },
  ),
  left('null stays where an enum lists it', obj({ limit: { enum: [null, 1] }, n: int }), {
    limit: null,
    n: 'x',
  }),
  left('null stays for a property with an empty schema', obj({ any: {}, n: int }), {
    any: null,
    n: 'x',
  }),
  left('null stays for a key no schema describes', obj({ n: int }), { other: null, n: 'x' }),
  coerced(
    'null for a key under additionalProperties that refuses null is removed',
    { type: 'object', additionalProperties: str },
    { a: 'x', b: null },
    { a: 'x' },
    [c('/b', null, undefined, 'null-removed')],
  ),
  left(
    'null for a key forbidden by additionalProperties false is left',
    { type: 'object', properties: { a: str }, additionalProperties: false },
    { a: 'x', b: null },
  ),
  left('null inside an array is left', obj({ ns: ints }), { ns: [1, null] }),
  coerced(
    'null for a $ref to a non-nullable definition is removed',
    { ...obj({ d: { $ref: '#/$defs/day' } }), $defs: { day: { type: 'string', format: 'date' } } },
    { d: null },
    {},
    [c('/d', null, undefined, 'null-removed')],
  ),
  // strings stay strings (cases 18, 20)
  left('a numeric string for a string parameter stays a string (case 18)', obj({ sheet: str }), {
    sheet: '1',
  }),
  left('a postcode with a leading zero stays a string (case 18)', obj({ zip: str }), {
    zip: '00713',
  }),
  left(
    'JSON in a string for a ["string","null"] parameter stays a string (case 20)',
    obj({ note: { type: ['string', 'null'] } }),
    { note: '{"a":1}' },
  ),
  left(
    'a numeric string stays where the type is ["string","integer"]',
    obj({ v: { type: ['string', 'integer'] } }),
    { v: '5' },
  ),
  left(
    'a string failing maxLength is not coerced to anything',
    obj({ v: { type: ['string', 'array'], maxLength: 1 } }),
    { v: '55' },
  ),
  left('a number for a string parameter is left without coerceToString', obj({ s: str }), { s: 5 }),
  left('a boolean for a string parameter is left without coerceToString', obj({ s: str }), {
    s: true,
  }),
  coerced(
    'with coerceToString a number becomes its JSON text',
    obj({ s: str }),
    { s: 1.5 },
    { s: '1.5' },
    [c('/s', 1.5, '1.5', 'to-string')],
    { coerceToString: true },
  ),
  coerced(
    'with coerceToString a boolean becomes its JSON text',
    obj({ s: str }),
    { s: false },
    { s: 'false' },
    [c('/s', false, 'false', 'to-string')],
    { coerceToString: true },
  ),
  left(
    'with coerceToString an object is still left',
    obj({ s: str }),
    { s: { a: 1 } },
    { coerceToString: true },
  ),
  // combinators
  coerced(
    'anyOf: the one branch that accepts the coerced value is used',
    obj({ v: { anyOf: [int, bool] } }),
    { v: 'true' },
    { v: true },
    [c('/v', 'true', true, 'string-to-boolean')],
  ),
  left(
    'anyOf: two branches accepting the coerced value leave it alone',
    obj({ v: { anyOf: [int, { type: 'number', minimum: 0 }] } }),
    { v: '5' },
  ),
  left(
    'anyOf: a string is not coerced when a branch declares string',
    obj({ v: { anyOf: [{ type: 'string', maxLength: 2 }, int] } }),
    { v: '12345' },
  ),
  left(
    'anyOf: a value already matching a branch is left',
    obj({ v: { anyOf: [int, { type: 'array', items: int }] } }),
    { v: 5 },
  ),
  coerced(
    'oneOf with null: "5" becomes 5',
    obj({ v: { oneOf: [int, { type: 'null' }] } }),
    { v: '5' },
    { v: 5 },
    [c('/v', '5', 5, 'string-to-integer')],
  ),
  coerced(
    'oneOf of objects: the matching branch coerces its properties',
    obj({
      op: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'a' }, n: int }, required: ['kind', 'n'] },
          { type: 'object', properties: { kind: { const: 'b' }, s: str }, required: ['kind', 's'] },
        ],
      },
    }),
    { op: { kind: 'a', n: '3' } },
    { op: { kind: 'a', n: 3 } },
    [c('/op/n', '3', 3, 'string-to-integer')],
  ),
  left(
    'anyOf: no branch accepting any coercion leaves the value',
    obj({ v: { anyOf: [int, bool] } }),
    { v: 'maybe' },
  ),
  coerced(
    'allOf: properties from every member are coerced',
    { type: 'object', allOf: [obj({ a: int }), obj({ b: bool })] },
    { a: '1', b: 'false' },
    { a: 1, b: false },
    [c('/a', '1', 1, 'string-to-integer'), c('/b', 'false', false, 'string-to-boolean')],
  ),
  coerced(
    'a root $ref into $defs is followed',
    { $ref: '#/$defs/args', $defs: { args: obj({ n: int }) } },
    { n: '1' },
    { n: 1 },
    [c('/n', '1', 1, 'string-to-integer')],
  ),
  coerced(
    'a $ref to a JSON Pointer elsewhere in the document is followed',
    obj({ a: int, b: { $ref: '#/properties/a' } }),
    { b: '2' },
    { b: 2 },
    [c('/b', '2', 2, 'string-to-integer')],
  ),
  coerced(
    'a $ref with an escaped and percent-encoded pointer is followed',
    { ...obj({ x: { $ref: '#/$defs/a~1b%25' } }), $defs: { 'a/b%': bool } },
    { x: 'true' },
    { x: true },
    [c('/x', 'true', true, 'string-to-boolean')],
  ),
  coerced(
    'a $ref to an $anchor is followed',
    { ...obj({ x: { $ref: '#count' } }), $defs: { c: { $anchor: 'count', type: 'integer' } } },
    { x: '3' },
    { x: 3 },
    [c('/x', '3', 3, 'string-to-integer')],
  ),
  coerced(
    'a recursive $ref to the root coerces every level',
    { type: 'object', properties: { n: int, children: { type: 'array', items: { $ref: '#' } } } },
    { n: '1', children: [{ n: '2', children: [] }] },
    { n: 1, children: [{ n: 2, children: [] }] },
    [c('/n', '1', 1, 'string-to-integer'), c('/children/0/n', '2', 2, 'string-to-integer')],
  ),
  coerced(
    'a draft-07 root (as SDK v1 emits) with definitions is followed',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...obj({ n: { $ref: '#/definitions/n' }, o: int }),
      definitions: { n: num },
    },
    { n: '2', o: null },
    { n: 2 },
    [c('/n', '2', 2, 'string-to-number'), c('/o', null, undefined, 'null-removed')],
  ),
  left('an unresolvable $ref coerces nothing under it', obj({ a: { $ref: '#/$defs/missing' } }), {
    a: '1',
  }),
  coerced(
    'patternProperties coerce matching keys only',
    { type: 'object', patternProperties: { '^n_': int } },
    { n_a: '1', s: '1' },
    { n_a: 1, s: '1' },
    [c('/n_a', '1', 1, 'string-to-integer')],
  ),
  coerced(
    'additionalProperties coerce the keys properties do not name',
    { type: 'object', properties: { a: str }, additionalProperties: bool },
    { a: 'true', x: 'true' },
    { a: 'true', x: true },
    [c('/x', 'true', true, 'string-to-boolean')],
  ),
  left(
    'a schema with only enum declares no type, so nothing is coerced',
    obj({ v: { enum: [1, 2] } }),
    { v: '1' },
  ),
  left('a boolean schema true coerces nothing', obj({ v: true, n: int }), { v: '1', n: 'x' }),
  coerced(
    'nested properties are coerced at any depth',
    obj({ a: obj({ b: obj({ c: num }) }) }),
    { a: { b: { c: '1.25' } } },
    { a: { b: { c: 1.25 } } },
    [c('/a/b/c', '1.25', 1.25, 'string-to-number')],
  ),
  left(
    'values deeper than maxDepth are left',
    obj({ a: obj({ b: int }) }),
    { a: { b: '1' } },
    { maxDepth: 1 },
  ),
  // keys that are plain data (protocol cases 36, 37)
  left(
    'a constructor string parameter works as plain data (protocol case 37)',
    obj({ constructor: str }),
    { constructor: 'x' },
  ),
  coerced(
    'a constructor integer parameter is coerced as plain data',
    obj({ constructor: int }),
    { constructor: '5' },
    { constructor: 5 },
    [c('/constructor', '5', 5, 'string-to-integer')],
  ),
  coerced(
    'a key that no schema names is not confused with Object.prototype members',
    obj({ n: int }),
    { toString: '1', n: '2' },
    { toString: '1', n: 2 },
    [c('/n', '2', 2, 'string-to-integer')],
  ),
  coerced(
    'keys with / and ~ appear escaped in the path',
    obj({ 'a/b~c': int }),
    { 'a/b~c': '1' },
    { 'a/b~c': 1 },
    [c('/a~1b~0c', '1', 1, 'string-to-integer')],
  ),
];

function deepFreeze(value) {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

test('the table holds at least 60 cases, both coerced and left for validation', () => {
  assert.ok(CASES.length >= 60, `${CASES.length} cases`);
  assert.ok(CASES.filter((row) => row.left).length >= 20);
  assert.ok(CASES.filter((row) => !row.left).length >= 20);
  const rules = new Set(CASES.flatMap((row) => (row.coercions ?? []).map((x) => x.rule)));
  for (const rule of [
    'string-to-number',
    'string-to-integer',
    'string-to-boolean',
    'json-string-to-array',
    'value-to-array',
    'json-string-to-object',
    'null-removed',
    'to-string',
  ]) {
    assert.ok(rules.has(rule), `no case for ${rule}`);
  }
});

for (const row of CASES) {
  test(`${row.name}${row.left ? ` (${LEFT})` : ''}`, () => {
    const args = deepFreeze(structuredClone(row.args));
    const schema = deepFreeze(structuredClone(row.schema));
    const before = JSON.stringify(args);
    const result = coerceArguments(schema, args, row.options);
    assert.equal(JSON.stringify(args), before, 'input mutated');
    if (row.left) {
      assert.deepEqual(result.coercions, []);
      assert.equal(result.value, args, 'unchanged input must come back as the same reference');
    } else {
      assert.deepEqual(result.value, row.value);
      assert.deepEqual(result.coercions, row.coercions);
    }
  });
}

test('unchanged subtrees of a coerced value are shared, not copied', () => {
  const args = deepFreeze({ keep: { deep: [1, 2] }, list: ['a'], n: '1' });
  const schema = obj({ keep: obj({ deep: ints }), list: strings, n: int });
  const { value } = coerceArguments(schema, args);
  assert.notEqual(value, args);
  assert.equal(value.keep, args.keep);
  assert.equal(value.list, args.list);
  assert.deepEqual(Object.keys(value), ['keep', 'list', 'n']);
});

test('an array is copied only when one of its elements changes', () => {
  const args = deepFreeze({ ns: [1, '2', 3] });
  const { value } = coerceArguments(obj({ ns: ints }), args);
  assert.deepEqual(value, { ns: [1, 2, 3] });
  assert.notEqual(value.ns, args.ns);
  assert.deepEqual(args.ns, [1, '2', 3]);
});

test('a null-prototype arguments object is coerced into a plain object', () => {
  const args = Object.assign(Object.create(null), { n: '4' });
  const { value } = coerceArguments(obj({ n: int }), args);
  assert.deepEqual({ ...value }, { n: 4 });
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
});

test('a __proto__ key stays plain data and pollutes nothing (protocol case 36)', () => {
  const args = deepFreeze(JSON.parse('{"a":"1","__proto__":{"polluted":"yes"}}'));
  const { value, coercions } = coerceArguments(obj({ a: int }), args);
  assert.deepEqual(coercions, [c('/a', '1', 1, 'string-to-integer')]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.ok(Object.hasOwn(value, '__proto__'));
  assert.equal(value.polluted, undefined);
  assert.equal({}.polluted, undefined);
  assert.equal(JSON.stringify(value), '{"a":1,"__proto__":{"polluted":"yes"}}');
});

test('a __proto__ parameter declared in the schema is coerced as an own property', () => {
  const schema = deepFreeze(
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}}}'),
  );
  const args = deepFreeze(JSON.parse('{"__proto__":"5"}'));
  const { value, coercions } = coerceArguments(schema, args);
  assert.deepEqual(coercions, [c('/__proto__', '5', 5, 'string-to-integer')]);
  assert.equal(Object.getOwnPropertyDescriptor(value, '__proto__').value, 5);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(JSON.stringify(value), '{"__proto__":5}');
});

test('arguments nested 10,000 levels deep are handled without exhausting the stack', () => {
  const schema = { type: 'object', properties: { n: int, a: { $ref: '#' } } };
  let args = { n: '1' };
  for (let i = 0; i < 10_000; i++) args = { n: '1', a: args };
  const { coercions } = coerceArguments(schema, args);
  assert.ok(coercions.length > 0);
  const deepest = Math.max(...coercions.map((x) => x.path.split('/').length - 1));
  assert.ok(deepest <= 64, `coerced down to depth ${deepest}`);
  const shallow = coerceArguments(schema, args, { maxDepth: 3 });
  assert.deepEqual(
    shallow.coercions.map((x) => x.path),
    ['/n', '/a/n', '/a/a/n'],
  );
});

test('a JSON string nested 100,000 levels deep neither throws nor is parsed into the value', () => {
  const text = '['.repeat(100_000) + ']'.repeat(100_000);
  const { value } = coerceArguments(obj({ v: { type: 'object' } }), { v: text });
  assert.equal(value.v, text);
});

test('a flood of coercible values stops at 10,000 coercions, the rest left', () => {
  const args = deepFreeze({ ns: Array.from({ length: 20_000 }, () => '1') });
  const { value, coercions } = coerceArguments(obj({ ns: ints }), args);
  assert.ok(
    coercions.length > 5_000 && coercions.length <= 10_000,
    `${coercions.length} coercions`,
  );
  assert.equal(value.ns[0], 1);
  assert.equal(value.ns[19_999], '1');
  assert.equal(args.ns[0], '1');
});

test('a $ref cycle that never reaches a value terminates', () => {
  const schema = {
    ...obj({ x: { $ref: '#/$defs/a' } }),
    $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
  };
  const { value } = coerceArguments(schema, { x: '1' });
  assert.equal(value.x, '1');
});

test('an anyOf whose branch refers back to itself terminates', () => {
  const schema = {
    ...obj({ x: { $ref: '#/$defs/a' } }),
    $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }, int] } },
  };
  const { value } = coerceArguments(schema, { x: '1' });
  assert.ok(value.x === 1 || value.x === '1');
});

test('recursive anyOf branches are explored once per value, so every level is coerced', () => {
  const node = {
    anyOf: [
      {
        type: 'object',
        properties: { kind: { const: 'a' }, x: int, c: { $ref: '#/$defs/node' } },
        required: ['kind'],
      },
      {
        type: 'object',
        properties: { kind: { const: 'b' }, y: int, c: { $ref: '#/$defs/node' } },
        required: ['kind'],
      },
    ],
  };
  const schema = { ...obj({ root: { $ref: '#/$defs/node' } }), $defs: { node } };
  const depth = 14;
  let tree = { kind: 'a', x: '0' };
  for (let i = 1; i < depth; i++)
    tree = { kind: i % 2 ? 'b' : 'a', [i % 2 ? 'y' : 'x']: String(i), c: tree };
  const { coercions } = coerceArguments(schema, { root: tree });
  assert.equal(coercions.length, depth);
  assert.ok(coercions.every((x) => x.rule === 'string-to-integer'));
});

test('formatCoercions writes one line in the documented shape', () => {
  const line = formatCoercions([
    c('/limit', '5', 5, 'string-to-integer'),
    c('/tags', 'urgent', ['urgent'], 'value-to-array'),
  ]);
  assert.equal(
    line,
    'coerced /limit "5" -> 5 (string-to-integer); /tags "urgent" -> ["urgent"] (value-to-array)',
  );
});

test('formatCoercions shows the root, removed keys, and nothing for no coercions', () => {
  assert.equal(formatCoercions([]), '');
  assert.equal(
    formatCoercions([c('', '{"a":1}', { a: 1 }, 'json-string-to-object')]),
    'coerced (root) "{\\"a\\":1}" -> {"a":1} (json-string-to-object)',
  );
  assert.equal(
    formatCoercions([c('/limit', null, undefined, 'null-removed')]),
    'coerced /limit null -> (removed) (null-removed)',
  );
});

test('formatCoercions cuts long values, counts the rest and never breaks the line', () => {
  const long = formatCoercions([c('/a', 'x'.repeat(500), ['x'.repeat(500)], 'value-to-array')]);
  assert.ok(long.length < 200, long);
  assert.match(long, /…/);
  const many = formatCoercions(
    Array.from({ length: 25 }, (_, i) => c(`/n${i}`, '1', 1, 'string-to-integer')),
  );
  assert.match(many, /; and 5 more$/);
  assert.equal(many.split(';').length, 21);
  const odd = formatCoercions([c('/a\nb\u2028', 'x\ny', ['x\ny'], 'value-to-array')]);
  assert.doesNotMatch(odd, /[\n\r\u2028\u2029]/);
  assert.match(odd, /\/a\\u000ab\\u2028/);
});

test('the result of the issue example is reported through formatCoercions', () => {
  const schema = obj({ limit: int, tags: strings });
  const { coercions } = coerceArguments(schema, { limit: '5', tags: 'urgent' });
  assert.equal(
    formatCoercions(coercions),
    'coerced /limit "5" -> 5 (string-to-integer); /tags "urgent" -> ["urgent"] (value-to-array)',
  );
});

// Properties checked on generated input (fast-check, a bounded number of runs).
const RICH = deepFreeze({
  type: 'object',
  properties: {
    i: int,
    n: num,
    b: bool,
    s: str,
    sn: { type: ['string', 'null'] },
    tags: strings,
    o: obj({ k: int }),
    any: { anyOf: [int, bool] },
    one: { oneOf: [int, { type: 'null' }] },
    t: { type: 'array', prefixItems: [int, bool] },
    ref: { $ref: '#/$defs/d' },
  },
  required: ['s'],
  additionalProperties: { type: ['integer', 'string'] },
  $defs: { d: obj({ z: num }) },
});
const richValidator = compileSchema(RICH);
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const richArgs = fc.record(
  {
    i: fc.oneof(fc.integer().map(String), fc.string(), jsonValue),
    n: fc.oneof(fc.double().map(String), jsonValue),
    b: fc.oneof(fc.constantFrom('true', 'FALSE', 'yes', '1'), jsonValue),
    s: fc.oneof(fc.string(), jsonValue),
    sn: jsonValue,
    tags: jsonValue,
    o: fc.oneof(fc.json(), jsonValue),
    any: fc.oneof(fc.string(), jsonValue),
    one: jsonValue,
    t: jsonValue,
    ref: jsonValue,
    extra: jsonValue,
  },
  { requiredKeys: [] },
);
const get = (value, path) =>
  path
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((v, k) => v[k], value);

test('generated arguments: never throws, never mutates, valid input kept as is', () => {
  fc.assert(
    fc.property(richArgs, (raw) => {
      const args = deepFreeze(raw);
      const before = JSON.stringify(args);
      const { value, coercions } = coerceArguments(RICH, args);
      assert.equal(JSON.stringify(args), before);
      if (richValidator.validate(args).valid) {
        assert.equal(value, args);
        assert.equal(coercions.length, 0);
      }
      for (const { path, to, rule } of coercions) {
        if (rule.startsWith('string-to-') || rule === 'to-string')
          assert.equal(get(value, path), to);
        if (rule === 'null-removed') assert.equal(get(value, path), undefined);
      }
      for (const key of ['s', 'sn'])
        if (typeof args[key] === 'string') assert.equal(value[key], args[key]);
    }),
    { numRuns: 300 },
  );
});

test('every safe integer and every finite double survive a round trip through their text', () => {
  const schema = obj({ i: int, d: num });
  fc.assert(
    fc.property(
      fc.maxSafeInteger(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      (i, d) => {
        const { value } = coerceArguments(schema, { i: String(i), d: JSON.stringify(d) });
        assert.equal(value.i, i);
        assert.ok(Object.is(value.d, d) || (d === 0 && value.d === 0));
      },
    ),
    { numRuns: 300 },
  );
});

test('a string that is not exactly a JSON number literal is never turned into a number', () => {
  const literal = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
  const schema = obj({ n: num });
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[-+ 0-9.eEx,]{1,8}$/)), (text) => {
      const { value } = coerceArguments(schema, { n: text });
      if (!literal.test(text)) assert.equal(value.n, text);
    }),
    { numRuns: 500 },
  );
});
