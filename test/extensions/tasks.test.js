// The tasks extension (SEP-2663) in process: negotiation in both eras, task creation and the
// DetailedTask of every status, input through tasks/update (partial sets, unknown keys), MRTR
// before a task, cancellation, expiry, principal binding, the store's limits, and the bad input of
// the tasks methods. Notifications over subscriptions/listen, stdio and HTTP: tasks-stream.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, RpcError } from '../../dist/index.js';
import { MemoryTaskStore, tasksExtension } from '../../dist/extensions/tasks/index.js';
import { newTaskId } from '../../dist/extensions/tasks/tasks.js';

const info = { name: 'tasks-test', version: '1.0.0' };
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const meta = (capabilities = { extensions: { [TASKS]: {} } }) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_INPUT = { elicitation: {}, extensions: { [TASKS]: {} } };

/** A promise with its resolve function, so a test decides when a tool goes on. */
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves after pending callbacks and one macrotask turn (a question's batch is written then). */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

const gates = new Map();
const aborted = [];
const EMPTY = { type: 'object' };
const tools = [
  { name: 'sync', description: 'Never a task.', inputSchema: EMPTY, run: () => 'inline' },
  {
    name: 'wait',
    description: 'Waits for its gate, then answers.',
    inputSchema: { type: 'object', properties: { gate: { type: 'string' } } },
    taskSupport: 'optional',
    run: async ({ gate: name }, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.push([name, String(ctx.signal.reason?.message)]));
      ctx.progress(1, 2, 'half way');
      ctx.log('info', 'never sent from a task');
      await gates.get(name)?.promise;
      if (ctx.signal.aborted) throw ctx.signal.reason;
      return `done ${name}`;
    },
  },
  { name: 'must', description: 'Only as a task.', inputSchema: EMPTY, taskSupport: 'required', run: () => 'must done' },
  { name: 'oops', description: 'A tool error.', inputSchema: EMPTY, taskSupport: 'optional', run: () => { throw new Error('it broke'); } },
  { name: 'refused', description: 'A protocol error.', inputSchema: EMPTY, taskSupport: 'optional', run: () => 'never' },
  { name: 'bigint', description: 'A result JSON cannot carry.', inputSchema: EMPTY, taskSupport: 'optional', run: () => ({ content: [], structuredContent: { n: 1n } }) },
  {
    name: 'ask2',
    description: 'Asks two questions at once, then a third.',
    inputSchema: EMPTY,
    taskSupport: 'optional',
    run: async (_args, ctx) => {
      const ask = (message) => ctx.elicit({ message, requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } });
      const [a, b] = await Promise.all([ask('first?'), ask('second?')]);
      const c = await ask('third?');
      return [a, b, c].map((r) => r.content.v).join(',');
    },
  },
  {
    name: 'mrtr_then_task',
    description: 'Asks inline (multi round-trip), then goes on as a task.',
    inputSchema: EMPTY,
    taskSupport: 'required',
    run: async (_args, ctx) => {
      const name = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object' } }, { key: 'user_name' });
      const started = await ctx.task.start();
      await ctx.task.status(`working for ${name.content.name}`);
      return `hello ${name.content.name} (task ${started}, ${ctx.task.taskId !== undefined})`;
    },
  },
  {
    name: 'maybe_task',
    description: 'Starts a task only when asked to.',
    inputSchema: { type: 'object', properties: { start: { type: 'boolean' } } },
    taskSupport: 'optional',
    run: async ({ start }, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.push(['maybe', String(ctx.signal.reason?.message ?? ctx.signal.reason?.toString())]));
      if (start) await ctx.task.start();
      await gates.get('maybe')?.promise;
      // A call cancelled while inline cannot become a task any more.
      if (ctx.signal.aborted) await ctx.task.start().catch((error) => aborted.push(['maybe-start', String(error.toString())]));
      return `maybe done (${ctx.task?.taskId === undefined ? 'inline' : 'task'})`;
    },
  },
];

