// tools/call runs coercion, then validation, then the tool; structuredContent is checked against
// outputSchema. Cases from ../shared/cases (protocol 36, 37, 39; schemas-and-arguments 6, 13-20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, ToolDefinitionError } from '../../dist/index.js';

const info = { name: 'args', version: '1' };
const seen = [];
const search = {
  name: 'search',
  description: 'Search.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      verbose: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      zip: { type: 'string' },
      filter: { type: 'object', properties: { k: { type: 'number' } } },
      id: { type: 'integer' },
      constructor: { type: 'string' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  run: (args) => { seen.push(args); return JSON.stringify(args); },
};
const strict = { ...search, name: 'strict_search', coerce: false };
const spread = {
  name: 'spread',
  description: 'Spreads its arguments into a new object.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
  run: (args) => {
    const copy = { ...args };
    const assigned = Object.assign({}, args);
    return JSON.stringify({ keys: Object.keys(copy), byName: args['__proto__'] ?? null, assignedPolluted: assigned.polluted ?? null });
  },
};
const out = {
  name: 'out',
  description: 'Returns structured content, right or wrong.',
  inputSchema: { type: 'object', properties: { wrong: { type: 'boolean' } } },
  outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  run: ({ wrong }) => ({ content: [], structuredContent: wrong ? { n: 'x' } : { n: 1 } }),
};

function setup(options = {}) {
  const lines = [];
  const server = createServer({ info, tools: [search, strict, spread, out], report: (l) => lines.push(l), ...options });
  const call = async (name, args, meta) => (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } })).result;
  return { server, lines, call };
}

test('"5" for an integer parameter is coerced, the call succeeds, and the coercion is reported on stderr', async () => {
  const { call, lines } = setup();
  const result = await call('search', { query: 'q', limit: '5', verbose: 'False', tags: 'urgent', filter: '{"k":1}' });
  assert.equal(result.isError, undefined);
  assert.deepEqual(JSON.parse(result.content[0].text), { query: 'q', limit: 5, verbose: false, tags: ['urgent'], filter: { k: 1 } });
  assert.equal(lines.length, 1);
  assert.match(lines[0], /tool "search": .*\/limit "5" -> 5/);
  assert.equal(result._meta, undefined, 'not in _meta unless asked');
});

test('coercions go into _meta when the client asks, or when reportCoercions is set', async () => {
  const asked = await setup().call('search', { query: 'q', limit: '7' }, { 'dev.baremcp/coercions': true });
  assert.deepEqual(asked._meta['dev.baremcp/coercions'], [{ path: '/limit', from: '7', to: 7, rule: 'string-to-integer' }]);
  const always = await setup({ reportCoercions: true }).call('search', { query: 'q', limit: '7' });
  assert.equal(always._meta['dev.baremcp/coercions'].length, 1);
});

test('"five" for an integer is an isError result naming the parameter, listing every error', async () => {
  const { call } = setup();
  const result = await call('search', { query: '', limit: 'five', extra: 1 });
  assert.equal(result.isError, true);
  const text = result.content[0].text;
  assert.match(text, /Invalid arguments for tool "search"/);
  assert.match(text, /\/limit/);
  assert.match(text, /five/);
  assert.match(text, /\/query/);
  assert.match(text, /extra/);
});

test('strings stay strings: "00713" for a string parameter is untouched, and nothing coerces toward string', async () => {
  const { call } = setup();
  const result = await call('search', { query: 'q', zip: '00713' });
  assert.equal(JSON.parse(result.content[0].text).zip, '00713');
  const refused = await call('search', { query: 5 });
  assert.equal(refused.isError, true);
});

test('coercion can be turned off per tool and per server', async () => {
  const { call } = setup();
  assert.equal((await call('strict_search', { query: 'q', limit: '5' })).isError, true);
  assert.equal((await setup({ coerce: false }).call('search', { query: 'q', limit: '5' })).isError, true);
});

test('a null for an optional non-nullable parameter is removed and reported', async () => {
  const { call, lines } = setup();
  const result = await call('search', { query: 'q', limit: null });
  assert.deepEqual(JSON.parse(result.content[0].text), { query: 'q' });
  assert.match(lines.join('\n'), /null-removed/);
});

