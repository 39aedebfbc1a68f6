// Tests for src/schema/strict-subset.ts: every rule of STRICT_RULES has a schema that breaks it,
// one that keeps it, and the schema with the remedy applied; then cases 1-12 of
// shared/cases/schemas-and-arguments.md and assertStrictSchema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertStrictSchema, findStrictSchemaViolations, STRICT_PROFILES, StrictSchemaError,
} from '../../dist/schema/index.js';
import { STRICT_RULES } from '../../dist/schema/strict-rules.js';

/** An object schema that OpenAI's strict subset accepts: closed, every property required. */
const obj = (properties) => ({
  type: 'object', properties, required: Object.keys(properties), additionalProperties: false,
});
const str = { type: 'string' };
/** A plain object schema, as Gemini and MCP clients take it. */
const plain = (properties, extra = {}) => ({ type: 'object', properties, ...extra });
const nest = (levels) => (levels === 1 ? obj({ v: str }) : obj({ c: nest(levels - 1) }));
const many = (n, f) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, f(i)]));
const clone = (s) => structuredClone(s);
const profileOf = (rule) => rule.split('.')[0];

/**
 * One case per rule: `bad` breaks it at `path`; `fix` applies the remedy to a copy of `bad`;
 * `keeps` is another schema that uses the same area and keeps the rule. `remedy`, when given, is
 * the exact remedy text expected.
 */