function fixture(options = {}, serverOptions = {}) {
  const lines = [];
  const server = createServer({
    info,
    tools,
    extensions: [tasksExtension({ startAsTask: (tool) => !['mrtr_then_task', 'maybe_task'].includes(tool.name), ...options })],
    toolHooks: [{ before: ({ tool }) => { if (tool.name === 'refused') throw new RpcError(-32001, 'refused by policy'); } }],
    report: (line) => lines.push(line),
    ...serverOptions,
  });
  let id = 0;
  const call = async (method, params = {}, capabilities, transport) => {
    const message = { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta(capabilities) } };
    return transport === undefined ? server.handle(message) : server.connect().handle(message, transport);
  };
  /** Polls tasks/get until `done(task)`; each poll lets the server run a turn. */
  const until = async (taskId, done, capabilities, transport) => {
    for (let i = 0; i < 200; i++) {
      const reply = await call('tasks/get', { taskId }, capabilities, transport);
      if (reply.error !== undefined || done(reply.result)) return reply;
      await turn();
    }
    throw new Error(`task ${taskId} never got there`);
  };
  return { server, call, until, lines };
}

const terminal = (task) => ['completed', 'failed', 'cancelled'].includes(task.status);

test('the extension is announced in server/discover only, and its methods are 2026-07-28 methods', async () => {
  const { server } = fixture();
  const discover = await server.handle({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
  assert.deepEqual(discover.result.capabilities.extensions, { [TASKS]: {} });
  assert.equal(discover.result.capabilities.tasks, undefined);
  const init = await server.handle({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { extensions: { [TASKS]: {} } }, clientInfo: { name: 'c', version: '1' } } });
  assert.equal(init.result.capabilities.extensions, undefined);
  const legacy = await server.handle({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: 'x' } });
  assert.equal(legacy.error.code, -32601);
  for (const method of ['tasks/result', 'tasks/list']) {
    const removed = await server.handle({ jsonrpc: '2.0', id: 4, method, params: { taskId: 'x', _meta: meta() } });
    assert.deepEqual(removed.error, { code: -32601, message: `Method not found: ${method}` });
  }
});

test('a call that becomes a task is answered with a flat CreateTaskResult; the task exists before the reply', async () => {
  const { call } = fixture();
  gates.set('create', gate());
  const created = (await call('tools/call', { name: 'wait', arguments: { gate: 'create' }, task: { ttl: 1 } })).result;
  assert.equal(created.resultType, 'task');
  assert.match(created.taskId, /^[A-Za-z0-9_-]{27}$/);
  assert.equal(created.status, 'working');
  assert.match(created.createdAt, ISO);
  assert.match(created.lastUpdatedAt, ISO);
  assert.equal(created.ttlMs, 3_600_000);
  assert.equal(created.pollIntervalMs, 1000);
  for (const field of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval', 'content']) {
    assert.equal(field in created, false, `no ${field}`);
  }
  // Read at once, without waiting: the task is there.
  const working = (await call('tasks/get', { taskId: created.taskId })).result;
  assert.equal(working.resultType, 'complete');
  assert.equal(working.taskId, created.taskId);
  assert.equal(working.status, 'working');
  // ctx.progress became the statusMessage; ctx.log sent nothing.
  assert.equal(working.statusMessage, 'half way');
  assert.equal('result' in working, false);
  gates.get('create').open();
});

test('tasks/get gives completed with the result (isError too), failed with the JSON-RPC error', async () => {
  const { call, until } = fixture();
  gates.set('done', gate());
  const task = (await call('tools/call', { name: 'wait', arguments: { gate: 'done' } })).result;
  gates.get('done').open();
  const completed = (await until(task.taskId, terminal)).result;
  assert.equal(completed.status, 'completed');
  assert.deepEqual(completed.result, { content: [{ type: 'text', text: 'done done' }] });
  const oops = (await call('tools/call', { name: 'oops' })).result;
  const toolError = (await until(oops.taskId, terminal)).result;
  assert.equal(toolError.status, 'completed');
  assert.deepEqual(toolError.result, { content: [{ type: 'text', text: 'it broke' }], isError: true });
  const refused = (await call('tools/call', { name: 'refused' })).result;
  const failed = (await until(refused.taskId, terminal)).result;
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.error, { code: -32001, message: 'refused by policy' });
  assert.equal(failed.statusMessage, 'refused by policy');
  assert.equal('result' in failed, false);
  const big = (await call('tools/call', { name: 'bigint' })).result;
  const unstorable = (await until(big.taskId, terminal)).result;
  assert.equal(unstorable.status, 'failed');
  assert.deepEqual(unstorable.error, { code: -32603, message: 'Internal error: the result could not be stored (is it JSON?)' });
});

