// Audit records: one per request, with the method, the target, the caller (principal and client),
// the duration and the outcome as the client saw it (ok, isError, input_required, cancelled, or an
// error code), in both eras, over stdio and HTTP; by default one JSON line each on stderr, with
// stdout left to the protocol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, RpcError } from '../../dist/index.js';
import { audit, rateLimit } from '../../dist/policies/index.js';
import { repoRoot } from '../helpers.js';
import { initialize, INITIALIZED, modernHeaders, modernMeta, overHttp, overStdio } from './drive.js';

const info = { name: 'audit-test', version: '1.0.0' };
const EPOCH = Date.UTC(2026, 6, 28, 12, 0, 0);

/** A server whose audit records land in `records`, on a clock its tools move. */
function audited(options = {}, serverOptions = {}) {
  const clock = { now: EPOCH };
  const records = [];
  let release;
  const tools = [
    {
      name: 'work',
      description: 'Works for 250 ms of the test clock.',
      inputSchema: { type: 'object' },
      run: () => {
        clock.now += 250;
        return 'done';
      },
    },
    { name: 'fail', description: 'Fails.', inputSchema: { type: 'object' }, run: () => { throw new Error('disk full'); } },
    {
      name: 'wait',
      description: 'Waits until cancelled.',
      inputSchema: { type: 'object' },
      run: (_args, ctx) => new Promise((resolve) => {
        release = resolve;
        ctx.signal.addEventListener('abort', () => resolve('stopped'));
      }),
    },
    {
      name: 'ask',
      description: 'Asks the user.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => (await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } })).action,
    },
  ];
  const server = createServer({
    info,
    tools,
    prompts: [{ name: 'greet', get: () => 'Hello' }],
    resources: [{ uri: 'mem://note', name: 'note', read: () => 'hi' }],
    middleware: [audit({ sink: (record) => records.push(record), clock: () => clock.now, ...options })],
    report: () => {},
    ...serverOptions,
  });
  server.method('com.example/boom', () => { throw new TypeError('secret detail'); });
  return { server, records, clock, release: () => release?.() };
}
const call = (id, name, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...extra } });

test('a record per request: method, target, caller, duration and outcome, in both eras', async () => {
  const { server, records } = audited();
  const connection = server.connect({ transport: { kind: 'stdio' } });
  await connection.handle(initialize('2025-06-18', 'claude-desktop'));
  await connection.handle(INITIALIZED);
  const principal = { subject: 'alice', clientId: 'desk-app', issuer: 'https://as.example', scopes: ['files'], claims: { email: 'a@example.com' } };
  await connection.handle(call(1, 'work'), { principal });
  await connection.handle(call(2, 'fail'));
  await connection.handle(call(3, 'missing'));
  await connection.handle({ jsonrpc: '2.0', id: 4, method: 'com.example/boom' });
  await connection.handle({ jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'greet', _meta: modernMeta('cursor') } });
  await connection.handle({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'mem://note' } });
  const ask = { _meta: modernMeta('cursor', {}, { elicitation: {} }) };
  await connection.handle(call(7, 'ask', ask));
  assert.deepEqual(records.map((r) => [r.method, r.target, r.outcome, r.errorCode]), [
    ['initialize', undefined, 'ok', undefined],
    ['tools/call', 'work', 'ok', undefined],
    ['tools/call', 'fail', 'isError', undefined],
    ['tools/call', 'missing', 'error', -32602],
    ['com.example/boom', undefined, 'error', -32603],
    ['prompts/get', 'greet', 'ok', undefined],
    ['resources/read', 'mem://note', 'ok', undefined],
    ['tools/call', 'ask', 'input_required', undefined],
  ]);
  assert.deepEqual(records[1], {
    time: '2026-07-28T12:00:00.000Z',
    method: 'tools/call',
    target: 'work',
    requestId: 1,
    protocolVersion: '2025-06-18',
    transport: 'stdio',
    principal: { subject: 'alice', clientId: 'desk-app', issuer: 'https://as.example' },
    client: { name: 'claude-desktop', version: '1' },
    durationMs: 250,
    outcome: 'ok',
  });
  assert.equal(records[3].errorMessage, 'Unknown tool: missing');
  assert.equal(records[4].errorMessage, 'Internal error while handling com.example/boom', 'what the client read, not the detail');
  assert.deepEqual([records[5].protocolVersion, records[5].client], ['2026-07-28', { name: 'cursor', version: '2' }]);
  assert.equal(records[5].time, '2026-07-28T12:00:00.250Z');
  assert.equal(records[5].durationMs, 0);
});