const CASES = [
  // openai
  { rule: 'openai.root-object', bad: { type: 'array', items: str }, path: 'type',
    fix: () => obj({ list: { type: 'array', items: str } }), keeps: obj({}) },
  { rule: 'openai.root-anyOf', bad: { ...obj({ a: str }), anyOf: [obj({ a: str })] }, path: 'anyOf',
    fix: (s) => { delete s.anyOf; }, keeps: obj({ a: { anyOf: [str, { type: 'null' }] } }) },
  { rule: 'openai.oneOf', bad: obj({ insertLine: { oneOf: [str, { type: 'integer' }] } }),
    path: 'properties.insertLine.oneOf', remedy: 'use anyOf',
    fix: (s) => {
      const p = s.properties.insertLine;
      p.anyOf = p.oneOf;
      delete p.oneOf;
    },
    keeps: obj({ insertLine: { anyOf: [str, { type: 'integer' }] } }) },
  { rule: 'openai.allOf', bad: obj({ a: { allOf: [str, { type: 'string' }] } }),
    path: 'properties.a.allOf', fix: (s) => { s.properties.a = str; }, keeps: obj({ a: str }) },
  { rule: 'openai.not', bad: obj({ a: { type: 'string', not: { const: 'x' } } }),
    path: 'properties.a.not', fix: (s) => { delete s.properties.a.not; }, keeps: obj({ a: str }) },
  { rule: 'openai.conditional', bad: { ...obj({ a: str }), if: obj({ a: str }), then: obj({}) },
    path: 'if', fix: (s) => { delete s.if; delete s.then; }, keeps: obj({ a: str }) },
  { rule: 'openai.dependent', bad: { ...obj({ a: str }), dependentRequired: { a: ['a'] } },
    path: 'dependentRequired', fix: (s) => { delete s.dependentRequired; },
    keeps: obj({ a: str }) },
  { rule: 'openai.uniqueItems',
    bad: obj({ ids: { type: 'array', items: str, uniqueItems: true } }),
    path: 'properties.ids.uniqueItems', fix: (s) => { delete s.properties.ids.uniqueItems; },
    keeps: obj({ ids: { type: 'array', items: str, minItems: 1, maxItems: 50 } }) },
  { rule: 'openai.open-object-keywords',
    bad: obj({ m: { type: 'object', properties: {}, patternProperties: { '^x': str },
      additionalProperties: false } }),
    path: 'properties.m.patternProperties',
    fix: (s) => { s.properties.m = obj({ x1: str }); }, keeps: obj({ m: obj({ x1: str }) }) },
  { rule: 'openai.array-keywords', bad: obj({ l: { type: 'array', items: str, contains: str } }),
    path: 'properties.l.contains', fix: (s) => { delete s.properties.l.contains; },
    keeps: obj({ l: { type: 'array', items: str } }) },
  { rule: 'openai.default', bad: obj({ n: { type: 'integer', default: 10 } }),
    path: 'properties.n.default', severity: 'warning',
    fix: (s) => { delete s.properties.n.default; }, keeps: obj({ n: { type: 'integer' } }) },
  { rule: 'openai.closed-object', bad: obj({ o: { type: 'object', properties: { a: str },
    required: ['a'] } }),
    path: 'properties.o.additionalProperties', remedy: 'add "additionalProperties": false',
    fix: (s) => { s.properties.o.additionalProperties = false; },
    keeps: obj({ o: obj({ a: str }) }) },
  { rule: 'openai.all-required', bad: { ...obj({ x: str, y: str }), required: ['y'] },
    path: 'required', remedy: 'list "x" in required and make it nullable',
    fix: (s) => { s.required.push('x'); s.properties.x = { type: ['string', 'null'] }; },
    keeps: obj({ x: { type: ['string', 'null'] }, y: str }) },
  { rule: 'openai.object-properties', bad: { type: 'object', additionalProperties: false },
    path: 'properties', remedy: 'add "properties": {}', fix: (s) => { s.properties = {}; },
    keeps: obj({}) },
  { rule: 'openai.typed', bad: obj({ v: { description: 'any JSON value' } }),
    path: 'properties.v.type', fix: (s) => { s.properties.v.type = 'string'; },
    keeps: obj({ v: { enum: ['a', 'b'] }, w: { anyOf: [str, { type: 'null' }] } }) },
  { rule: 'openai.format', bad: obj({ u: { type: 'string', format: 'uri' } }),
    path: 'properties.u.format', fix: (s) => { delete s.properties.u.format; },
    keeps: obj({ d: { type: 'string', format: 'date-time' },
      e: { type: 'string', format: 'email' } }) },
  { rule: 'openai.nesting', bad: nest(11), path: `${'properties.c.'.repeat(10)}properties`,
    fix: (s) => { s.properties.c = nest(9); }, keeps: nest(10) },
  { rule: 'openai.total-properties', bad: obj(many(5001, () => str)), path: 'properties',
    fix: (s) => { delete s.properties.p5000; s.required.pop(); },
    keeps: obj(many(5000, () => str)) },
  { rule: 'openai.total-enum-values',
    bad: obj({ e: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } }),
    path: 'properties.e.enum', fix: (s) => { s.properties.e.enum.pop(); },
    keeps: obj({ e: { type: 'string', enum: Array.from({ length: 1000 }, (_, i) => `v${i}`) } }) },
  { rule: 'openai.enum-string-chars',
    bad: obj({ e: { type: 'string',
      enum: Array.from({ length: 251 }, (_, i) => `${i}`.padEnd(60, 'x')) } }),
    path: 'properties.e.enum', fix: (s) => { s.properties.e.enum.pop(); },
    keeps: obj({ e: { type: 'string', enum: Array.from({ length: 300 }, (_, i) => `v${i}`) } }) },
  { rule: 'openai.total-string-chars',
    bad: obj({ c: { type: 'string', const: 'x'.repeat(120001) } }),
    path: 'properties.c.const', fix: (s) => { s.properties.c.const = 'x'.repeat(100); },
    keeps: obj({ c: { type: 'string', const: 'x'.repeat(119990) } }) },

  // anthropic
  { rule: 'anthropic.root-object', bad: { anyOf: [obj({ a: str })] }, path: 'type',
    fix: () => obj({ a: str }), keeps: obj({}) },
  { rule: 'anthropic.root-combinator',
    bad: { ...obj({ a: str, b: str }), oneOf: [obj({ a: str })] }, path: 'oneOf',
    fix: (s) => { delete s.oneOf; }, keeps: obj({ a: { anyOf: [str, { type: 'null' }] } }) },
  { rule: 'anthropic.numeric-bounds', bad: obj({ n: { type: 'integer', minimum: 0 } }),
    path: 'properties.n.minimum',
    remedy: 'remove "minimum" and check the bound in the tool handler',
    fix: (s) => { delete s.properties.n.minimum; }, keeps: obj({ n: { type: 'integer' } }) },
  { rule: 'anthropic.string-length', bad: obj({ s: { type: 'string', maxLength: 9 } }),
    path: 'properties.s.maxLength', fix: (s) => { delete s.properties.s.maxLength; },
    keeps: obj({ s: { type: 'string', pattern: '^[a-z]+$' } }) },
  { rule: 'anthropic.min-items', bad: obj({ l: { type: 'array', items: str, minItems: 2 } }),
    path: 'properties.l.minItems', fix: (s) => { s.properties.l.minItems = 1; },
    keeps: obj({ l: { type: 'array', items: str, minItems: 0 } }) },
  { rule: 'anthropic.array-bounds', bad: obj({ l: { type: 'array', items: str, maxItems: 5 } }),
    path: 'properties.l.maxItems', fix: (s) => { delete s.properties.l.maxItems; },
    keeps: obj({ l: { type: 'array', items: str, minItems: 1 } }) },
  { rule: 'anthropic.closed-object',
    bad: obj({ o: { type: 'object', properties: { a: str }, additionalProperties: true } }),
    path: 'properties.o.additionalProperties', remedy: 'set "additionalProperties": false',
    fix: (s) => { s.properties.o.additionalProperties = false; },
    keeps: obj({ o: obj({ a: str }) }) },
  { rule: 'anthropic.recursive-ref',
    bad: { ...obj({ root: { $ref: '#/$defs/node' } }),
      $defs: { node: obj({ children: { type: 'array', items: { $ref: '#/$defs/node' } } }) } },
    path: '$defs.node.properties.children.items.$ref',
    fix: (s) => { s.$defs.node.properties.children.items = obj({ name: str }); },
    keeps: { ...obj({ a: { $ref: '#/$defs/leaf' }, b: { $ref: '#/$defs/leaf' } }),
      $defs: { leaf: obj({ name: str }) } } },
  { rule: 'anthropic.external-ref', bad: obj({ a: { $ref: 'https://example.com/a.json' } }),
    path: 'properties.a.$ref', remedy: 'inline the $ref', fix: (s) => { s.properties.a = str; },
    keeps: { ...obj({ a: { $ref: '#/$defs/a' } }), $defs: { a: str } } },
  { rule: 'anthropic.enum-values', bad: obj({ e: { enum: [{ k: 1 }, 'b'] } }),
    path: 'properties.e.enum', fix: (s) => { s.properties.e.enum = ['a', 'b']; },
    keeps: obj({ e: { enum: ['a', 2, true, null] } }) },
  { rule: 'anthropic.format', bad: obj({ r: { type: 'string', format: 'regex' } }),
    path: 'properties.r.format', fix: (s) => { delete s.properties.r.format; },
    keeps: obj({ u: { type: 'string', format: 'uri' } }) },
  { rule: 'anthropic.pattern', bad: obj({ p: { type: 'string', pattern: '^(?=a)\\w+(x)\\1$' } }),
    path: 'properties.p.pattern', fix: (s) => { s.properties.p.pattern = '^a\\w+xx$'; },
    keeps: obj({ p: { type: 'string', pattern: '^(?<word>\\w+)\\\\b[a-z]$' } }) },
  { rule: 'anthropic.optional-properties', bad: { ...obj(many(25, () => str)), required: [] },
    path: 'required', remedy: 'list "p24" in required: at most 24 optional parameters per request',
    fix: (s) => { s.required.push('p24'); }, keeps: { ...obj(many(24, () => str)), required: [] } },
  { rule: 'anthropic.union-properties', bad: obj(many(17, () => ({ type: ['string', 'null'] }))),
    path: 'properties.p16.type', fix: (s) => { s.properties.p16 = str; },
    keeps: obj(many(16, () => ({ anyOf: [str, { type: 'null' }] }))) },

  // gemini
  { rule: 'gemini.root-object', bad: { type: 'string' }, path: 'type',
    fix: () => plain({ value: str }), keeps: plain({ value: str }) },
  { rule: 'gemini.additionalProperties',
    bad: plain({ a: str }, { additionalProperties: false }),
    path: 'additionalProperties', fix: (s) => { delete s.additionalProperties; },
    keeps: plain({ a: str }, { required: ['a'] }) },
  { rule: 'gemini.ref', bad: plain({ a: { $ref: '#/properties/b' }, b: str }),
    path: 'properties.a.$ref', remedy: 'inline the $ref', fix: (s) => { s.properties.a = str; },
    keeps: plain({ a: str, b: str }) },
  { rule: 'gemini.defs', bad: plain({ a: str }, { $defs: { s: str } }),
    path: '$defs', fix: (s) => { delete s.$defs; }, keeps: plain({ a: str }) },
  { rule: 'gemini.const', bad: plain({ k: { type: 'string', const: 'x' } }),
    path: 'properties.k.const',
    fix: (s) => { s.properties.k = { type: 'string', enum: ['x'] }; },
    keeps: plain({ k: { type: 'string', enum: ['x'] } }) },
  { rule: 'gemini.oneOf', bad: plain({ v: { oneOf: [str, { type: 'integer' }] } }),
    path: 'properties.v.oneOf', remedy: 'use anyOf',
    fix: (s) => { s.properties.v = { anyOf: s.properties.v.oneOf }; },
    keeps: plain({ v: { anyOf: [str, { type: 'integer' }] } }) },
  { rule: 'gemini.unknown-field',
    bad: plain({ a: { type: 'string', examples: ['x'] } }),
    path: 'properties.a.examples', fix: (s) => { delete s.properties.a.examples; },
    keeps: plain({ a: { type: 'string', example: 'x', title: 'A' } },
      { propertyOrdering: ['a'] }) },
  { rule: 'gemini.type-array', bad: plain({ a: { type: ['string', 'null'] } }),
    path: 'properties.a.type', fix: (s) => { s.properties.a = { type: 'string', nullable: true }; },
    keeps: plain({ a: { type: 'string', nullable: true } }) },
  { rule: 'gemini.enum-string', bad: plain({ n: { type: 'integer', enum: [1, 2] } }),
    path: 'properties.n.enum',
    fix: (s) => { s.properties.n = { type: 'string', enum: ['1', '2'] }; },
    keeps: plain({ n: { type: 'string', format: 'enum', enum: ['1', '2'] } }) },
  { rule: 'gemini.format', bad: plain({ u: { type: 'string', format: 'uri' } }),
    path: 'properties.u.format', fix: (s) => { delete s.properties.u.format; },
    keeps: plain({ t: { type: 'string', format: 'date-time' },
      n: { type: 'integer', format: 'int64' } }) },
  { rule: 'gemini.empty-object', bad: plain({}), path: 'properties',
    severity: 'warning', fix: (s) => { s.properties.value = str; },
    keeps: plain({ o: { type: 'object', properties: { a: str } } }) },

  // mcp
  { rule: 'mcp.input-root-object', bad: { type: 'string' }, path: 'type',
    fix: () => plain({ value: str }), keeps: { type: 'object' } },
  { rule: 'mcp.output-root-object', bad: { type: 'array', items: str }, path: 'type',
    options: { role: 'output' },
    fix: () => plain({ items: { type: 'array', items: str } }),
    keeps: plain({ n: { type: 'integer' } }) },
  { rule: 'mcp.root-combinator', bad: plain({ a: str }, { allOf: [{ required: ['a'] }] }),
    path: 'allOf',
    fix: (s) => { delete s.allOf; }, keeps: plain({ a: { anyOf: [str] } }) },
  { rule: 'mcp.array-items', bad: plain({ tags: { type: 'array' } }),
    path: 'properties.tags.items', fix: (s) => { s.properties.tags.items = str; },
    keeps: plain({ any: { type: 'array', items: {} } }) },
  { rule: 'mcp.dangling-ref', bad: plain({ a: { $ref: '#/$defs/missing' } }),
    path: 'properties.a.$ref', fix: (s) => { s.$defs = { missing: str }; },
    keeps: plain({ a: { $ref: '#anchor' }, b: { $ref: '#/properties/c' },
      c: { $anchor: 'anchor', type: 'string' }, d: { $ref: '#/$defs/x~1y%25' } },
    { $defs: { 'x/y%': str } }) },
  { rule: 'mcp.remote-ref', bad: plain({ a: { $ref: 'other.json#/a' } }),
    path: 'properties.a.$ref', severity: 'warning', fix: (s) => { s.properties.a = str; },
    keeps: plain({ a: { $ref: '#' } }) },
  { rule: 'mcp.schema-dialect',
    bad: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, path: '$schema',
    fix: (s) => { delete s.$schema; },
    keeps: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } },
  { rule: 'mcp.dependencies',
    bad: plain({ a: str, b: str }, { dependencies: { a: ['b'] } }),
    path: 'dependencies',
    fix: (s) => { s.dependentRequired = s.dependencies; delete s.dependencies; },
    keeps: plain({ a: str, b: str }, { dependentRequired: { a: ['b'] } }) },
  { rule: 'mcp.tuple-items',
    bad: plain({ t: { type: 'array', items: [str, { type: 'integer' }] } }),
    path: 'properties.t.items',
    fix: (s) => {
      s.properties.t.prefixItems = s.properties.t.items;
      s.properties.t.items = false;
    },
    keeps: plain({ t: { type: 'array', prefixItems: [str], items: false } }) },
  { rule: 'mcp.additionalItems',
    bad: plain({ t: { type: 'array', items: str, additionalItems: false } }),
    path: 'properties.t.additionalItems', fix: (s) => { delete s.properties.t.additionalItems; },
    keeps: plain({ t: { type: 'array', prefixItems: [str], items: false } }) },
  { rule: 'mcp.definitions',
    bad: plain({ a: { $ref: '#/definitions/a' } }, { definitions: { a: str } }),
    path: 'definitions', severity: 'warning',
    fix: (s) => {
      s.$defs = s.definitions;
      delete s.definitions;
      s.properties.a.$ref = '#/$defs/a';
    },
    keeps: plain({ a: { $ref: '#/$defs/a' } }, { $defs: { a: str } }) },
  { rule: 'mcp.tool-name-chars', bad: { type: 'object' }, options: { toolName: 'a/b' },
    path: 'name', remedy: 'rename the tool to "a_b" (only A-Z a-z 0-9 _ - .)',
    fix: () => undefined, fixOptions: { toolName: 'a_b' },
    keepsOptions: { toolName: 'DATA_EXPORT-v2' } },
  { rule: 'mcp.tool-name-length', bad: { type: 'object' }, options: { toolName: 'x'.repeat(65) },
    path: 'name', fix: () => undefined, fixOptions: { toolName: 'x'.repeat(64) },
    keepsOptions: { toolName: 'getUser' } },
  { rule: 'mcp.tool-name-dot', bad: { type: 'object' }, options: { toolName: 'restart.node_v1' },
    path: 'name', severity: 'warning',
    remedy: 'rename the tool to "restart_node_v1" ' +
      '(several clients take only ^[A-Za-z0-9_-]{1,64}$)',
    fix: () => undefined, fixOptions: { toolName: 'restart_node_v1' },
    keepsOptions: { toolName: 'restart-node_v1' } },
];

