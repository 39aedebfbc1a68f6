// The request pipeline: the method table, middleware around every method in both eras and on
// every transport, tool hooks, extensions and custom methods, trace context, the simple
// handle() form, and list changes announced whichever way a registry changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createServer, handle, HANDLE_SERVERS, RpcError } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/http.js';
import { serve } from '../../dist/transport/stdio.js';

const info = { name: 'pipeline-test', version: '1.0.0' };
const MODERN = '2026-07-28';
const meta = (capabilities = {}, extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'modern-client', version: '2' },
  ...extra,
});
const init = (protocolVersion = '2025-11-25', capabilities = {}) => ({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'legacy-client', version: '1' } },
});
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

const echo = {
  name: 'echo',
  description: 'Echo the text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } }, required: ['text'] },
  annotations: { readOnlyHint: true },
  run: ({ text }) => `echo: ${text}`,
};
const erase = {
  name: 'erase',
  description: 'Erase everything.',
  inputSchema: { type: 'object' },
  annotations: { destructiveHint: true },
  run: () => 'erased',
};
const resource = { uri: 'mem://note', name: 'note', read: () => 'hello' };
const template = {
  uriTemplate: 'mem://items/{id}',
  name: 'items',
  read: ({ id }) => `item ${id}`,
  complete: { id: (value) => ['1', '2', '10'].filter((v) => v.startsWith(value)) },
};
const prompt = { name: 'greet', arguments: [{ name: 'who', required: true }], get: ({ who }) => `Hello ${who}` };

function fixture(options = {}) {
  return createServer({ info, tools: [echo, erase], resources: [resource, template], prompts: [prompt], ...options });
}

/** A middleware that records what it saw of each request. */
function recorder() {
  const seen = [];
  const middleware = async (ctx, next) => {
    seen.push({
      method: ctx.method,
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      client: ctx.client.name,
      kind: ctx.transport.kind,
      header: ctx.transport.headers?.get('x-test') ?? null,
      params: ctx.params,
      target: ctx.target,
      trace: ctx.trace?.traceId,
    });
    return next();
  };
  return { seen, middleware };
}

const LEGACY_REQUESTS = [
  { method: 'ping' },
  { method: 'tools/list' },
  { method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
  { method: 'resources/list' },
  { method: 'resources/templates/list' },
  { method: 'resources/read', params: { uri: 'mem://note' } },
  { method: 'resources/subscribe', params: { uri: 'mem://note' } },
  { method: 'resources/unsubscribe', params: { uri: 'mem://note' } },
  { method: 'prompts/list' },
  { method: 'prompts/get', params: { name: 'greet', arguments: { who: 'x' } } },
  { method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'mem://items/{id}' }, argument: { name: 'id', value: '1' } } },
  { method: 'logging/setLevel', params: { level: 'info' } },
];
const MODERN_REQUESTS = [
  { method: 'server/discover' },
  { method: 'tools/list' },
  { method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
  { method: 'resources/list' },
  { method: 'resources/templates/list' },
  { method: 'resources/read', params: { uri: 'mem://note' } },
  { method: 'prompts/list' },
  { method: 'prompts/get', params: { name: 'greet', arguments: { who: 'x' } } },
  { method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'mem://items/{id}' }, argument: { name: 'id', value: '1' } } },
];

test('a middleware sees every method of both eras, with era, revision, client and params', async () => {
  const { seen, middleware } = recorder();
  const server = fixture({ middleware: [middleware] });
  const connection = server.connect();
  assert.ok((await connection.handle(init())).result);
  let id = 0;
  for (const r of LEGACY_REQUESTS) {
    const reply = await connection.handle({ jsonrpc: '2.0', id: ++id, ...r });
    assert.ok(reply.result, `${r.method}: ${JSON.stringify(reply.error)}`);
  }
  for (const r of MODERN_REQUESTS) {
    const reply = await connection.handle({ jsonrpc: '2.0', id: ++id, method: r.method, params: { ...r.params, _meta: meta() } });
    assert.ok(reply.result, `${r.method}: ${JSON.stringify(reply.error)}`);
    assert.equal(reply.result.resultType, 'complete');
  }
  assert.deepEqual(
    seen.map((s) => `${s.era} ${s.method}`),
    ['legacy initialize', ...LEGACY_REQUESTS.map((r) => `legacy ${r.method}`), ...MODERN_REQUESTS.map((r) => `modern ${r.method}`)],
  );
  const call = seen.find((s) => s.era === 'legacy' && s.method === 'tools/call');
  assert.deepEqual(call.params, { name: 'echo', arguments: { text: 'a' } });
  assert.deepEqual(call.target, { kind: 'tool', name: 'echo', inputSchema: echo.inputSchema });
  assert.equal(call.client, 'legacy-client');
  assert.equal(call.protocolVersion, '2025-11-25');
  const modern = seen.find((s) => s.era === 'modern' && s.method === 'prompts/get');
  assert.equal(modern.client, 'modern-client');
  assert.equal(modern.protocolVersion, MODERN);
  assert.deepEqual(modern.target, { kind: 'prompt', name: 'greet' });
  assert.equal(seen.find((s) => s.method === 'resources/read').target.name, 'mem://note');
});