test('case 39: an integer beyond 2^53 is refused rather than silently rounded', async () => {
  const { call } = setup();
  const args = JSON.parse('{"query":"q","id":9007199254740993}');
  const result = await call('search', args);
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /\/id: integer outside the exact range/);
  assert.equal((await call('search', { query: 'q', id: 9007199254740991 })).isError, undefined);
});

test('the integer guard follows $ref as the validator resolves it (anchors, percent-escapes, nested $id)', async () => {
  const tool = {
    name: 'refs',
    description: 'Integers behind $refs.',
    inputSchema: {
      type: 'object',
      $defs: { count: { $anchor: 'count', type: 'integer' }, 'big id': { type: 'integer' } },
      properties: {
        a: { $ref: '#count' },
        b: { $ref: '#/$defs/big%20id' },
        c: { $id: 'https://example.com/c', $defs: { n: { type: 'integer' } }, type: 'object', properties: { n: { $ref: '#/$defs/n' } } },
      },
    },
    run: () => 'ok',
  };
  const server = createServer({ info, tools: [tool], report: () => {} });
  const args = JSON.parse('{"a":9007199254740993,"b":9007199254740993,"c":{"n":9007199254740993}}');
  const result = (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'refs', arguments: args } })).result;
  assert.equal(result.isError, true);
  assert.deepEqual(result.content[0].text.split('\n').slice(1).map((line) => line.split(':')[0]), ['- /c/n', '- /b', '- /a']);
});

test('case 36: __proto__ in arguments pollutes nothing and reaches the tool as plain data', async () => {
  const { call } = setup();
  const args = JSON.parse('{"a":1,"__proto__":{"polluted":"yes"}}');
  const result = await call('spread', args);
  assert.equal(result.isError, undefined);
  // Plain data, readable by name; not enumerated, so that a tool's own shallow copy cannot take
  // it as its prototype (issue 19, "Prototype copies").
  assert.deepEqual(JSON.parse(result.content[0].text), { keys: ['a'], byName: { polluted: 'yes' }, assignedPolluted: null });
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
});

test('case 37: a "constructor" string parameter works', async () => {
  const { call } = setup();
  const result = await call('search', { query: 'q', constructor: 'x' });
  assert.equal(result.isError, undefined);
  assert.equal(JSON.parse(result.content[0].text).constructor, 'x');
});

test('structuredContent that breaks outputSchema is an isError result and a stderr line (the server\'s bug)', async () => {
  const { call, lines } = setup();
  assert.deepEqual((await call('out', {})).structuredContent, { n: 1 });
  const bad = await call('out', { wrong: true });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /server bug/);
  assert.match(lines.join('\n'), /outputSchema/);
});

test('a schema the validator cannot compile is refused when the server is created, naming the tool', () => {
  const base = { description: 'd', run: () => '' };
  const bad = [
    { ...base, name: 'remote', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } } },
    { ...base, name: 'pattern', inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } } },
    { ...base, name: 'required', inputSchema: { type: 'object', required: 'a' } },
  ];
  for (const tool of bad) {
    assert.throws(() => createServer({ info, tools: [tool] }), (e) => e instanceof ToolDefinitionError && e.message.includes(`"${tool.name}"`));
  }
  const server = createServer({ info, tools: [] });
  assert.throws(() => server.tools.add(bad[1]), /pattern/);
  assert.equal(server.tools.size, 0, 'a refused tool is not left registered');
});

test('format is an annotation by default and an assertion when asked', async () => {
  const when = { name: 'when', description: 'd', inputSchema: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } }, run: () => 'ok' };
  const loose = createServer({ info, tools: [when] });
  const strictFormats = createServer({ info, tools: [when], formatAssertion: true });
  const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'when', arguments: { at: 'yesterday' } } };
  assert.equal((await loose.handle(msg)).result.isError, undefined);
  assert.equal((await strictFormats.handle(msg)).result.isError, true);
});