const find = (schema, rule, options) =>
  findStrictSchemaViolations(schema, profileOf(rule), options).filter((v) => v.rule === rule);

for (const c of CASES) {
  test(`${c.rule} flags a schema that breaks it at ${c.path}`, () => {
    const found = find(c.bad, c.rule, c.options);
    const hit = found.find((v) => v.path === c.path);
    assert.ok(hit, `expected ${c.rule} at ${c.path}, got ${JSON.stringify(found)}`);
    assert.equal(hit.profile, profileOf(c.rule));
    assert.equal(hit.keyword, c.path.split('.').at(-1));
    assert.equal(hit.severity, c.severity ?? 'error');
    assert.ok(hit.remedy.length > 0 && !/\{(keyword|value|name|verb|limit)\}/.test(hit.remedy));
    if (c.remedy !== undefined) assert.equal(hit.remedy, c.remedy);
  });

  test(`${c.rule} passes a schema that keeps it`, () => {
    const keeps = c.keeps ?? c.bad;
    assert.deepEqual(find(keeps, c.rule, c.keepsOptions ?? {}), []);
  });

  test(`${c.rule}: applying the remedy removes the violation`, () => {
    const copy = clone(c.bad);
    const fixed = c.fix(copy) ?? copy;
    const left = find(fixed, c.rule, c.fixOptions ?? c.options).filter((v) => v.path === c.path);
    assert.deepEqual(left, []);
  });
}

