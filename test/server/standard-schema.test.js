// Schemas from zod 4, valibot (through @valibot/to-json-schema) and arktype 2 as inputSchema and
// outputSchema: served as their JSON Schema 2020-12, validated and coerced by baremcp's validator,
// then by the library's own validate (refinements and transforms apply).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { createServer, ToolDefinitionError } from '../../dist/index.js';
import { modernMeta } from './drive.js';

const info = { name: 's', version: '1' };
const list = async (server) => (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } })).result.tools;
const call = async (server, name, args) =>
  (await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args, _meta: modernMeta() } })).result;
const tool = (name, inputSchema, run, extra = {}) => ({ name, description: 'd', inputSchema, run, ...extra });

test('a zod object is served as its JSON Schema 2020-12, without the converter\'s $schema', async () => {
  const server = createServer({ info, tools: [tool('weather', z.object({ city: z.string().min(1), days: z.number().int().optional() }), () => 'ok')] });
  const [served] = await list(server);
  assert.deepEqual(served.inputSchema, {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
    required: ['city'],
  });
});

test('zod: the served schema is enforced (what passed silently before), then refinements and transforms run', async () => {
  const seen = [];
  const schema = z.object({
    city: z.string().min(1).refine((c) => c !== 'Atlantis', 'no such city'),
    days: z.number().int().optional(),
    tags: z.string().transform((s) => s.split(',')),
  });
  const server = createServer({ info, report: () => {}, tools: [tool('weather', schema, (args) => { seen.push(args); return 'ok'; })] });
  const empty = await call(server, 'weather', { city: '', tags: 'a' });
  assert.equal(empty.isError, true);
  assert.equal(empty.content[0].text, 'Invalid arguments for tool "weather":\n- /city: expected a string of at least 1 characters, got 0');
  const refined = await call(server, 'weather', { city: 'Atlantis', tags: 'a' });
  assert.equal(refined.content[0].text, 'Invalid arguments for tool "weather":\n- /city: no such city');
  const ok = await call(server, 'weather', { city: 'Oslo', days: '3', tags: 'a,b', extra: 1 });
  assert.notEqual(ok.isError, true);
  // "3" coerced by baremcp, tags transformed by zod, the unknown key stripped by zod.
  assert.deepEqual(seen, [{ city: 'Oslo', days: 3, tags: ['a', 'b'] }]);
});

test('zod: an asynchronous refinement is awaited', async () => {
  const schema = z.object({ user: z.string().refine(async (u) => u === 'ada', 'unknown user') });
  const server = createServer({ info, tools: [tool('whois', schema, ({ user }) => `hello ${user}`)] });
  assert.equal((await call(server, 'whois', { user: 'ada' })).content[0].text, 'hello ada');
  assert.equal((await call(server, 'whois', { user: 'bob' })).content[0].text, 'Invalid arguments for tool "whois":\n- /user: unknown user');
});

test('valibot through toStandardJsonSchema: served, enforced by baremcp, then by valibot', async () => {
  const schema = toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), n: v.optional(v.number()) }));
  let seen;
  const server = createServer({ info, tools: [tool('place', schema, (args) => { seen = args; return args.city; })] });
  const [served] = await list(server);
  assert.deepEqual(served.inputSchema, { type: 'object', properties: { city: { type: 'string', minLength: 1 }, n: { type: 'number' } }, required: ['city'] });
  assert.equal((await call(server, 'place', { city: 'Oslo', n: '2', extra: true })).content[0].text, 'Oslo');
  // "2" coerced by baremcp; the unknown key dropped by valibot's object.
  assert.deepEqual(seen, { city: 'Oslo', n: 2 });
  assert.equal((await call(server, 'place', { city: '' })).content[0].text, 'Invalid arguments for tool "place":\n- /city: expected a string of at least 1 characters, got 0');
  // A custom check has no JSON Schema: valibot refuses to convert it, and the message says what to do.
  const checked = toStandardJsonSchema(v.object({ code: v.pipe(v.string(), v.check((c) => c === c.toUpperCase())) }));
  assert.throws(() => createServer({ info, tools: [tool('t', checked, () => '')] }), {
    message: 'tool "t": inputSchema: valibot could not convert it to JSON Schema (The "check" action cannot be converted to JSON Schema.): do what has no JSON Schema (a transform, a custom check) in run instead, or give a JSON Schema literal',
  });
});

