// The options of the request pipeline refuse what they cannot use, when the server is created,
// with a message that names the fix (issue 22, "refuse, never degrade"): a middleware that is not
// a function, a tool hook with a misspelt key, an extension or custom method whose eras or cache
// scope are not baremcp's names, an extension with a key it does not know. Each of these used to
// be accepted and then silently did nothing (a hook never ran, an extension was announced in no
// era) or failed every request with -32603.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';

const info = { name: 'pipeline-options', version: '1.0.0' };
const tools = [{ name: 'noop', description: 'Do nothing.', inputSchema: { type: 'object' }, run: () => 'ok' }];
const refuses = (make, message) => assert.throws(make, (error) => error instanceof TypeError && error.message === message);

test('createServer refuses a middleware that is not a function, as server.use does', () => {
  refuses(
    () => createServer({ info, tools, middleware: [{}] }),
    'createServer: middleware[0] is not a function: a middleware is a function (ctx, next) => result',
  );
  refuses(
    () => createServer({ info, tools, middleware: [async (_c, next) => next(), 'audit'] }),
    'createServer: middleware[1] is not a function: a middleware is a function (ctx, next) => result',
  );
});

test('a tool hook with a misspelt key, or a before/after that is not a function, is refused', () => {
  refuses(
    () => createServer({ info, tools, toolHooks: [{ befor: () => {} }] }),
    'createServer: toolHooks[0]: unknown key "befor" (choose from before, after)',
  );
  refuses(
    () => createServer({ info, tools, toolHooks: [{ before: () => {}, afterr: () => {} }] }),
    'createServer: toolHooks[0]: unknown key "afterr" (choose from before, after)',
  );
  refuses(
    () => createServer({ info, tools, toolHooks: [{ after: 'log' }] }),
    'createServer: toolHooks[0]: after must be a function (call, result, ctx) => result',
  );
  const server = createServer({ info, tools });
  refuses(() => server.useToolHook({ before: 1 }), 'server.useToolHook: before must be a function (call, ctx) => result');
  assert.throws(() => server.useToolHook({}), /useToolHook: a hook is an object with before/);
});

test('an extension whose eras are not legacy/modern, or with an unknown key, is refused', () => {
  refuses(
    () => createServer({ info, tools, extensions: [{ id: 'com.example/x', eras: ['moden'] }] }),
    'extension "com.example/x": unknown era "moden" (choose from legacy, modern)',
  );
  refuses(
    () => createServer({ info, tools, extensions: [{ id: 'com.example/x', eras: 'modern' }] }),
    'extension "com.example/x": eras must be an array of era names, e.g. [\'modern\'] (choose from legacy, modern)',
  );
  refuses(
    () => createServer({ info, tools, extensions: [{ id: 'com.example/x', method: { 'com.example/x/run': () => ({}) } }] }),
    'extension "com.example/x": unknown key "method" (choose from id, settings, eras, methods, wrap, subscriptions, broadcasts)',
  );
});

test('server.method refuses eras and a cacheScope that are not baremcp names', () => {
  const server = createServer({ info, tools });
  refuses(
    () => server.method('com.example/a', () => ({}), { eras: ['Legacy'] }),
    'server.method: com.example/a: unknown era "Legacy" (choose from legacy, modern)',
  );
  refuses(
    () => server.method('com.example/a', () => ({}), { cacheScope: 'shared' }),
    'server.method: com.example/a: unknown cacheScope "shared" (choose from public, private)',
  );
  // Known names still work.
  server.method('com.example/a', () => ({}), { eras: ['modern'], cacheScope: 'private' });
  createServer({ info, tools, extensions: [{ id: 'com.example/x', eras: ['legacy'] }] });
});

test('a custom method outside any extension may not take a prefix MCP reserves', () => {
  const server = createServer({ info, tools });
  for (const name of ['io.modelcontextprotocol/jobs', 'dev.mcp/jobs', 'org.modelcontextprotocol.api/jobs']) {
    refuses(
      () => server.method(name, () => ({})),
      `server.method: the prefix of "${name}" is reserved for MCP (its second label is modelcontextprotocol or mcp); use a prefix of your own, e.g. "com.example/jobs"`,
    );
  }
  // A prefix whose second label is not reserved is the author's; an extension names its own methods.
  server.method('com.example.mcp/jobs', () => ({}));
  server.extension({ id: 'io.modelcontextprotocol/ui', methods: { 'io.modelcontextprotocol/ui/ping': () => ({}) } });
});