test('every schema rule in STRICT_RULES has a case in this file', () => {
  const tested = new Set(CASES.map((c) => c.rule));
  const missing = STRICT_RULES.filter((r) => r.check.kind !== 'tool-set' && !tested.has(r.id));
  assert.deepEqual(missing.map((r) => r.id), []);
});

test('STRICT_PROFILES lists the four profiles in report order', () => {
  assert.deepEqual([...STRICT_PROFILES], ['openai', 'anthropic', 'gemini', 'mcp']);
});

test('a schema that keeps every rule of its profile gets no violation at all', () => {
  const clean = obj({ q: str, n: { type: ['integer', 'null'] },
    when: { type: 'string', format: 'date' },
    tags: { type: 'array', items: str }, pick: { anyOf: [obj({ a: str }), { type: 'null' }] } });
  assert.deepEqual(findStrictSchemaViolations(clean, 'openai'), []);
  assert.deepEqual(findStrictSchemaViolations(clean, 'anthropic'), []);
  assert.deepEqual(findStrictSchemaViolations(clean, 'mcp', { toolName: 'search_v2' }), []);
  const gemini = { type: 'object', properties: { q: str, n: { type: 'integer', nullable: true },
    tags: { type: 'array', items: str, minItems: 1 } }, required: ['q'] };
  assert.deepEqual(findStrictSchemaViolations(gemini, 'gemini'), []);
});