test('arktype: served, enforced, then arktype\'s own checks and morphs', async () => {
  const schema = type({ city: 'string > 0', 'n?': 'number.integer', when: type('string').pipe((s) => s.length) });
  let seen;
  const server = createServer({ info, tools: [tool('ark', schema, (args) => { seen = args; return 'ok'; })] });
  const [served] = await list(server);
  assert.equal(served.inputSchema.type, 'object');
  assert.equal('$schema' in served.inputSchema, false);
  assert.equal((await call(server, 'ark', { city: 'Oslo', n: 2, when: 'abc' })).content[0].text, 'ok');
  assert.deepEqual(seen, { city: 'Oslo', n: 2, when: 3 });
  assert.equal((await call(server, 'ark', { city: 'Oslo', n: 1.5, when: 'x' })).content[0].text, 'Invalid arguments for tool "ark":\n- /n: expected integer, got number 1.5');
});

test('a zod outputSchema is served as its output JSON Schema; structuredContent goes through zod, then the served schema', async () => {
  const output = z.object({ highs: z.array(z.number()), unit: z.string().default('C') });
  const server = createServer({
    info,
    report: () => {},
    tools: [
      tool('good', z.object({}), () => ({ content: [], structuredContent: { highs: [20] } }), { outputSchema: output }),
      tool('bad', z.object({}), () => ({ content: [], structuredContent: { highs: ['warm'] } }), { outputSchema: output }),
    ],
  });
  const [served] = await list(server);
  assert.deepEqual(served.outputSchema.required, ['highs', 'unit']);
  const good = await call(server, 'good', {});
  assert.deepEqual(good.structuredContent, { highs: [20], unit: 'C' });
  const bad = await call(server, 'bad', {});
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /^Tool "bad" produced an invalid result \(a server bug, not your call\): \/highs\/0: Invalid input: expected number, received string$/);
});

test('a library schema without ~standard.jsonSchema is refused with how to get one', () => {
  const cases = [
    [v.object({ city: v.string() }), 'tool "t": inputSchema: it is a valibot schema without "~standard.jsonSchema", which baremcp needs to serve it as JSON Schema: wrap the schema with toStandardJsonSchema(schema) from @valibot/to-json-schema'],
    [{ '~standard': { version: 1, vendor: 'zod', validate: () => ({ value: {} }) } }, 'tool "t": inputSchema: it is a zod schema without "~standard.jsonSchema", which baremcp needs to serve it as JSON Schema: zod 4.2 and later have it: npm install zod@^4.2 (zod 3 cannot convert)'],
    [{ '~standard': { version: 1, vendor: 'effect', validate: () => ({ value: {} }) } }, 'tool "t": inputSchema: it is a effect schema without "~standard.jsonSchema", which baremcp needs to serve it as JSON Schema: use a release of effect that implements Standard JSON Schema (https://standardschema.dev/json-schema), or write the JSON Schema literal'],
  ];
  for (const [schema, message] of cases) {
    assert.throws(() => createServer({ info, tools: [tool('t', schema, () => '')] }), (e) => e instanceof ToolDefinitionError && e.message === message);
  }
});

test('anything else that is not a JSON Schema literal is refused, saying what and where', () => {
  class ZodObject { constructor() { this._def = { shape: {} }; } }
  const cases = [
    [new ZodObject(), 'a ZodObject instance at /'],
    [{ type: 'object', properties: { when: { type: 'string', default: new Date(0) } } }, 'a Date instance at /properties/when/default'],
    [{ type: 'object', properties: { a: { type: 'string', check: () => true } } }, 'a function at /properties/a/check'],
    [{ type: 'object', maximum: Infinity }, 'Infinity at /maximum'],
  ];
  const cyclic = { type: 'object', properties: {} };
  cyclic.properties.self = cyclic;
  cases.push([cyclic, 'a cycle at /properties/self']);
  for (const [schema, what] of cases) {
    assert.throws(
      () => createServer({ info, tools: [tool('t', schema, () => '')] }),
      (e) => e instanceof ToolDefinitionError && e.message === `tool "t": inputSchema is not a JSON Schema literal (${what}); write the schema as a plain JSON object, or give a schema from a library with "~standard.jsonSchema" (zod 4.2+, arktype 2, valibot through toStandardJsonSchema)`,
      what,
    );
  }
});

test('a library schema that does not convert, or converts to a non-object input, is refused naming the library', () => {
  assert.throws(
    () => createServer({ info, tools: [tool('t', z.object({}), () => '', { outputSchema: z.object({ n: z.string().transform(Number) }) })] }),
    { message: 'tool "t": outputSchema: zod could not convert it to JSON Schema (Transforms cannot be represented in JSON Schema): do what has no JSON Schema (a transform, a custom check) in run instead, or give a JSON Schema literal' },
  );
  assert.throws(
    () => createServer({ info, tools: [tool('t', z.string(), () => '')] }),
    { message: 'tool "t": inputSchema must have "type": "object" at its root (MCP 2025-11-25, Server / Tools) (the zod schema converts to "type": "string"; use an object schema)' },
  );
});