test('a request the client cancels is recorded as cancelled', async () => {
  const { server, records } = audited();
  const connection = server.connect();
  await connection.handle(initialize());
  const pending = connection.handle(call(1, 'wait'));
  await new Promise((resolve) => setImmediate(resolve));
  await connection.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  assert.equal(await pending, null, 'no reply');
  assert.deepEqual(records.at(-1).outcome, 'cancelled');
});

test('put first, audit records the refusals of later middleware (a rate limit), over stdio and HTTP', async () => {
  const clock = { now: 0 };
  const records = [];
  const server = createServer({
    info,
    tools: [{ name: 'work', description: 'Works.', inputSchema: { type: 'object' }, run: () => 'done' }],
    middleware: [audit({ sink: (r) => records.push(r), clock: () => clock.now }), rateLimit({ limit: 2, clock: () => clock.now })],
  });
  await overStdio(server, [initialize(), call(1, 'work'), call(2, 'work'), { jsonrpc: '2.0', id: 3, method: 'tools/list' }]);
  assert.deepEqual(records.map((r) => [r.transport, r.method, r.outcome, r.errorCode]), [
    ['stdio', 'initialize', 'ok', undefined],
    ['stdio', 'tools/call', 'ok', undefined],
    ['stdio', 'tools/call', 'isError', undefined],
    ['stdio', 'tools/list', 'error', -31429],
  ]);
  records.length = 0;
  const { post, handler } = overHttp(server);
  const opened = await post(initialize('2025-11-25', 'http-client'));
  const sessionId = opened.headers.get('mcp-session-id');
  await post(call(1, 'work'), { 'mcp-session-id': sessionId });
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta('modern-http') } }, modernHeaders('tools/list'));
  await handler.close();
  assert.deepEqual(records.map((r) => [r.transport, r.sessionId, r.method, r.client?.name, r.outcome]), [
    ['http', sessionId, 'initialize', 'http-client', 'ok'],
    ['http', sessionId, 'tools/call', 'http-client', 'ok'],
    ['http', undefined, 'tools/list', 'modern-http', 'ok'],
  ]);
});

test('methods picks what is audited; a sink that throws is reported and the reply is untouched', async () => {
  const lines = [];
  const records = [];
  const server = createServer({
    info,
    report: (line) => lines.push(line),
    middleware: [audit({ methods: ['com.example/x'], sink: (r) => records.push(r.method) }), audit({ sink: () => { throw new RpcError(1, 'sink down'); } })],
  }).method('com.example/x', () => ({ ok: true }));
  assert.deepEqual((await server.handle({ jsonrpc: '2.0', id: 1, method: 'com.example/x' })).result, { ok: true });
  assert.ok((await server.handle(initialize())).result);
  assert.deepEqual(records, ['com.example/x']);
  assert.deepEqual(lines, ['audit sink failed: sink down', 'audit sink failed: sink down']);
});

test('the default sink writes one JSON line per record to stderr; stdout carries only the replies', async () => {
  const script = `
    import { createServer } from ${JSON.stringify(`${repoRoot}/dist/bundle/index.js`)};
    import { audit } from ${JSON.stringify(`${repoRoot}/dist/bundle/policies/index.js`)};
    import { serveStdio } from ${JSON.stringify(`${repoRoot}/dist/bundle/transport/stdio.js`)};
    const tools = [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, run: () => 'echoed' }];
    serveStdio(createServer({ info: { name: 'audited', version: '1' }, tools, middleware: [audit()] }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  for (const message of [initialize(), INITIALIZED, call(1, 'echo')]) child.stdin.write(JSON.stringify(message) + '\n');
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const out = stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(out.map((m) => m.id), ['init', 1], 'only the two replies on stdout');
  const records = stderr.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => [r.method, r.target, r.outcome, r.transport, r.client?.name]), [
    ['initialize', undefined, 'ok', 'stdio', 'legacy-client'],
    ['tools/call', 'echo', 'ok', 'stdio', 'legacy-client'],
  ]);
  assert.match(records[1].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(typeof records[1].durationMs, 'number');
});
