// Tool hooks see every result a call produces once it reaches them: an `after` hook that redacts
// or annotates results also sees the isError result of a tool that threw (where secrets in an
// exception's message leak) or of a `before` hook that threw. It used to see only the results
// of tools that returned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, RpcError } from '../../dist/index.js';

const info = { name: 'tool-hooks', version: '1.0.0' };
const call = (name, args = {}) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

test('an after hook sees and may replace the isError result of a tool that threw', async () => {
  const seen = [];
  const server = createServer({
    info,
    tools: [{
      name: 'query',
      description: 'Query the database.',
      inputSchema: { type: 'object' },
      run: () => { throw new Error('connect failed: postgres://admin:hunter2@db/prod'); },
    }],
    toolHooks: [{
      after: (hookCall, result) => {
        seen.push([hookCall.tool.name, result.isError]);
        const redact = (block) => ({ ...block, text: block.text.replace(/\/\/[^@]*@/, '//***@') });
        return { ...result, content: result.content.map(redact) };
      },
    }],
  });
  const reply = await server.handle(call('query'));
  assert.deepEqual(seen, [['query', true]]);
  assert.deepEqual(reply.result, { content: [{ type: 'text', text: 'connect failed: postgres://***@db/prod' }], isError: true });
});

test('after hooks see the isError result of a before hook that threw; an RpcError still refuses the call', async () => {
  const seen = [];
  const server = createServer({
    info,
    tools: [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, run: () => 'echo' }],
    toolHooks: [
      { after: (_c, result) => void seen.push(result.content[0].text) },
      {
        before: (hookCall) => {
          if (hookCall.arguments.mode === 'broken') throw new Error('quota service down');
          if (hookCall.arguments.mode === 'refused') throw new RpcError(-32001, 'not for you');
          return undefined;
        },
      },
    ],
  });
  const broken = await server.handle(call('echo', { mode: 'broken' }));
  assert.deepEqual(broken.result, { content: [{ type: 'text', text: 'quota service down' }], isError: true });
  const refused = await server.handle(call('echo', { mode: 'refused' }));
  assert.deepEqual(refused.error, { code: -32001, message: 'not for you' });
  assert.deepEqual(seen, ['quota service down']);
});

test('an after hook that throws makes the call an isError result with its message', async () => {
  const server = createServer({
    info,
    tools: [{ name: 'fail', description: 'Fail.', inputSchema: { type: 'object' }, run: () => { throw new Error('tool failed'); } }],
    toolHooks: [{ after: () => { throw new Error('audit sink down'); } }],
  });
  const reply = await server.handle(call('fail'));
  assert.deepEqual(reply.result, { content: [{ type: 'text', text: 'audit sink down' }], isError: true });
});
