// A `__proto__` key in tool arguments (JSON.parse makes it an own property) must not let a tool's
// own shallow copy take an attacker's prototype.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';

test("a tool's Object.assign / for...in copy of its arguments cannot take an attacker's __proto__", async () => {
  const seen = [];
  const server = createServer({
    info: { name: 'proto', version: '1' },
    tools: [{
      name: 'copy',
      description: 'Copies its arguments the usual ways.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' }, nested: { type: 'object' } } },
      run: (args) => {
        const assigned = Object.assign({}, args);
        const looped = {};
        for (const key in args) looped[key] = args[key];
        const nested = Object.assign({}, args.nested);
        const spread = { ...args };
        seen.push({
          assigned: assigned.isAdmin,
          looped: looped.isAdmin,
          nested: nested.isAdmin,
          spread: spread.isAdmin,
          protoOfAssigned: Object.getPrototypeOf(assigned) === Object.prototype,
          stillReadable: args['__proto__']?.isAdmin,
          keys: Object.keys(args),
        });
        return 'ok';
      },
    }],
  });
  const line = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"copy","arguments":{"name":"x","__proto__":{"isAdmin":true},"nested":{"__proto__":{"isAdmin":true}},"list":[{"__proto__":{"isAdmin":true}}]}}}';
  const reply = await server.handle(JSON.parse(line));
  assert.equal(reply.result.content[0].text, 'ok');
  assert.deepEqual(seen, [{
    assigned: undefined,
    looped: undefined,
    nested: undefined,
    spread: undefined,
    protoOfAssigned: true,
    stillReadable: true,
    keys: ['name', 'nested', 'list'],
  }]);
});