test('a middleware runs on stdio (transport kind "stdio") and on HTTP (kind "http", with the headers) in both eras', async () => {
  const { seen, middleware } = recorder();
  const server = fixture({ middleware: [middleware] });
  // stdio: a real stream pair.
  const input = new PassThrough();
  const output = new PassThrough();
  const lines = [];
  output.on('data', (chunk) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const session = serve(input, output, server);
  input.write(JSON.stringify(init()) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 's' } } }) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta() } }) + '\n');
  input.end();
  await session.closed;
  assert.equal(lines.length, 3);
  // HTTP: the web-standard handler.
  const http = createFetchHandler(server);
  const post = (body, headers = {}) =>
    http(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-test': 'yes', ...headers },
      body: JSON.stringify(body),
    }));
  const opened = await post(init());
  const sessionId = opened.headers.get('mcp-session-id');
  assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'h' } } }, { 'mcp-session-id': sessionId })).status, 200);
  const modern = await post(
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta() } },
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
  );
  assert.equal(modern.status, 200);
  await http.close();
  assert.deepEqual(
    seen.map((s) => [s.kind, s.era, s.method, s.header]),
    [
      ['stdio', 'legacy', 'initialize', null],
      ['stdio', 'legacy', 'tools/call', null],
      ['stdio', 'modern', 'tools/list', null],
      ['http', 'legacy', 'initialize', 'yes'],
      ['http', 'legacy', 'tools/call', 'yes'],
      ['http', 'modern', 'tools/list', 'yes'],
    ],
  );
});

test('middleware runs outermost first, may answer early, transform a result, or fail like a handler', async () => {
  const order = [];
  const lines = [];
  const server = fixture({
    report: (line) => lines.push(line),
    middleware: [
      async (ctx, next) => {
        order.push('outer in');
        const result = await next();
        order.push('outer out');
        return result;
      },
      async (ctx, next) => {
        order.push('inner in');
        if (ctx.method === 'prompts/list') return { prompts: [] };
        if (ctx.method === 'resources/list') throw new RpcError(-32000, 'resources are closed today', { retry: false });
        if (ctx.method === 'resources/templates/list') throw new Error('secret detail');
        if (ctx.method === 'completion/complete') {
          await next();
          return next();
        }
        const result = await next();
        order.push('inner out');
        if (ctx.method !== 'tools/list') return result;
        return { ...result, tools: result.tools.filter((t) => t.annotations?.readOnlyHint === true) };
      },
    ],
  });
  const call = async (method, params) => server.handle({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });
  await server.handle(init());
  order.length = 0;
  const listed = await call('tools/list');
  assert.deepEqual(listed.result?.tools.map((t) => t.name), ['echo'], JSON.stringify(listed));
  assert.deepEqual(order, ['outer in', 'inner in', 'inner out', 'outer out']);
  assert.deepEqual((await call('prompts/list')).result, { prompts: [] });
  const modernEarly = await call('prompts/list', { _meta: meta() });
  assert.equal(modernEarly.result.resultType, 'complete', 'an early answer is shaped like any result');
  assert.equal(modernEarly.result.cacheScope, 'public');
  assert.deepEqual((await call('resources/list')).error, { code: -32000, message: 'resources are closed today', data: { retry: false } });
  const failed = await call('resources/templates/list');
  assert.deepEqual(failed.error, { code: -32603, message: 'Internal error while handling resources/templates/list' });
  assert.match(lines.join('\n'), /secret detail/);
  const twice = await call('completion/complete', { ref: { type: 'ref/resource', uri: 'mem://items/{id}' }, argument: { name: 'id', value: '' } });
  assert.equal(twice.error.code, -32603);
  assert.match(lines.join('\n'), /MiddlewareError: middleware #1 called next\(\) twice while serving completion\/complete/);
  // Added later with use(): it runs inside those given at creation.
  server.use(async (ctx, next) => {
    order.push('late');
    return next();
  });
  order.length = 0;
  await call('ping');
  assert.deepEqual(order, ['outer in', 'inner in', 'late', 'inner out', 'outer out']);
  assert.throws(() => server.use('nope'), /server\.use: a middleware is a function \(ctx, next\) => result/);
});

test('a request that is invalid for its era never reaches middleware', async () => {
  const { seen, middleware } = recorder();
  const server = fixture({ middleware: [middleware] });
  await server.handle(init());
  const reply = await server.handle({ jsonrpc: '2.0', id: 2, method: 'nope/nothing' });
  assert.deepEqual(reply.error, { code: -32601, message: 'Method not found: nope/nothing' });
  const removed = await server.handle({ jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: meta() } });
  assert.deepEqual(removed.error, { code: -32601, message: 'Method not found: ping (removed in 2026-07-28)' });
  const listen = await server.handle({ jsonrpc: '2.0', id: 4, method: 'subscriptions/listen', params: { notifications: {} } });
  assert.equal(listen.error.code, -32601);
  const missing = await server.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } });
  assert.deepEqual(missing.error, { code: -32602, message: 'tools/call: params.name must be a string' });
  assert.deepEqual(seen.map((s) => s.method), ['initialize']);
});