test('a boolean schema is reported as a root that is not an object', () => {
  for (const profile of STRICT_PROFILES) {
    const found = findStrictSchemaViolations(true, profile);
    assert.deepEqual(found.map((v) => v.path), ['type'], profile);
  }
});

test('the input and output root rules of the mcp profile follow the role option', () => {
  const rules = (role) => findStrictSchemaViolations({ type: 'string' }, 'mcp', { role })
    .map((v) => v.rule);
  assert.deepEqual(rules('input'), ['mcp.input-root-object']);
  assert.deepEqual(rules('output'), ['mcp.output-root-object']);
  assert.deepEqual(rules(undefined), ['mcp.input-root-object']);
});

test('the nesting limit is reported once, at the first object past ten levels', () => {
  const found = find(nest(14), 'openai.nesting');
  assert.equal(found.length, 1);
  assert.equal(found[0].path, `${'properties.c.'.repeat(10)}properties`);
  assert.equal(found[0].remedy, 'flatten the schema to at most 10 levels of nested objects');
});

test('a recursive $ref back to the root is flagged for anthropic and resolves for mcp', () => {
  const schema = obj({ name: str, child: { anyOf: [{ $ref: '#' }, { type: 'null' }] } });
  assert.deepEqual(find(schema, 'anthropic.recursive-ref').map((v) => v.path),
    ['properties.child.anyOf.0.$ref']);
  assert.deepEqual(findStrictSchemaViolations(schema, 'mcp'), []);
});