test('a client that did not declare the extension gets no task: inline for optional tools, -32021 otherwise', async () => {
  const { call, server } = fixture();
  const none = {};
  gates.set('inline', gate());
  gates.get('inline').open();
  const inline = (await call('tools/call', { name: 'wait', arguments: { gate: 'inline' } }, none)).result;
  assert.deepEqual([inline.resultType, inline.content[0].text, inline.taskId], ['complete', 'done inline', undefined]);
  const required = await call('tools/call', { name: 'must' }, none);
  assert.equal(required.error.code, -32021);
  assert.match(required.error.message, /extension io\.modelcontextprotocol\/tasks \(tool "must" runs only as a task/);
  assert.deepEqual(required.error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
  for (const [method, params] of [['tasks/get', { taskId: 'x' }], ['tasks/update', { taskId: 'x', inputResponses: {} }], ['tasks/cancel', { taskId: 'x' }]]) {
    const refused = await call(method, params, none);
    assert.equal(refused.error.code, -32021, method);
    assert.deepEqual(refused.error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
  }
  // A never-task tool stays inline for a client that declared the extension, legacy task param or not.
  const sync = (await call('tools/call', { name: 'sync', task: { ttl: 60000 } })).result;
  assert.deepEqual([sync.resultType, sync.content[0].text], ['complete', 'inline']);
  // Legacy era: the extension does not exist; a required tool is -32601 as in 2025-11-25.
  await server.handle({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { extensions: { [TASKS]: {} } }, clientInfo: { name: 'c', version: '1' } } });
  const legacyRequired = await server.handle({ jsonrpc: '2.0', id: 'l1', method: 'tools/call', params: { name: 'must' } });
  assert.equal(legacyRequired.error.code, -32601);
  assert.match(legacyRequired.error.message, /tool "must" runs only as a task .* this request uses 2025-11-25/);
  const legacyOptional = await server.handle({ jsonrpc: '2.0', id: 'l2', method: 'tools/call', params: { name: 'wait', arguments: { gate: 'inline' } } });
  assert.equal(legacyOptional.result.content[0].text, 'done inline');
  const unknown = await call('tools/call', { name: 'nope' });
  assert.equal(unknown.error.code, -32602);
});

test('a task asking for input is input_required with MRTR-shaped inputRequests; tasks/update takes partial sets', async () => {
  const { call, until } = fixture();
  const task = (await call('tools/call', { name: 'ask2' }, WITH_INPUT)).result;
  const waiting = (await until(task.taskId, (t) => t.status === 'input_required', WITH_INPUT)).result;
  assert.deepEqual(Object.keys(waiting.inputRequests), ['input-1', 'input-2']);
  assert.deepEqual(waiting.inputRequests['input-1'], { method: 'elicitation/create', params: { message: 'first?', requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } } });
  const answer = (v) => ({ action: 'accept', content: { v } });
  // A value that is not an object, for an outstanding key: -32602.
  const bad = await call('tasks/update', { taskId: task.taskId, inputResponses: { 'input-1': 'yes' } }, WITH_INPUT);
  assert.deepEqual(bad.error, { code: -32602, message: 'tasks/update: inputResponses["input-1"] must be an object (the result of the request it answers)' });
  // One of two, plus an unknown key: acknowledged; only the other key stays outstanding.
  const ack = await call('tasks/update', { taskId: task.taskId, inputResponses: { 'input-1': answer('a'), stranger: answer('?') } }, WITH_INPUT);
  assert.deepEqual(Object.keys(ack.result).sort(), ['_meta', 'resultType']);
  assert.equal(ack.result.resultType, 'complete');
  const partial = (await call('tasks/get', { taskId: task.taskId }, WITH_INPUT)).result;
  assert.equal(partial.status, 'input_required');
  assert.deepEqual(Object.keys(partial.inputRequests), ['input-2']);
  await call('tasks/update', { taskId: task.taskId, inputResponses: { 'input-2': answer('b'), 'input-1': answer('again') } }, WITH_INPUT);
  // The third question gets a new key (keys are unique over the task's life).
  const third = (await until(task.taskId, (t) => t.inputRequests?.['input-3'] !== undefined, WITH_INPUT)).result;
  assert.deepEqual(Object.keys(third.inputRequests), ['input-3']);
  await call('tasks/update', { taskId: task.taskId, inputResponses: { 'input-3': answer('c') } }, WITH_INPUT);
  const done = (await until(task.taskId, terminal, WITH_INPUT)).result;
  assert.deepEqual([done.status, done.result.content[0].text, 'inputRequests' in done], ['completed', 'a,b,c', false]);
  // A finished task: acknowledged, ignored.
  const late = await call('tasks/update', { taskId: task.taskId, inputResponses: { 'input-3': answer('z') } }, WITH_INPUT);
  assert.equal(late.result.resultType, 'complete');
  assert.equal((await call('tasks/get', { taskId: task.taskId }, WITH_INPUT)).result.result.content[0].text, 'a,b,c');
  // A task without the elicitation capability fails with -32021, as the call would have.
  const noElicit = (await call('tools/call', { name: 'ask2' })).result;
  const failed = (await until(noElicit.taskId, terminal)).result;
  assert.deepEqual([failed.status, failed.error.code], ['failed', -32021]);
});

test('input is gathered by multi round-trip first, then the call becomes a task that carries the answer', async () => {
  const { call, until } = fixture();
  const round1 = (await call('tools/call', { name: 'mrtr_then_task' }, WITH_INPUT)).result;
  assert.equal(round1.resultType, 'input_required');
  assert.equal('taskId' in round1, false);
  assert.deepEqual(Object.keys(round1.inputRequests), ['user_name']);
  const round2 = (await call('tools/call', {
    name: 'mrtr_then_task',
    inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    requestState: round1.requestState,
  }, WITH_INPUT)).result;
  assert.equal(round2.resultType, 'task');
  assert.equal('requestState' in round2, false);
  assert.equal('inputRequests' in round2, false);
  const done = (await until(round2.taskId, terminal, WITH_INPUT)).result;
  assert.equal(done.result.content[0].text, 'hello Alice (task true, true)');
  assert.equal(done.statusMessage, 'working for Alice');
});

test('a call left inline by startAsTask answers inline unless run starts the task; a cancel reaches it while inline', async () => {
  const { call, server } = fixture();
  gates.set('maybe', gate());
  gates.get('maybe').open();
  const inline = (await call('tools/call', { name: 'maybe_task', arguments: { start: false } })).result;
  assert.deepEqual([inline.resultType, inline.content[0].text], ['complete', 'maybe done (inline)']);
  const late = (await call('tools/call', { name: 'maybe_task', arguments: { start: true } })).result;
  assert.equal(late.resultType, 'task');
  // A cancel of the request while the call is inline aborts its run.
  gates.set('maybe', gate());
  const inlineRun = server.connect();
  const waiting = inlineRun.handle({ jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: { name: 'maybe_task', arguments: {}, _meta: meta() } });
  await turn();
  inlineRun.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c2' } });
  assert.deepEqual(aborted.filter(([name]) => name === 'maybe'), [['maybe', 'Symbol(cancelled by the client)']]);
  gates.get('maybe').open();
  assert.equal(await waiting, null, 'a cancelled request gets no reply');
  assert.deepEqual(aborted.filter(([name]) => name === 'maybe-start'), [['maybe-start', 'Symbol(cancelled by the client)']]);
});

test('tasks/cancel acks at once, aborts the run through its signal and settles the task as cancelled', async () => {
  const { call, until } = fixture();
  gates.set('cancel', gate());
  const task = (await call('tools/call', { name: 'wait', arguments: { gate: 'cancel' } })).result;
  const ack = (await call('tasks/cancel', { taskId: task.taskId })).result;
  assert.deepEqual(Object.keys(ack).sort(), ['_meta', 'resultType']);
  assert.equal(ack.resultType, 'complete');
  assert.deepEqual(aborted.find(([name]) => name === 'cancel'), ['cancel', 'the task was cancelled (tasks/cancel)']);
  gates.get('cancel').open();
  const cancelled = (await until(task.taskId, terminal)).result;
  assert.equal(cancelled.status, 'cancelled');
  assert.equal('result' in cancelled, false);
  // Idempotent on a terminal task.
  assert.equal((await call('tasks/cancel', { taskId: task.taskId })).result.resultType, 'complete');
  assert.equal((await call('tasks/get', { taskId: task.taskId })).result.status, 'cancelled');
});

test('an unknown, malformed or expired taskId is -32602 with a clear message; an expired run is aborted', async () => {
  let now = Date.now();
  const store = new MemoryTaskStore({ now: () => now });
  const { call } = fixture({ store, ttlMs: 1000 });
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    const reply = await call(method, { taskId: 'tasks-conformance-nonexistent-12345', inputResponses: {} });
    const action = { 'tasks/get': 'retrieve', 'tasks/update': 'update', 'tasks/cancel': 'cancel' }[method];
    assert.deepEqual(reply.error, { code: -32602, message: `Failed to ${action} task: Task not found` });
  }
  assert.deepEqual((await call('tasks/get', {})).error, { code: -32602, message: 'tasks/get: params.taskId must be a string' });
  assert.deepEqual((await call('tasks/update', { taskId: 'x' })).error, { code: -32602, message: 'tasks/update: params.inputResponses must be an object' });
  gates.set('expire', gate());
  const task = (await call('tools/call', { name: 'wait', arguments: { gate: 'expire' } })).result;
  assert.equal(task.ttlMs, 1000);
  now += 1000;
  assert.deepEqual((await call('tasks/get', { taskId: task.taskId })).error, { code: -32602, message: 'Failed to retrieve task: Task has expired' });
  // The next creation sweeps: the expired run is aborted.
  gates.set('other', gate());
  await call('tools/call', { name: 'wait', arguments: { gate: 'other' } });
  assert.deepEqual(aborted.find(([name]) => name === 'expire'), ['expire', 'the task expired (its ttlMs passed)']);
  gates.get('expire').open();
  gates.get('other').open();
});

