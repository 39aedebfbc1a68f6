// Tests for src/schema/strict-toolset.ts: a whole tools/list checked under one profile, with
// the limits that hold across the list (Anthropic per-request totals, unique names for MCP).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findToolSetViolations } from '../../dist/schema/index.js';
import { STRICT_RULES } from '../../dist/schema/strict-rules.js';

const str = { type: 'string' };
const closed = (properties, required = Object.keys(properties)) => ({
  type: 'object', properties, required, additionalProperties: false,
});
const many = (n, f, prefix = 'p') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, f(i)]));
const tool = (name, inputSchema = closed({ q: str }), outputSchema) =>
  outputSchema === undefined ? { name, inputSchema } : { name, inputSchema, outputSchema };
const rowsOf = (tools, profile, rule) =>
  findToolSetViolations(tools, profile).filter((r) => r.rule === rule)
    .map((r) => `${r.tool} ${r.path}`);

/** One case per tool-set rule: `bad` passes the limit at `at`; `fixed` is the remedy applied. */
const CASES = [
  { rule: 'anthropic.strict-tools', profile: 'anthropic',
    bad: Array.from({ length: 21 }, (_, i) => tool(`t${i}`)), at: ['t20 strict'],
    fixed: Array.from({ length: 20 }, (_, i) => tool(`t${i}`)) },
  { rule: 'anthropic.tool-set-optional', profile: 'anthropic',
    bad: [0, 1, 2].map((i) => tool(`t${i}`, closed(many(10, () => str), []))), at: ['t2 required'],
    // The remedy: make more parameters required (here the third tool's).
    fixed: [0, 1, 2].map((i) =>
      tool(`t${i}`, closed(many(10, () => str), i === 2 ? undefined : []))) },
  { rule: 'anthropic.tool-set-union', profile: 'anthropic',
    bad: [0, 1].map((i) => tool(`t${i}`, closed(many(9, () => ({ type: ['string', 'null'] }))))),
    at: ['t1 anyOf'],
    fixed: [0, 1].map((i) => tool(`t${i}`,
      closed(many(9, (j) => (i === 1 && j > 5 ? str : { type: ['string', 'null'] }))))) },
  { rule: 'mcp.unique-names', profile: 'mcp', bad: [tool('get'), tool('put'), tool('get')],
    at: ['get name'], fixed: [tool('get'), tool('put'), tool('get_v2')] },
];

for (const c of CASES) {
  test(`${c.rule} flags the tool where the list passes the limit`, () => {
    assert.deepEqual(rowsOf(c.bad, c.profile, c.rule), c.at);
  });
  test(`${c.rule}: applying the remedy removes the violation`, () => {
    assert.deepEqual(rowsOf(c.fixed, c.profile, c.rule), []);
  });
}

test('every tool-set rule in STRICT_RULES has a case in this file', () => {
  const tested = new Set(CASES.map((c) => c.rule));
  const rules = STRICT_RULES.filter((r) => r.check.kind === 'tool-set').map((r) => r.id);
  assert.deepEqual(rules.filter((id) => !tested.has(id)), []);
});

test('a tool that alone passes a per-request total is reported once, by its schema rule', () => {
  const rows = findToolSetViolations([tool('big', closed(many(30, () => str), []))], 'anthropic');
  assert.deepEqual(rows.map((r) => r.rule), ['anthropic.optional-properties']);
});

test('each row names its tool, and outputSchema paths carry an outputSchema prefix', () => {
  const rows = findToolSetViolations([
    tool('list', { type: 'object', properties: { l: { type: 'array' } } }, { type: 'array' }),
    tool('a.b'),
  ], 'mcp');
  assert.deepEqual(rows.map((r) => [r.tool, r.path, r.severity]), [
    ['list', 'properties.l.items', 'error'],
    ['list', 'outputSchema.type', 'error'],
    ['list', 'outputSchema.items', 'error'],
    ['a.b', 'name', 'warning'],
  ]);
});

test('vendor profiles leave outputSchema alone: only the model sees input schemas', () => {
  const output = { type: 'array', $schema: 'x', items: str };
  const tools = [tool('n', closed({ q: str }), output)];
  for (const profile of ['openai', 'anthropic']) {
    assert.deepEqual(findToolSetViolations(tools, profile).map((r) => r.path), [], profile);
  }
  const gemini = [tool('n', { type: 'object', properties: { q: str } }, output)];
  assert.deepEqual(findToolSetViolations(gemini, 'gemini'), []);
  assert.deepEqual(findToolSetViolations(tools, 'mcp').map((r) => r.path),
    ['outputSchema.type', 'outputSchema.$schema']);
});

test('a clean tool list gives no rows under any profile', () => {
  const tools = [tool('search', closed({ q: str, limit: { type: ['integer', 'null'] } }),
    closed({ hits: { type: 'array', items: str } }))];
  for (const profile of ['openai', 'anthropic', 'mcp']) {
    assert.deepEqual(findToolSetViolations(tools, profile), [], profile);
  }
});

test('findToolSetViolations refuses a missing or unknown profile, listing the known ones', () => {
  const tools = [tool('edit', { type: 'object', properties: { a: { oneOf: [str] } } })];
  assert.ok(findToolSetViolations(tools, 'openai').length > 0);
  assert.throws(() => findToolSetViolations(tools), {
    name: 'TypeError',
    message: 'findToolSetViolations: no profile given (choose from openai, anthropic, gemini, mcp)',
  });
  assert.throws(() => findToolSetViolations(tools, 'Anthropic'), {
    name: 'TypeError',
    message: 'findToolSetViolations: unknown profile "Anthropic" (choose from openai, anthropic, gemini, mcp)',
  });
});