test('mutually recursive definitions are both flagged', () => {
  const schema = { ...obj({ a: { $ref: '#/$defs/a' } }),
    $defs: { a: obj({ b: { $ref: '#/$defs/b' } }), b: obj({ a: { $ref: '#/$defs/a' } }) } };
  assert.deepEqual(find(schema, 'anthropic.recursive-ref').map((v) => v.path).sort(),
    ['$defs.a.properties.b.$ref', '$defs.b.properties.a.$ref']);
});

test('keywords are not confused with property names of the same spelling', () => {
  const schema = obj({ default: str, oneOf: str, minimum: { type: 'integer' }, $ref: str });
  for (const profile of ['openai', 'anthropic']) {
    assert.deepEqual(findStrictSchemaViolations(schema, profile), [], profile);
  }
});

test('values of enum, const, default and examples are not walked as schemas', () => {
  const schema = obj({ e: { type: 'string', enum: ['oneOf'] },
    c: { type: 'object', properties: {}, additionalProperties: false, required: [],
      const: { oneOf: [], type: 'array' } } });
  assert.deepEqual(findStrictSchemaViolations(schema, 'openai'), []);
});

// Cases 1-12 of shared/cases/schemas-and-arguments.md (6 is a server behaviour, not a schema).
const paths = (schema, profile, options) =>
  findStrictSchemaViolations(schema, profile, options).map((v) => `${v.path} ${v.remedy}`);