test('with a principal, a task is bound to it; without one, the task id is the bearer handle', async () => {
  const { call } = fixture();
  const alice = { principal: { subject: 'alice', issuer: 'https://as.example', scopes: [], claims: {} } };
  const bob = { principal: { subject: 'bob', issuer: 'https://as.example', scopes: [], claims: {} } };
  gates.set('bound', gate());
  const mine = (await call('tools/call', { name: 'wait', arguments: { gate: 'bound' } }, undefined, alice)).result;
  assert.equal((await call('tasks/get', { taskId: mine.taskId }, undefined, alice)).result.status, 'working');
  for (const who of [bob, undefined]) {
    const other = await call('tasks/get', { taskId: mine.taskId }, undefined, who);
    assert.deepEqual(other.error, { code: -32602, message: 'Failed to retrieve task: Task not found' });
    const cancel = await call('tasks/cancel', { taskId: mine.taskId }, undefined, who);
    assert.equal(cancel.error.code, -32602);
  }
  assert.equal((await call('tasks/get', { taskId: mine.taskId }, undefined, alice)).result.status, 'working');
  const open = (await call('tools/call', { name: 'wait', arguments: { gate: 'bound' } })).result;
  assert.equal((await call('tasks/get', { taskId: open.taskId }, undefined, bob)).result.status, 'working');
  gates.get('bound').open();
});