test('tool hooks see checked arguments, may answer instead of the tool, change the result, or refuse', async () => {
  const calls = [];
  const server = fixture({
    toolHooks: [
      {
        before(call, ctx) {
          calls.push(['before', call.tool.name, call.arguments, ctx.method]);
          if (call.arguments.text === 'cached') return 'from the cache';
          if (call.arguments.text === 'forbidden') throw new RpcError(-32001, 'not for you');
          if (call.arguments.text === 'broken') throw new Error('hook broke');
          return undefined;
        },
        after(call, result) {
          calls.push(['after', call.tool.name]);
          return { ...result, content: [...result.content, { type: 'text', text: 'audited' }] };
        },
      },
    ],
  });
  const run = async (args) => (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: args } }));
  const plain = await run({ text: 'hi', n: '5' });
  assert.deepEqual(plain.result.content.map((c) => c.text), ['echo: hi', 'audited']);
  assert.deepEqual(calls[0], ['before', 'echo', { text: 'hi', n: 5 }, 'tools/call'], 'coerced arguments');
  assert.deepEqual((await run({ text: 'cached' })).result.content.map((c) => c.text), ['from the cache', 'audited']);
  assert.deepEqual((await run({ text: 'forbidden' })).error, { code: -32001, message: 'not for you' });
  const broken = (await run({ text: 'broken' })).result;
  assert.equal(broken.isError, true);
  assert.equal(broken.content[0].text, 'hook broke');
  calls.length = 0;
  const bad = (await run({ n: 1 })).result;
  assert.equal(bad.isError, true);
  assert.deepEqual(calls, [], 'a call with bad arguments never reaches the hooks');
  // Hooks added later run inside; after-hooks run in reverse order.
  const order = [];
  server.useToolHook({ before: () => void order.push('late before'), after: () => void order.push('late after') });
  await run({ text: 'x' });
  assert.deepEqual(order, ['late before', 'late after']);
  assert.deepEqual(calls.map((c) => c[0]), ['before', 'after']);
  assert.throws(() => server.useToolHook({}), /useToolHook: a hook is an object with before/);
});

