// Replicas behind a plain round robin, in-process: several servers, each with its own fetch handler,
// sharing only a session store, an event store, an event bus and a task store. One case suite, run
// with the in-memory stores (replicas.test.js) and with the Redis ones (test/stores/redis.test.js).
// `make()` resolves to { sessionStore, eventStore, bus, taskStore, close } for one test: fresh,
// shared by the test's replicas.
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/http.js';
import { tasksExtension } from '../../dist/extensions/tasks/index.js';

const URL_ = 'http://localhost/mcp';
const MODERN = '2026-07-28';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The tools every replica serves (the same code, as replicas of one deployment run). */
function tools(seen, gates) {
  return [
    { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, run: ({ text }) => String(text) },
    {
      name: 'ask',
      description: 'Asks the user for a name.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => {
        const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
        return `Hello, ${answer.content?.name}!`;
      },
    },
    {
      name: 'wait',
      description: 'Logs, reports progress, then waits for its gate (or a cancel).',
      inputSchema: { type: 'object' },
      run: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.log('info', 'waiting');
          ctx.progress(1, 2);
          gates.push(() => resolve('opened'));
          ctx.signal.addEventListener('abort', () => {
            seen.aborted++;
            resolve('aborted');
          });
        }),
    },
    {
      name: 'sleepy',
      description: 'A task that sleeps until cancelled.',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      run: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          seen.tasksStarted++;
          ctx.signal.addEventListener('abort', () => {
            seen.tasksAborted++;
            reject(ctx.signal.reason);
          });
        }),
    },
  ];
}

/** `count` replicas sharing `stores`; requests go round robin through `next()`. */
async function replicas(stores, count = 3) {
  const seen = { aborted: 0, tasksStarted: 0, tasksAborted: 0 };
  const gates = [];
  const list = [];
  for (let i = 0; i < count; i++) {
    const server = createServer({
      info: { name: `replica-${i}`, version: '1.0.0' },
      tools: tools(seen, gates),
      resources: [{ uri: 'test://r', name: 'r', read: () => 'r' }],
      stateSecret: 'shared secret',
      bus: stores.bus,
      extensions: [tasksExtension({ store: stores.taskStore, pollIntervalMs: 60_000 })],
      report: () => {},
    });
    await server.busReady();
    const handler = createFetchHandler(server, { keepAliveMs: 0, sessionStore: stores.sessionStore, eventStore: stores.eventStore });
    list.push({ server, handler });
  }
  let turn = 0;
  const next = () => list[turn++ % list.length].handler;
  const close = () => Promise.all(list.map((r) => r.handler.close()));
  return { list, next, seen, gates, close };
}

function post(handler, body, headers = {}) {
  return handler(new Request(URL_, { method: 'POST', body: JSON.stringify(body), headers: { ...JSON_HEADERS, ...headers } }));
}
function get(handler, headers) {
  return handler(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', ...headers } }));
}

/** Reads SSE events ({ id, data }) until `until(events)` holds or the stream ends. */
async function read(response, until = () => false, reader = response.body.getReader()) {
  const decoder = new TextDecoder();
  const found = [];
  let buffer = '';
  while (!until(found)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const id = block.find((l) => l.startsWith('id: '))?.slice(4);
      const data = block.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      if (data !== '') found.push({ id, data: JSON.parse(data) });
    }
  }
  return { events: found, reader };
}