test('at the store limit an optional tool answers inline, a required one -32603 naming the limit; earlier tasks stay', async () => {
  const { call } = fixture({ store: new MemoryTaskStore({ maxTasks: 2 }) });
  gates.set('full', gate());
  const first = (await call('tools/call', { name: 'wait', arguments: { gate: 'full' } })).result;
  const second = (await call('tools/call', { name: 'wait', arguments: { gate: 'full' } })).result;
  gates.set('inline-full', gate());
  gates.get('inline-full').open();
  const inline = (await call('tools/call', { name: 'wait', arguments: { gate: 'inline-full' } })).result;
  assert.deepEqual([inline.resultType, inline.content[0].text], ['complete', 'done inline-full']);
  const refused = await call('tools/call', { name: 'must' });
  assert.deepEqual(refused.error, { code: -32603, message: 'Internal error: tool "must" runs only as a task, and the task store is full (maxTasks 2); retry later' });
  const late = await call('tools/call', { name: 'maybe_task', arguments: { start: true } });
  assert.equal(late.result.content[0].text, 'maybe done (inline)');
  for (const task of [first, second]) assert.equal((await call('tasks/get', { taskId: task.taskId })).result.status, 'working');
  gates.get('full').open();
});

test('task ids are 160 random bits, base64url; options and a required tool without the extension are checked', () => {
  const ids = new Set(Array.from({ length: 1000 }, newTaskId));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{27}$/);
  assert.throws(() => tasksExtension({ ttlMs: 0 }), /ttlMs must be a positive integer/);
  assert.throws(() => tasksExtension({ pollIntervalMs: 1.5 }), /pollIntervalMs must be a positive integer/);
  const lines = [];
  createServer({ info, tools: [tools[2]], report: (line) => lines.push(line) });
  assert.deepEqual(lines, ['tool "must" requires running as a task, but no extension (the tasks extension) handles tools/call: add tasksExtension() to extensions']);
  assert.throws(() => createServer({ info, tools: [{ ...tools[0], taskSupport: 'always' }] }), /taskSupport must be one of forbidden, optional, required \(got "always"\)/);
});