test('an extension is announced in both eras unless limited to one, and its methods need the client to declare it', async () => {
  const server = fixture({
    extensions: [
      { id: 'com.example/search', settings: { depth: 2 }, methods: { 'com.example/search/run': (params, ctx) => ({ found: [params?.q ?? null], era: ctx.era }) } },
      { id: 'com.example/modern-only', eras: ['modern'] },
    ],
  });
  const legacyInit = await server.handle(init('2025-11-25', { extensions: { 'com.example/search': {} } }));
  assert.deepEqual(legacyInit.result.capabilities.extensions, { 'com.example/search': { depth: 2 } });
  const discover = await server.handle({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta() } });
  assert.deepEqual(discover.result.capabilities.extensions, { 'com.example/search': { depth: 2 }, 'com.example/modern-only': {} });
  // Legacy: the client declared it in initialize.
  const legacy = await server.handle({ jsonrpc: '2.0', id: 3, method: 'com.example/search/run', params: { q: 'a' } });
  assert.deepEqual(legacy.result, { found: ['a'], era: 'legacy' });
  // Modern: declared on this request, or -32021 naming the extension.
  const declared = await server.handle({ jsonrpc: '2.0', id: 4, method: 'com.example/search/run', params: { q: 'b', _meta: meta({ extensions: { 'com.example/search': {} } }) } });
  assert.deepEqual([declared.result.found, declared.result.era, declared.result.resultType], [['b'], 'modern', 'complete']);
  const undeclared = await server.handle({ jsonrpc: '2.0', id: 5, method: 'com.example/search/run', params: { _meta: meta() } });
  assert.equal(undeclared.error.code, -32021);
  assert.match(undeclared.error.message, /Missing required client capability: extension com\.example\/search/);
  assert.deepEqual(undeclared.error.data, { requiredCapabilities: { extensions: { 'com.example/search': {} } } });
  // A legacy client that did not declare it: -32601.
  const other = createServer({ info, extensions: [{ id: 'com.example/search', methods: { 'com.example/search/run': () => ({}) } }] });
  await other.handle(init());
  const refused = await other.handle({ jsonrpc: '2.0', id: 6, method: 'com.example/search/run' });
  assert.equal(refused.error.code, -32601);
  assert.match(refused.error.message, /part of the com\.example\/search extension, which the client did not declare in initialize/);
});

test('custom methods need a vendor prefix; bad extensions and duplicates are refused with the reason', () => {
  const server = fixture();
  assert.throws(() => server.method('search', () => ({})), /needs a reverse-DNS vendor prefix and a slash, e\.g\. "com\.example\/search"/);
  assert.throws(() => server.method('tools/call', () => ({})), /method "tools\/call" already exists/);
  assert.throws(() => server.method('com.example/x', () => ({}), { extension: 'com.example/none' }), /names extension "com\.example\/none", which the server does not declare/);
  assert.throws(() => server.method('com.example/y', 'nope'), /handler of com\.example\/y must be a function/);
  assert.throws(() => server.extension({ id: 'noprefix' }), /extension id "noprefix" must be \{vendor-prefix\}\/\{name\}/);
  assert.throws(() => server.extension({ id: 'com.example/s', settings: [] }), /settings must be an object/);
  server.extension({ id: 'com.example/s' });
  assert.throws(() => server.extension({ id: 'com.example/s' }), /declared twice/);
});

test('an extension wraps an existing method: it answers itself, or calls next with the same or a derived context', async () => {
  const seen = [];
  const server = fixture({
    middleware: [async (ctx, next) => ({ ...(await next()), outer: ctx.method })],
    extensions: [
      {
        id: 'com.example/wrap',
        wrap: {
          'tools/call': async (params, ctx, next) => {
            if (params.arguments?.text === 'short') return { content: [{ type: 'text', text: 'answered by the wrapper' }] };
            const controller = new AbortController();
            const derived = Object.create(ctx, { signal: { value: controller.signal }, note: { value: 'derived' } });
            const result = await next(params.arguments?.text === 'derived' ? derived : undefined);
            seen.push(result.content[0].text);
            return { ...result, wrapped: true };
          },
        },
      },
    ],
    tools: [
      { ...echo, run: ({ text }, ctx) => `echo: ${text} (${ctx.note ?? 'request'}, aborted ${ctx.signal.aborted})` },
    ],
  });
  const call = async (text) => (await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } })).result;
  assert.deepEqual(await call('short'), { content: [{ type: 'text', text: 'answered by the wrapper' }], outer: 'tools/call' });
  const plain = await call('plain');
  assert.deepEqual([plain.content[0].text, plain.wrapped, plain.outer], ['echo: plain (request, aborted false)', true, 'tools/call']);
  assert.equal((await call('derived')).content[0].text, 'echo: derived (derived, aborted false)');
  assert.deepEqual(seen, ['echo: plain (request, aborted false)', 'echo: derived (derived, aborted false)']);
  assert.throws(() => fixture().extension({ id: 'com.example/w', wrap: { 'nope/nothing': () => ({}) } }), /cannot wrap nope\/nothing, which the server does not have/);
  assert.throws(() => fixture().extension({ id: 'com.example/w', wrap: { 'tools/list': 'x' } }), /the wrapper of tools\/list must be a function/);
});