test('case 1: the draft-07 $schema that SDK v1 adds is flagged by the mcp profile', () => {
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object',
    properties: { q: str } };
  assert.deepEqual(paths(schema, 'mcp'),
    ['$schema remove "$schema" (MCP defaults to JSON Schema 2020-12)']);
});

test('case 2: the https form of the draft-07 $schema is flagged too', () => {
  const schema = { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' };
  assert.deepEqual(find(schema, 'mcp.schema-dialect').map((v) => v.path), ['$schema']);
});

test('case 3: a root anyOf of required lists is flagged by mcp, openai and anthropic', () => {
  const schema = { type: 'object', properties: { a: str, b: str },
    anyOf: [{ required: ['a'] }, { required: ['b'] }] };
  for (const profile of ['mcp', 'openai', 'anthropic']) {
    const hit = findStrictSchemaViolations(schema, profile).find((v) => v.path === 'anyOf');
    assert.ok(hit, profile);
    assert.equal(hit.severity, 'error');
  }
});

test('case 4: a bare oneOf without type object is refused for any MCP client', () => {
  const schema = { oneOf: [obj({ a: str }), obj({ b: str })] };
  assert.deepEqual(findStrictSchemaViolations(schema, 'mcp').map((v) => v.path), ['type', 'oneOf']);
  assert.throws(() => assertStrictSchema('pick', schema, 'mcp'), StrictSchemaError);
});

test('case 5: an outputSchema without type object is an error for role output', () => {
  const [v] = findStrictSchemaViolations({ type: 'array', items: str }, 'mcp', { role: 'output' });
  assert.equal(v.rule, 'mcp.output-root-object');
  assert.equal(v.severity, 'error');
});

test('case 7: $defs and $ref are flagged by gemini with the remedy to inline', () => {
  const schema = { type: 'object', properties: { step: { $ref: '#/$defs/step' } },
    $defs: { step: { type: 'object', properties: { text: str } } } };
  assert.deepEqual(paths(schema, 'gemini'), [
    '$defs inline each definition where it is used and remove "$defs"',
    'properties.step.$ref inline the $ref',
  ]);
});

test('case 8: a dotted tool name is a warning and a slash is an error', () => {
  const dot = findStrictSchemaViolations({ type: 'object' }, 'mcp',
    { toolName: 'restart.node_v1' });
  assert.deepEqual(dot.map((v) => [v.severity, v.path]), [['warning', 'name']]);
  assert.match(dot[0].remedy, /\^\[A-Za-z0-9_-\]\{1,64\}\$/);
  assert.doesNotThrow(() => assertStrictSchema('restart.node_v1', { type: 'object' }, 'mcp'));
  const slash = findStrictSchemaViolations({ type: 'object' }, 'mcp', { toolName: 'a/b' });
  assert.deepEqual(slash.map((v) => [v.severity, v.path]), [['error', 'name']]);
  assert.throws(() => assertStrictSchema('a/b', { type: 'object' }, 'mcp'), /name: rename/);
});

test('case 9: an array without items is flagged by the mcp profile', () => {
  assert.deepEqual(paths({ type: 'object', properties: { l: { type: 'array' } } }, 'mcp'),
    ['properties.l.items add "items" (for example "items": {"type": "string"})']);
});

test('case 10: an object without properties gets the openai remedy add "properties": {}', () => {
  const found = find({ type: 'object', additionalProperties: false }, 'openai.object-properties');
  assert.deepEqual(found.map((v) => `${v.path} ${v.remedy}`), ['properties add "properties": {}']);
});

test('case 11: format uri is flagged by openai and gemini but not anthropic', () => {
  const schema = obj({ link: { type: 'string', format: 'uri' } });
  for (const profile of ['openai', 'gemini']) {
    const hits = findStrictSchemaViolations(schema, profile).filter((v) => v.keyword === 'format');
    assert.deepEqual(hits.map((v) => v.path), ['properties.link.format'], profile);
  }
  assert.deepEqual(findStrictSchemaViolations(schema, 'anthropic'), []);
});

test('case 12: an open nested object is flagged at its exact path by openai and anthropic', () => {
  const open = obj({ outer: obj({ inner: { type: 'object', properties: { a: str }, required: ['a'],
    additionalProperties: true } }) });
  const missing = obj({ outer: obj({ inner: { type: 'object', properties: { a: str },
    required: ['a'] } }) });
  for (const profile of ['openai', 'anthropic']) {
    assert.deepEqual(paths(open, profile),
      ['properties.outer.properties.inner.additionalProperties set "additionalProperties": false']);
    assert.deepEqual(paths(missing, profile),
      ['properties.outer.properties.inner.additionalProperties add "additionalProperties": false']);
  }
});

test('assertStrictSchema throws every error with its path and leaves warnings out', () => {
  const schema = obj({ a: { oneOf: [str] }, b: { type: 'integer', default: 1 },
    c: { type: 'string', format: 'uri' } });
  let error;
  try {
    assertStrictSchema('edit', schema, 'openai');
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof StrictSchemaError);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'StrictSchemaError');
  assert.equal(error.toolName, 'edit');
  assert.equal(error.profile, 'openai');
  assert.deepEqual(error.violations.map((v) => v.path),
    ['properties.a.oneOf', 'properties.c.format']);
  assert.match(error.message, /^tool "edit" breaks the openai strict profile:\n/);
  assert.match(error.message, /properties\.a\.oneOf: use anyOf/);
  assert.doesNotMatch(error.message, /default/);
});

