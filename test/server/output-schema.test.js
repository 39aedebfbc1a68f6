// An outputSchema with any root (MCP 2026-07-28): served as written to 2026-07-28 requests, and
// wrapped as { type: "object", properties: { result }, required: ["result"] } with
// structuredContent { result } for older revisions. Ajv (2020-12) is the oracle for the wrap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import { createServer } from '../../dist/index.js';
import fixture from '../fixtures/any-output-server.js';
import { initialize, INITIALIZED, modernMeta } from './drive.js';

const modern = (server, id, method, params = {}) =>
  server.handle({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } });

async function legacy(server, revision) {
  const connection = server.connect({ send: () => {} });
  await connection.handle(initialize(revision));
  await connection.handle(INITIALIZED);
  return (id, method, params = {}) => connection.handle({ jsonrpc: '2.0', id, method, params });
}

test('2026-07-28: an array or number outputSchema is served as written, structuredContent as returned', async () => {
  const server = createServer(fixture);
  const { result } = await modern(server, 1, 'tools/list');
  assert.deepEqual(result.tools[0].outputSchema, fixture.tools[0].outputSchema);
  assert.deepEqual(result.tools[1].outputSchema, { type: 'integer', minimum: 0 });
  const tags = await modern(server, 2, 'tools/call', { name: 'list_tags', arguments: {} });
  assert.deepEqual(tags.result.structuredContent, ['red', 'green']);
  assert.deepEqual(tags.result.content, [{ type: 'text', text: '["red","green"]' }]);
  const count = await modern(server, 3, 'tools/call', { name: 'count', arguments: {} });
  assert.equal(count.result.structuredContent, 3);
});

test('2025-11-25 and 2025-06-18: the schema is wrapped in { result } and so is the value, which the wrapped schema accepts', async () => {
  const server = createServer(fixture);
  for (const revision of ['2025-11-25', '2025-06-18']) {
    const request = await legacy(server, revision);
    const { result } = await request(1, 'tools/list');
    const wrapped = result.tools[0].outputSchema;
    assert.deepEqual(wrapped, {
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/properties/result/$defs/tag' }, $defs: { tag: { type: 'string', minLength: 1 } } } },
      required: ['result'],
    });
    assert.deepEqual(result.tools[1].outputSchema, { type: 'object', properties: { result: { type: 'integer', minimum: 0 } }, required: ['result'] });
    const tags = await request(2, 'tools/call', { name: 'list_tags', arguments: {} });
    assert.deepEqual(tags.result.structuredContent, { result: ['red', 'green'] });
    assert.deepEqual(tags.result.content, [{ type: 'text', text: '["red","green"]' }]);
    const ajv = new Ajv2020({ strict: false });
    assert.equal(ajv.validate(wrapped, tags.result.structuredContent), true, JSON.stringify(ajv.errors));
    assert.equal(ajv.validate(wrapped, { result: [''] }), false, 'the rewritten $ref still reaches $defs');
    const count = await request(3, 'tools/call', { name: 'count', arguments: {} });
    assert.deepEqual(count.result.structuredContent, { result: 3 });
  }
});

test('a value that breaks a non-object outputSchema is a server bug the model reads, in both eras', async () => {
  const server = createServer({ ...fixture, report: () => {} });
  const modernReply = await modern(server, 1, 'tools/call', { name: 'broken_count', arguments: {} });
  const legacyReply = await (await legacy(server, '2025-11-25'))(2, 'tools/call', { name: 'broken_count', arguments: {} });
  for (const reply of [modernReply, legacyReply]) {
    assert.equal(reply.result.isError, true);
    assert.equal(reply.result.content[0].text, 'Tool "broken_count" produced an invalid result (a server bug, not your call): /: expected a number >= 0, got -1');
  }
});

test('an object outputSchema is never wrapped; a non-object structuredContent without outputSchema is, before 2026-07-28', async () => {
  const server = createServer({
    info: { name: 's', version: '1' },
    tools: [
      { name: 'obj', description: 'd', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } } }, run: () => ({ content: [], structuredContent: { n: 1 } }) },
      { name: 'loose', description: 'd', inputSchema: { type: 'object' }, run: () => ({ content: [{ type: 'text', text: '7' }], structuredContent: 7 }) },
    ],
  });
  const request = await legacy(server, '2025-11-25');
  const { result } = await request(1, 'tools/list');
  assert.deepEqual(result.tools[0].outputSchema, { type: 'object', properties: { n: { type: 'integer' } } });
  assert.deepEqual((await request(2, 'tools/call', { name: 'obj', arguments: {} })).result.structuredContent, { n: 1 });
  assert.deepEqual((await request(3, 'tools/call', { name: 'loose', arguments: {} })).result.structuredContent, { result: 7 });
  assert.equal((await modern(server, 4, 'tools/call', { name: 'loose', arguments: {} })).result.structuredContent, 7);
});

test('a $ref inside a subschema with its own $id, or inside const/enum data, is not rewritten by the wrap', async () => {
  const outputSchema = {
    type: 'array',
    items: { $id: 'https://example.com/item', $defs: { x: { type: 'string' } }, $ref: '#/$defs/x' },
    default: [{ $ref: '#/not/a/ref' }],
  };
  const server = createServer({ info: { name: 's', version: '1' }, tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' }, outputSchema, run: () => ({ content: [], structuredContent: [] }) }] });
  const { result } = await (await legacy(server, '2025-11-25'))(1, 'tools/list');
  assert.deepEqual(result.tools[0].outputSchema.properties.result, outputSchema);
});