test('extension methods take options: required params are checked first, nameParam is what Mcp-Name mirrors', async () => {
  const server = createServer({
    info,
    extensions: [
      {
        id: 'com.example/jobs',
        eras: ['modern'],
        methods: {
          'com.example/jobs/get': { required: { jobId: 'string' }, nameParam: 'jobId', run: (params) => ({ job: params.jobId }) },
          'com.example/jobs/list': () => ({ jobs: [] }),
        },
      },
    ],
  });
  const declared = meta({ extensions: { 'com.example/jobs': {} } });
  const ok = await server.handle({ jsonrpc: '2.0', id: 1, method: 'com.example/jobs/get', params: { jobId: 'j1', _meta: declared } });
  assert.equal(ok.result.job, 'j1');
  const missing = await server.handle({ jsonrpc: '2.0', id: 2, method: 'com.example/jobs/get', params: { jobId: 7, _meta: declared } });
  assert.deepEqual(missing.error, { code: -32602, message: 'com.example/jobs/get: params.jobId must be a string' });
  assert.equal(server.nameParam('com.example/jobs/get'), 'jobId');
  assert.equal(server.nameParam('com.example/jobs/list'), undefined);
  assert.equal(server.nameParam('tools/call'), 'name');
  assert.equal(server.nameParam('resources/read'), 'uri');
  assert.throws(() => createServer({ info, extensions: [{ id: 'com.example/b', methods: { 'com.example/b/x': { required: {} } } }] }), /method com\.example\/b\/x of "com\.example\/b" needs run\(params, ctx\)/);
  // A refused extension leaves nothing behind.
  const partial = createServer({ info });
  assert.throws(() => partial.extension({ id: 'com.example/c', methods: { 'com.example/c/a': () => ({}), 'com.example/c/b': {} } }), /needs run/);
  assert.deepEqual(partial.capabilities('modern').extensions, undefined);
  assert.equal(partial.nameParam('com.example/c/a'), undefined);
});

test('an extension adds a subscriptions/listen key: agreed values are acknowledged, notifySubscribers sends on matching streams', async () => {
  const server = fixture({
    extensions: [
      {
        id: 'com.example/jobs',
        subscriptions: {
          jobIds: {
            accept(value, ctx) {
              if (!ctx.client.capabilities.extensions?.['com.example/jobs']) throw new RpcError(-32021, 'declare com.example/jobs');
              const known = value.filter((id) => id.startsWith('job-'));
              return known.length === 0 ? undefined : known;
            },
          },
        },
      },
    ],
  });
  const sent = [];
  const connection = server.connect({ send: (m) => sent.push(m) });
  const declared = meta({ extensions: { 'com.example/jobs': {} } });
  const listening = connection.handle({ jsonrpc: '2.0', id: 'jobs', method: 'subscriptions/listen', params: { notifications: { jobIds: ['job-1', 'other'], toolsListChanged: true }, _meta: declared } });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent[0].params.notifications, { toolsListChanged: true, jobIds: ['job-1'] });
  const note = (id) => ({ jsonrpc: '2.0', method: 'notifications/com.example/job', params: { id } });
  const matching = (id) => (agreed) => agreed.includes(id);
  server.notifySubscribers('jobIds', matching('job-2'), note('job-2'));
  server.notifySubscribers('jobIds', matching('job-1'), note('job-1'));
  server.notifySubscribers('otherKey', () => true, note('job-1'));
  assert.deepEqual(sent.slice(1), [{ jsonrpc: '2.0', method: 'notifications/com.example/job', params: { id: 'job-1', _meta: { 'io.modelcontextprotocol/subscriptionId': 'jobs' } } }]);
  // Nothing agreed: the key is left out of the acknowledgement.
  connection.handle({ jsonrpc: '2.0', id: 'none', method: 'subscriptions/listen', params: { notifications: { jobIds: ['x'] }, _meta: declared } });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.at(-1).params.notifications, {});
  // A topic that refuses refuses the whole subscription, before any acknowledgement.
  const count = sent.length;
  const refused = await connection.handle({ jsonrpc: '2.0', id: 'no', method: 'subscriptions/listen', params: { notifications: { jobIds: [] }, _meta: meta() } });
  assert.deepEqual(refused.error, { code: -32021, message: 'declare com.example/jobs' });
  assert.equal(sent.length, count);
  connection.endSubscriptions();
  assert.equal((await listening).result._meta['io.modelcontextprotocol/subscriptionId'], 'jobs');
  assert.throws(() => fixture().extension({ id: 'com.example/t', subscriptions: { toolsListChanged: { accept: () => true } } }), /the subscription key "toolsListChanged" is already taken/);
  assert.throws(() => fixture().extension({ id: 'com.example/t', subscriptions: { k: {} } }), /subscription "k" needs accept\(value, ctx\)/);
});