test('two replicas sharing a store: an answer or a cancel given to one reaches the run on the other', async () => {
  const store = new MemoryTaskStore();
  const a = fixture({ store, pollIntervalMs: 5 });
  const b = fixture({ store, pollIntervalMs: 5 });
  const task = (await a.call('tools/call', { name: 'ask2' }, WITH_INPUT)).result;
  const waiting = (await b.until(task.taskId, (t) => t.status === 'input_required', WITH_INPUT)).result;
  const answers = Object.fromEntries(Object.keys(waiting.inputRequests).map((k) => [k, { action: 'accept', content: { v: k } }]));
  await b.call('tasks/update', { taskId: task.taskId, inputResponses: answers }, WITH_INPUT);
  // Replica A reads the store while its run waits: the third question appears.
  const third = (await b.until(task.taskId, (t) => t.inputRequests?.['input-3'] !== undefined, WITH_INPUT)).result;
  assert.equal(third.status, 'input_required');
  assert.equal((await b.call('tasks/cancel', { taskId: task.taskId }, WITH_INPUT)).result.resultType, 'complete');
  const cancelled = (await a.until(task.taskId, terminal, WITH_INPUT)).result;
  assert.equal(cancelled.status, 'cancelled');
});

test('a store that fails to create: an optional tool answers inline, a required one -32603; both reported', async () => {
  const broken = {
    create: async () => { throw new Error('connection refused'); },
    get: async () => undefined,
    update: async () => undefined,
    cancel: async () => undefined,
    expire: async () => [],
  };
  const { call, lines } = fixture({ store: broken });
  gates.set('broken', gate());
  gates.get('broken').open();
  const inline = (await call('tools/call', { name: 'wait', arguments: { gate: 'broken' } })).result;
  assert.equal(inline.content[0].text, 'done broken');
  const refused = await call('tools/call', { name: 'must' });
  assert.deepEqual(refused.error, { code: -32603, message: 'Internal error: tool "must" runs only as a task, and the task could not be created' });
  assert.deepEqual(lines, [
    'tasks: could not create a task for tool "wait": connection refused',
    'tasks: could not create a task for tool "must": connection refused',
  ]);
});
