// The shape of what the server sends when the client misbehaves, checked against each revision's
// schema.json: errors without an id, and messages a revision does not have. Found by the fuzzers
// (test/fuzz/) and kept as regression tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { oracle, schemaDir } from '../mcp-oracle.js';
import { init } from '../helpers.js';

const skip = schemaDir ? false : 'the MCP schemas are not at ../shared/mcp-schema';
const info = { name: 'wire', version: '1.0.0' };
const tool = (name, run) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object' },
  run,
});

test(
  'an error whose request id cannot be read carries no id at all, on every revision (never "id": null)',
  { skip },
  async () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const connection = createServer({ info, tools: [] }).connect();
      await connection.handle(init(1, revision));
      const reply = await connection.handle({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
      assert.deepEqual(Object.keys(reply).sort(), ['error', 'jsonrpc']);
      // Valid from 2025-11-25. Before it the schema requires an id and a RequestId is never null,
      // so no error for an unreadable id is valid there; an id-less error is the choice that
      // strict clients accept (cases/protocol.md case 22).
      const own = oracle(revision);
      const definition = own.has('JSONRPCErrorResponse') ? 'JSONRPCErrorResponse' : 'JSONRPCError';
      assert.equal(own.check(definition, reply) === null, revision >= '2025-11-25', revision);
      assert.equal(
        own.check(definition, { ...reply, id: null }) === null,
        false,
        `${revision} has no null id either`,
      );
    }
  },
);

test(
  'a client on a revision without elicitation is never sent elicitation/create, whatever it declared',
  { skip },
  async () => {
    const sent = [];
    const ask = tool('ask', async (_args, ctx) => {
      try {
        await ctx.elicit({
          mode: 'form',
          message: 'Name?',
          requestedSchema: { type: 'object', properties: {} },
        });
        return 'answered';
      } catch (error) {
        return `refused: ${error.message}`;
      }
    });
    const connection = createServer({ info, tools: [ask], inputTimeoutMs: 20 }).connect({
      send: (m) => sent.push(m),
    });
    await connection.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2024-11-05',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'c', version: '1' },
      },
    });
    const reply = await connection.handle({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'ask', arguments: {} },
    });
    for (const message of sent)
      assert.equal(
        oracle('2024-11-05').check('ServerRequest', message),
        null,
        JSON.stringify(message),
      );
    assert.match(reply.result.content[0].text, /refused/);
  },
);

test(
  'a progressToken that is neither a string nor an integer (1.5, or 1e400 which decodes to Infinity) gets no progress',
  { skip },
  async () => {
    const progress = tool('progress', (_args, ctx) => {
      ctx.progress(1, 2);
      return 'done';
    });
    for (const token of ['1.5', '1e400']) {
      const sent = [];
      const connection = createServer({ info, tools: [progress] }).connect({
        send: (m) => sent.push(JSON.parse(JSON.stringify(m))),
      });
      await connection.handle(init(1, '2025-06-18'));
      await connection.handle(
        JSON.parse(
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":${token}}}}`,
        ),
      );
      for (const message of sent) {
        const errors = oracle('2025-06-18').check('ServerNotification', message);
        assert.equal(errors, null, JSON.stringify(message));
      }
    }
  },
);