test('a custom method works in both eras, its result shaped for the revision', async () => {
  const server = createServer({ info }).method('com.example/time', () => ({ now: 1 }), { cacheScope: 'private' });
  await server.handle(init());
  assert.deepEqual((await server.handle({ jsonrpc: '2.0', id: 1, method: 'com.example/time' })).result, { now: 1 });
  const modern = (await server.handle({ jsonrpc: '2.0', id: 2, method: 'com.example/time', params: { _meta: meta() } })).result;
  assert.deepEqual([modern.now, modern.resultType, modern.cacheScope, modern.ttlMs], [1, 'complete', 'private', 0]);
  assert.deepEqual(modern._meta['io.modelcontextprotocol/serverInfo'], { name: info.name, version: info.version });
});

test('a method of a capability the server does not announce is -32601 in both eras', async () => {
  const server = createServer({ info, tools: [echo] });
  await server.handle(init());
  for (const method of ['prompts/list', 'resources/read', 'completion/complete']) {
    const legacy = await server.handle({ jsonrpc: '2.0', id: 1, method, params: { uri: 'mem://x' } });
    assert.equal(legacy.error.code, -32601, method);
    const modern = await server.handle({ jsonrpc: '2.0', id: 2, method, params: { uri: 'mem://x', _meta: meta() } });
    assert.equal(modern.error.code, -32601, method);
  }
  assert.match((await server.handle({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'x' } })).error.message, /this server has no prompts/);
});

test('trace context comes from params._meta, else from HTTP headers; a malformed traceparent is ignored', async () => {
  const seen = [];
  const server = fixture({ middleware: [(ctx, next) => (seen.push(ctx.trace), next())] });
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta({}, { traceparent, tracestate: 'v=1' }) } });
  await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta({}, { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }) } });
  await server.handle({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta({}, { traceparent: 'garbage' }) } });
  const http = createFetchHandler(server);
  await http(new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/list',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: meta() } }),
  }));
  await http.close();
  assert.deepEqual(seen[0], {
    traceparent,
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    parentSpanId: '00f067aa0ba902b7',
    sampled: true,
    tracestate: 'v=1',
  });
  assert.equal(seen[1], undefined);
  assert.equal(seen[2], undefined);
  assert.deepEqual([seen[3].traceId, seen[3].parentSpanId, seen[3].sampled], ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', false]);
});

test('handle() with an inline info literal keeps its connection: a 2025-03-26 batch after initialize is served', async () => {
  const tools = [echo];
  const first = await handle(init('2025-03-26'), [...tools], { name: 'inline', version: '1' });
  assert.equal(first.result.protocolVersion, '2025-03-26');
  const batch = await handle(
    [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ],
    [...tools],
    { version: '1', name: 'inline' },
  );
  assert.ok(Array.isArray(batch), JSON.stringify(batch));
  assert.deepEqual(batch.map((r) => r.id), [1, 2]);
  assert.equal(batch[0].result.content[0].text, 'echo: a');
  // Another info or another tool list is another server (its own handshake).
  const other = await handle([{ jsonrpc: '2.0', id: 1, method: 'ping' }], [...tools], { name: 'inline', version: '2' });
  assert.match(other.error.message, /only part of protocol revision 2025-03-26/);
});

