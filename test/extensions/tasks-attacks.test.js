// Attacks on the tasks extension found by the security review: one caller filling the task store
// so that every other caller's task-only tools fail for an hour, a task run that outlives its TTL
// when nothing else touches the store, and a notifications/tasks subscription to another
// caller's task. Callers are principals handed to the connection, as the HTTP transport does
// after it verified a token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { MemoryTaskStore, tasksExtension } from '../../dist/extensions/tasks/index.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
};
const caller = (subject) => ({ principal: { subject, issuer: 'https://as.example', scopes: [], claims: {} } });
const MALLORY = caller('mallory');
const ALICE = caller('alice');

function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

function fixture(options) {
  const hold = gate();
  const aborted = [];
  const server = createServer({
    info: { name: 'tasks-attacks', version: '1.0.0' },
    tools: [
      { name: 'quick', description: 'Only as a task; done at once.', inputSchema: { type: 'object' }, taskSupport: 'required', run: () => 'quick done' },
      {
        name: 'hold',
        description: 'A task that waits until the test lets it go, or its signal aborts.',
        inputSchema: { type: 'object' },
        taskSupport: 'required',
        run: async (_args, ctx) => {
          await new Promise((resolve) => {
            ctx.signal.addEventListener('abort', () => (aborted.push(String(ctx.signal.reason?.message)), resolve()));
            hold.promise.then(resolve);
          });
          await ctx.task.status('let go');
          return 'held';
        },
      },
    ],
    extensions: [tasksExtension(options)],
    report: () => {},
  });
  let id = 0;
  const call = (method, params, who, send) =>
    server.connect(send === undefined ? {} : { send }).handle({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } }, who);
  return { server, call, hold, aborted };
}

test('one caller cannot fill the task store for everyone: past maxTasksPerOwner its own creations are refused, others go on', async () => {
  const { call } = fixture({ store: new MemoryTaskStore({ maxTasks: 10, maxTasksPerOwner: 3 }) });
  const flood = await Promise.all(Array.from({ length: 10 }, () => call('tools/call', { name: 'quick' }, MALLORY)));
  assert.equal(flood.filter((r) => r.result?.resultType === 'task').length, 3);
  const refused = flood.filter((r) => r.error !== undefined);
  assert.equal(refused.length, 7);
  assert.deepEqual(refused[0].error, {
    code: -32603,
    message: 'Internal error: tool "quick" runs only as a task, and the caller holds as many tasks as it may (maxTasksPerOwner 3); retry later',
  });
  const alice = await call('tools/call', { name: 'quick' }, ALICE);
  assert.equal(alice.result?.resultType, 'task', JSON.stringify(alice.error));
  // Nothing was lost for the tasks created.
  for (const task of flood.filter((r) => r.result !== undefined)) {
    assert.equal((await call('tasks/get', { taskId: task.result.taskId }, MALLORY)).result.status, 'completed');
  }
});

test('MemoryTaskStore: maxTasksPerOwner defaults to a tenth of maxTasks, frees up as tasks expire, and is checked', async () => {
  let now = 0;
  const store = new MemoryTaskStore({ maxTasks: 20, now: () => now });
  const task = (taskId, owner) => ({ taskId, status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: 1000, ...(owner ? { owner } : {}) });
  await store.create(task('m1', 'mallory'));
  await store.create(task('m2', 'mallory'));
  await assert.rejects(store.create(task('m3', 'mallory')), { name: 'TaskStoreFullError', limit: 'maxTasksPerOwner 2' });
  await store.create(task('a1', 'alice'));
  for (const id of ['n1', 'n2', 'n3']) await store.create(task(id));
  now += 1000;
  await store.create(task('m4', 'mallory'));
  assert.equal(store.size, 1, 'the expired tasks were swept to make room');
  for (const maxTasksPerOwner of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new MemoryTaskStore({ maxTasksPerOwner }), /MemoryTaskStore: maxTasksPerOwner must be a positive integer/);
  }
});

test('a task run is aborted when its ttlMs passes, even when no other task is created to sweep the store', async () => {
  const { call, aborted } = fixture({ ttlMs: 50 });
  const created = await call('tools/call', { name: 'hold' }, ALICE);
  assert.equal(created.result.resultType, 'task');
  const deadline = Date.now() + 5000;
  while (aborted.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(aborted, ['the task expired (its ttlMs passed)']);
  const gone = await call('tasks/get', { taskId: created.result.taskId }, ALICE);
  assert.deepEqual(gone.error, { code: -32602, message: 'Failed to retrieve task: Task has expired' });
});

test("a notifications/tasks subscription to another caller's task acknowledges nothing and receives nothing", async () => {
  const { call, hold } = fixture();
  const created = await call('tools/call', { name: 'hold' }, ALICE);
  const taskId = created.result.taskId;
  const listen = (who) => {
    const sent = [];
    const reply = call('subscriptions/listen', { notifications: { taskIds: [taskId] } }, who, (m) => sent.push(m));
    return { sent, reply };
  };
  const bob = listen(caller('bob'));
  const anonymous = listen(undefined);
  const alice = listen(ALICE);
  await new Promise((resolve) => setTimeout(resolve, 10));
  for (const other of [bob, anonymous]) {
    assert.deepEqual(other.sent.map((m) => [m.method, m.params.notifications]), [['notifications/subscriptions/acknowledged', {}]]);
  }
  assert.deepEqual(alice.sent[0].params.notifications, { taskIds: [taskId] });
  hold.open();
  const deadline = Date.now() + 5000;
  while (!alice.sent.some((m) => m.params?.status === 'completed') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(alice.sent.some((m) => m.method === 'notifications/tasks' && m.params.status === 'completed'), 'the owner is told');
  for (const other of [bob, anonymous]) assert.equal(other.sent.filter((m) => m.method === 'notifications/tasks').length, 0);
});