test('assertStrictSchema returns quietly for a schema with warnings only', () => {
  assert.equal(assertStrictSchema('n', obj({ n: { type: 'integer', default: 1 } }), 'openai'),
    undefined);
});

const KNOWN = '(choose from openai, anthropic, gemini, mcp)';
/** Issue 22's schema: 3 openai violations (oneOf under a property, an open object, an optional property). */
const threeOpenai = { type: 'object', properties: { line: { oneOf: [str, { type: 'integer' }] } } };

test('the schema of issue 22 has openai violations, so an empty list would be a false clean bill', () => {
  assert.equal(findStrictSchemaViolations(threeOpenai, 'openai').length, 3);
});

test('findStrictSchemaViolations refuses a missing or unknown profile, listing the known ones', () => {
  for (const [profile, message] of [
    [undefined, `findStrictSchemaViolations: no profile given ${KNOWN}`],
    ['OpenAI', `findStrictSchemaViolations: unknown profile "OpenAI" ${KNOWN}`],
    ['properties', `findStrictSchemaViolations: unknown profile "properties" ${KNOWN}`],
    ['opneai', `findStrictSchemaViolations: unknown profile "opneai" ${KNOWN}`],
    [{ toolName: 'edit' }, `findStrictSchemaViolations: unknown profile {"toolName":"edit"} ${KNOWN}`],
  ]) {
    assert.throws(() => findStrictSchemaViolations(threeOpenai, profile), { name: 'TypeError', message });
  }
});

test('findStrictSchemaViolations refuses an unknown role instead of skipping the root rule', () => {
  assert.throws(() => findStrictSchemaViolations({ type: 'array' }, 'mcp', { role: 'Output' }), {
    name: 'TypeError',
    message: 'findStrictSchemaViolations: options.role: unknown role "Output" (choose from input, output)',
  });
  const rules = findStrictSchemaViolations({ type: 'array' }, 'mcp', { role: 'output' }).map((v) => v.rule);
  assert.deepEqual(rules, ['mcp.output-root-object', 'mcp.array-items']);
});

test('assertStrictSchema without a profile, or with an unknown one, throws instead of passing', () => {
  assert.throws(() => assertStrictSchema('edit', threeOpenai), {
    name: 'TypeError', message: `assertStrictSchema: no profile given ${KNOWN}`,
  });
  assert.throws(() => assertStrictSchema('edit', threeOpenai, 'open-ai'), {
    name: 'TypeError', message: `assertStrictSchema: unknown profile "open-ai" ${KNOWN}`,
  });
});