test(`handle() keeps at most ${HANDLE_SERVERS} servers, least recently used out first`, async () => {
  const tools = [echo];
  await handle(init('2025-03-26'), tools, { name: 'kept-0', version: '1' });
  for (let i = 1; i <= HANDLE_SERVERS; i++) await handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, tools, { name: `kept-${i}`, version: '1' });
  const batch = await handle([{ jsonrpc: '2.0', id: 1, method: 'ping' }], tools, { name: 'kept-0', version: '1' });
  assert.match(batch.error.message, /batches are only part of protocol revision 2025-03-26 \(this connection uses 2025-11-25\)/, 'kept-0 was dropped: a new connection');
});

test('tools, resources and prompts announce list changes whichever way they change, in both eras', async () => {
  const server = fixture();
  const legacy = [];
  const connection = server.connect({ send: (m) => legacy.push(m.method) });
  await connection.handle(init());
  await connection.handle(INITIALIZED);
  const modern = [];
  const listener = server.connect({ send: (m) => modern.push(m.method) });
  const listening = listener.handle({
    jsonrpc: '2.0',
    id: 'sub',
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, _meta: meta() },
  });
  const tool = { name: 'extra', description: 'Extra.', inputSchema: { type: 'object' }, run: () => 'x' };
  server.tools.add(tool);
  server.tools.remove('extra');
  server.prompts.add({ name: 'p2', get: () => 'x' });
  server.prompts.remove('p2');
  server.resources.add({ uri: 'mem://other', name: 'other', read: () => 'o' }, { uriTemplate: 'mem://t/{x}', name: 't', read: () => 't' });
  server.resources.remove('mem://t/{x}');
  assert.equal(server.tools.remove('never'), false);
  const expected = [
    'notifications/tools/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/prompts/list_changed',
    'notifications/resources/list_changed',
    'notifications/resources/list_changed',
  ];
  assert.deepEqual(legacy, expected);
  assert.deepEqual(modern, ['notifications/subscriptions/acknowledged', ...expected]);
  // A refused add changes nothing and announces nothing.
  assert.throws(() => server.tools.add(tool, { ...tool }), /defined twice/);
  assert.equal(server.tools.get('extra'), undefined);
  assert.equal(legacy.length, 6);
  listener.endSubscriptions();
  assert.ok((await listening).result);
});

test('server.target() gives transports what a request addresses, from the method table', () => {
  const server = fixture();
  assert.deepEqual(server.target('tools/call', { name: 'echo' }), { kind: 'tool', name: 'echo', inputSchema: echo.inputSchema });
  assert.equal(server.target('tools/call', { name: 'nope' }), undefined);
  assert.equal(server.target('tools/list', {}), undefined);
  assert.deepEqual(server.target('prompts/get', { name: 'greet' }), { kind: 'prompt', name: 'greet' });
  const scoped = createServer({ info, tools: [{ ...echo, scopes: ['notes:read'] }] });
  assert.deepEqual(scoped.target('tools/call', { name: 'echo' }).scopes, ['notes:read']);
});

test('ctx.target reads the same inside a tool run under a time-out (a child context)', async () => {
  const seen = [];
  const timed = {
    name: 'timed',
    description: 'Reads its target.',
    inputSchema: { type: 'object' },
    timeoutMs: 1000,
    run: (_args, ctx) => (seen.push(ctx.target, ctx.target), 'ok'),
  };
  const server = createServer({ info, tools: [timed] });
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'timed' } });
  assert.equal(reply.result.content[0].text, 'ok');
  assert.deepEqual(seen, [
    { kind: 'tool', name: 'timed', inputSchema: timed.inputSchema },
    { kind: 'tool', name: 'timed', inputSchema: timed.inputSchema },
  ]);
  assert.equal(seen[0], seen[1], 'resolved once');
});

test('the context of initialize names the revision it negotiates and the client it introduces', async () => {
  const seen = [];
  const server = createServer({ info, middleware: [(ctx, next) => (seen.push([ctx.protocolVersion, ctx.client.name, ctx.client.capabilities]), next())] });
  await server.handle(init('2025-03-26', { roots: {} }));
  await server.connect().handle(init('1999-01-01'));
  assert.deepEqual(seen, [
    ['2025-03-26', 'legacy-client', { roots: {} }],
    ['2025-11-25', 'legacy-client', {}],
  ]);
});