async function openSession(next, capabilities = {}) {
  const init = await post(next(), {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'rr', version: '1' } },
  });
  assert.equal(init.status, 200);
  const id = init.headers.get('mcp-session-id');
  await init.json();
  assert.equal((await post(next(), { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).status, 202);
  return id;
}

const until = (predicate) => (events) => events.some((e) => predicate(e.data));
const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the cases with `test`; `make` builds the shared stores of one test. */
export function replicaCases(test, name, make) {
  const withReplicas = (title, body) =>
    test(`${name}: ${title}`, async () => {
      const stores = await make();
      const r = await replicas(stores);
      try {
        await body(r, stores);
      } finally {
        await r.close();
        await stores.close();
      }
    });

  withReplicas('a legacy session opened on one replica serves every request on the others, its state shared', async ({ next }) => {
    const id = await openSession(next);
    const headers = { 'mcp-session-id': id };
    for (let i = 0; i < 3; i++) {
      const list = await post(next(), { jsonrpc: '2.0', id: 10 + i, method: 'tools/list' }, headers);
      assert.equal(list.status, 200, `tools/list #${i}`);
      assert.equal((await list.json()).result.tools.length, 4);
    }
    // The log level set on one replica holds on the next.
    assert.equal((await (await post(next(), { jsonrpc: '2.0', id: 20, method: 'logging/setLevel', params: { level: 'warning' } }, headers)).json()).result !== undefined, true);
    const quiet = await post(next(), { jsonrpc: '2.0', id: 21, method: 'logging/setLevel', params: { level: 'info' } }, headers);
    assert.deepEqual((await quiet.json()).result, {});
  });

  withReplicas('a log level and a resource subscription made on one replica hold on the others', async ({ next, list }) => {
    const id = await openSession(next);
    const headers = { 'mcp-session-id': id };
    await (await post(next(), { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } }, headers)).json();
    // Logged at info: below the level, so no stream; the call answers with plain JSON.
    const call = await post(next(), { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, headers);
    assert.equal(call.headers.get('content-type'), 'application/json');
    await call.json();
    await (await post(next(), { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: 'test://r' } }, headers)).json();
    const stream = await get(next(), headers);
    assert.equal(stream.status, 200);
    // Updated on a replica other than the stream's: the bus carries it.
    await tick();
    list[0].server.resourceUpdated('test://r');
    list[1].server.resourceUpdated('test://r');
    const { events, reader } = await read(stream, (e) => e.length >= 2);
    assert.deepEqual(events.map((e) => e.data.method), ['notifications/resources/updated', 'notifications/resources/updated']);
    assert.match(events[0].id, /^[A-Za-z0-9_-]{16}\.1$/);
    await reader.cancel();
  });

  withReplicas('the answer to a server-to-client request may reach another replica and still completes the call', async ({ next }) => {
    const id = await openSession(next, { elicitation: {} });
    const headers = { 'mcp-session-id': id };
    const call = await post(next(), { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'ask', arguments: {} } }, headers);
    assert.equal(call.headers.get('content-type'), 'text/event-stream');
    const reader = call.body.getReader();
    const { events } = await read(call, until((m) => m.method === 'elicitation/create'), reader);
    const asked = events[0].data;
    assert.match(asked.id, /^baremcp-/);
    const answered = await post(next(), { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { name: 'Ada' } } }, headers);
    assert.equal(answered.status, 202);
    const rest = await read(call, until((m) => m.id === 6), reader);
    assert.equal(rest.events.at(-1).data.result.content[0].text, 'Hello, Ada!');
  });

  withReplicas('notifications/cancelled for a request running on another replica aborts it there', async ({ next, seen }) => {
    const id = await openSession(next);
    const headers = { 'mcp-session-id': id };
    const call = await post(next(), { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: { progressToken: 'p' } } }, headers);
    const reader = call.body.getReader();
    await read(call, until((m) => m.method === 'notifications/progress'), reader);
    assert.equal((await post(next(), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }, headers)).status, 202);
    for (let i = 0; i < 50 && seen.aborted === 0; i++) await tick();
    assert.equal(seen.aborted, 1);
    // A cancelled request gets no reply: its stream ends.
    const rest = await read(call, () => false, reader);
    assert.equal(rest.events.length, 0);
  });

  withReplicas('a stream that dropped is resumed on another replica with Last-Event-ID: nothing lost, nothing twice', async ({ next, gates }) => {
    const id = await openSession(next);
    const headers = { 'mcp-session-id': id };
    await (await post(next(), { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'info' } }, headers)).json();
    const call = await post(next(), { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: { progressToken: 'p' } } }, headers);
    const reader = call.body.getReader();
    const first = await read(call, (e) => e.length >= 1, reader);
    assert.equal(first.events[0].data.method, 'notifications/message');
    // The client's connection drops after the first event.
    await reader.cancel();
    await tick();
    gates.shift()();
    const resumed = await get(next(), { ...headers, 'last-event-id': first.events[0].id });
    assert.equal(resumed.status, 200);
    const rest = await read(resumed, until((m) => m.id === 8));
    assert.deepEqual(rest.events.map((e) => e.data.method ?? `reply ${e.data.id}`), ['notifications/progress', 'reply 8']);
    assert.equal(rest.events.at(-1).data.result.content[0].text, 'opened');
    const ids = [first.events[0].id, ...rest.events.map((e) => e.id)];
    assert.equal(new Set(ids).size, 3, 'every event has its own id');
    // Resuming again after the reply replays only what came after the given id.
    const again = await get(next(), { ...headers, 'last-event-id': rest.events[0].id });
    assert.deepEqual((await read(again)).events.map((e) => e.data.id), [8]);
  });

  withReplicas('a resumed stream whose replica died ends with an error the client can retry', async ({ next }, stores) => {
    const id = await openSession(next);
    // A stream of a replica that never beats again.
    const streamId = 'deadbeefdeadbeef';
    await stores.eventStore.open(streamId, { sessionId: id, node: 'gone-node', requestId: 9 });
    await stores.eventStore.append(streamId, 1, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } }, false);
    const resumed = await get(next(), { 'mcp-session-id': id, 'last-event-id': `${streamId}.0` });
    const { events } = await read(resumed, until((m) => m.id === 9));
    assert.equal(events.length, 2);
    assert.equal(events[1].data.error.code, -32603);
    assert.match(events[1].data.error.message, /stopped before it answered; send the request again/);
    assert.equal(events[1].id, `${streamId}.2`);
  });

  withReplicas('DELETE on one replica ends the session on all of them', async ({ next, seen }) => {
    const id = await openSession(next);
    const headers = { 'mcp-session-id': id };
    const call = await post(next(), { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: { progressToken: 'p' } } }, headers);
    const reader = call.body.getReader();
    await read(call, until((m) => m.method === 'notifications/progress'), reader);
    assert.equal((await next()(new Request(URL_, { method: 'DELETE', headers }))).status, 204);
    for (let i = 0; i < 50 && seen.aborted === 0; i++) await tick();
    assert.equal(seen.aborted, 1, 'its request in flight on another replica was aborted');
    for (let i = 0; i < 3; i++) {
      assert.equal((await post(next(), { jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)).status, 404);
    }
    await reader.cancel();
  });

  withReplicas('a list change on any replica reaches subscriptions/listen on every replica, once', async ({ next, list }) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const listen = await post(
      next(),
      { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
    );
    const reader = listen.body.getReader();
    await read(listen, until((m) => m.method === 'notifications/subscriptions/acknowledged'), reader);
    for (const { server } of list) server.listChanged('tools');
    const { events } = await read(listen, (e) => e.length >= list.length, reader);
    assert.deepEqual(events.map((e) => e.data.method), list.map(() => 'notifications/tools/list_changed'));
    await reader.cancel();
  });

  withReplicas('a task started on one replica is cancelled from another at once, and its status reaches listeners everywhere', async ({ next, seen }) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const call = (method, params, extra = {}) =>
      post(next(), { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...extra });
    const created = await (await call('tools/call', { name: 'sleepy', arguments: {} }, { 'mcp-name': 'sleepy' })).json();
    const taskId = created.result.task?.taskId ?? created.result.taskId;
    assert.equal(typeof taskId, 'string', JSON.stringify(created));
    const listen = await call('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const reader = listen.body.getReader();
    await read(listen, until((m) => m.method === 'notifications/subscriptions/acknowledged'), reader);
    for (let i = 0; i < 50 && seen.tasksStarted === 0; i++) await tick();
    await (await call('tasks/cancel', { taskId }, { 'mcp-name': taskId })).json();
    for (let i = 0; i < 50 && seen.tasksAborted === 0; i++) await tick();
    assert.equal(seen.tasksAborted, 1, 'the run on its replica stopped without polling');
    const { events } = await read(listen, until((m) => m.method === 'notifications/tasks' && m.params.status === 'cancelled'), reader);
    assert.ok(events.length >= 1);
    await reader.cancel();
  });
}
