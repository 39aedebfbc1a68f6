// defineTool, definePrompt and defineResourceTemplate at run time: identity functions whose
// results the server serves like hand-written definitions. (Their types: test/types/.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from '../../dist/index.js';
import { defineTool, definePrompt, defineResourceTemplate } from '../../dist/server/define.js';
import { init, INITD } from '../helpers.js';

test('each define function returns the very object it is given', () => {
  const tool = { name: 't', description: 'd', inputSchema: { type: 'object' }, run: () => 'x' };
  const prompt = { name: 'p', arguments: [{ name: 'a', required: true }], get: () => 'x' };
  const template = { uriTemplate: 'file:///{+path}', name: 'f', read: () => 'x' };
  assert.equal(defineTool(tool), tool);
  assert.equal(definePrompt(prompt), prompt);
  assert.equal(defineResourceTemplate(template), template);
  assert.deepEqual(Object.keys(tool), ['name', 'description', 'inputSchema', 'run']);
});

test('a tool made by defineTool is listed and called like a plain definition', async () => {
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    run: ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
  });
  const server = createServer({ info: { name: 's', version: '1' }, tools: [add] });
  const connection = server.connect();
  await connection.handle(init(1, '2025-06-18'));
  await connection.handle(INITD);
  const list = await connection.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  assert.deepEqual(list.result.tools[0].inputSchema, add.inputSchema);
  const reply = await connection.handle({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 2, b: 3 } },
  });
  assert.deepEqual(reply.result.structuredContent, { sum: 5 });
  assert.equal(reply.result.isError, undefined);
});
