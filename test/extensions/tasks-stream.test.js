// The tasks extension on the wire: notifications/tasks over subscriptions/listen on stdio (a real
// stream pair) and on Streamable HTTP (the web-standard handler in process), the Mcp-Name routing
// header of tasks/get, tasks/update and tasks/cancel, and no progress or log message on a task.
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createServer } from '../../dist/index.js';
import { tasksExtension } from '../../dist/extensions/tasks/index.js';
import { createFetchHandler } from '../../dist/transport/http.js';
import { serve } from '../../dist/transport/stdio.js';

const test = (name, fn) => nodeTest(name, { timeout: 20_000 }, fn);
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const meta = (capabilities = { extensions: { [TASKS]: {} } }) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

/** A server whose `job` tool reports a step, then ends, each when the test opens its gate. */
function fixture() {
  const gates = { step: gate(), end: gate() };
  const server = createServer({
    info: { name: 'tasks-stream-test', version: '1.0.0' },
    tools: [
      {
        name: 'job',
        description: 'A two-step job.',
        inputSchema: { type: 'object' },
        taskSupport: 'required',
        run: async (_args, ctx) => {
          await gates.step.promise;
          ctx.progress(1, 2, 'step one');
          ctx.log('error', 'no log message leaves a task');
          await gates.end.promise;
          return 'job done';
        },
      },
    ],
    extensions: [tasksExtension()],
    report: () => {},
  });
  return { server, gates };
}

const request = (id, method, params, capabilities) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(capabilities) } });

test('stdio: subscriptions/listen with taskIds acknowledges the known ones and streams every change as notifications/tasks', async () => {
  const { server, gates } = fixture();
  const input = new PassThrough();
  const output = new PassThrough();
  const messages = [];
  const waiters = [];
  let buffer = '';
  output.on('data', (chunk) => {
    buffer += chunk.toString();
    let end;
    while ((end = buffer.indexOf('\n')) !== -1) {
      messages.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
    }
    for (const w of [...waiters]) w();
  });
  /** The first message (from index `from`) that `match`es, when it arrives. */
  const next = (match, from = 0) =>
    new Promise((resolve) => {
      const check = () => {
        const found = messages.slice(from).find(match);
        if (found === undefined) return;
        waiters.splice(waiters.indexOf(check), 1);
        resolve(found);
      };
      waiters.push(check);
      check();
    });
  const session = serve(input, output, server);
  const send = (message) => input.write(JSON.stringify(message) + '\n');

  send(request(1, 'tools/call', { name: 'job', arguments: {} }));
  const created = (await next((m) => m.id === 1)).result;
  assert.equal(created.resultType, 'task');
  send(request('sub', 'subscriptions/listen', { notifications: { taskIds: [created.taskId, 'unknown-task'], toolsListChanged: true } }));
  const ack = await next((m) => m.method === 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params, { _meta: { [SUBSCRIPTION]: 'sub' }, notifications: { toolsListChanged: true, taskIds: [created.taskId] } });
  // A client that did not declare the extension: -32021, no subscription.
  send(request('undeclared', 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } }, {}));
  const refused = await next((m) => m.id === 'undeclared');
  assert.equal(refused.error.code, -32021);
  assert.deepEqual(refused.error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });

  let from = messages.length;
  gates.step.open();
  const step = await next((m) => m.method === 'notifications/tasks', from);
  assert.deepEqual(
    [step.params.taskId, step.params.status, step.params.statusMessage, step.params._meta],
    [created.taskId, 'working', 'step one', { [SUBSCRIPTION]: 'sub' }],
  );
  from = messages.length;
  gates.end.open();
  const done = await next((m) => m.method === 'notifications/tasks' && m.params.status === 'completed', from);
  assert.deepEqual(done.params.result, { content: [{ type: 'text', text: 'job done' }] });
  // Identical to what tasks/get returns then (bar resultType and _meta).
  send(request(2, 'tasks/get', { taskId: created.taskId }));
  const got = (await next((m) => m.id === 2)).result;
  const { resultType: _r, _meta: _g, ...polled } = got;
  const { _meta: _n, ...notified } = done.params;
  assert.deepEqual(notified, polled);
  input.end();
  await session.closed;
  // The subscription ended gracefully; no progress or log message was sent for the task.
  assert.equal(messages.find((m) => m.id === 'sub').result._meta[SUBSCRIPTION], 'sub');
  assert.deepEqual(messages.filter((m) => m.method === 'notifications/progress' || m.method === 'notifications/message'), []);
});

/** POSTs a 2026-07-28 request with conformant headers (`headers` override them). */
function post(handler, id, method, params, headers = {}) {
  const standard = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (method === 'tools/call') standard['mcp-name'] = params.name;
  if (params.taskId !== undefined) standard['mcp-name'] = params.taskId;
  return handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...standard, ...headers }, body: JSON.stringify(request(id, method, params)) }));
}

/** Reads SSE events (parsed data lines) from `reader` until `count` more arrived. */
async function events(reader, count) {
  const decoder = new TextDecoder();
  const found = [];
  reader.buffer ??= '';
  while (found.length < count) {
    let end;
    while (found.length < count && (end = reader.buffer.indexOf('\n\n')) !== -1) {
      const data = reader.buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      reader.buffer = reader.buffer.slice(end + 2);
      if (data !== '') found.push(JSON.parse(data));
    }
    if (found.length >= count) break;
    const { done, value } = await reader.read();
    if (done) break;
    reader.buffer += decoder.decode(value, { stream: true });
  }
  return found;
}

test('HTTP: a subscriptions/listen stream carries notifications/tasks; tasks/cancel is announced too', async () => {
  const { server, gates } = fixture();
  const handler = createFetchHandler(server, { keepAliveMs: 0 });
  const created = (await (await post(handler, 1, 'tools/call', { name: 'job', arguments: {} })).json()).result;
  const second = (await (await post(handler, 2, 'tools/call', { name: 'job', arguments: {} })).json()).result;
  const listen = await post(handler, 7, 'subscriptions/listen', { notifications: { taskIds: [created.taskId, second.taskId] } });
  assert.equal(listen.headers.get('content-type'), 'text/event-stream');
  const reader = listen.body.getReader();
  const [ack] = await events(reader, 1);
  assert.deepEqual(ack.params.notifications, { taskIds: [created.taskId, second.taskId] });
  gates.step.open();
  const steps = await events(reader, 2);
  assert.deepEqual(steps.map((n) => [n.method, n.params.statusMessage, n.params._meta[SUBSCRIPTION]]), [
    ['notifications/tasks', 'step one', 7],
    ['notifications/tasks', 'step one', 7],
  ]);
  const cancel = await post(handler, 3, 'tasks/cancel', { taskId: second.taskId });
  assert.equal((await cancel.json()).result.resultType, 'complete');
  const [cancelled] = await events(reader, 1);
  assert.deepEqual([cancelled.params.taskId, cancelled.params.status], [second.taskId, 'cancelled']);
  gates.end.open();
  const [completed] = await events(reader, 1);
  assert.deepEqual([completed.params.taskId, completed.params.status, completed.params.result.content[0].text], [created.taskId, 'completed', 'job done']);
  await reader.cancel();
  await handler.close();
});

test('HTTP: tasks/get, tasks/update and tasks/cancel need Mcp-Name equal to params.taskId', async () => {
  const { server, gates } = fixture();
  const handler = createFetchHandler(server, { keepAliveMs: 0 });
  const created = (await (await post(handler, 1, 'tools/call', { name: 'job', arguments: {} })).json()).result;
  const ok = await post(handler, 2, 'tasks/get', { taskId: created.taskId });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).result.taskId, created.taskId);
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    const params = { taskId: created.taskId, inputResponses: {} };
    const wrong = await post(handler, 3, method, params, { 'mcp-name': 'some-other-task' });
    assert.equal(wrong.status, 400, method);
    assert.deepEqual((await wrong.json()).error, {
      code: -32020,
      message: `Header mismatch: Mcp-Name header value 'some-other-task' does not match body value '${created.taskId}'`,
    });
    const missing = await handler(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method },
      body: JSON.stringify(request(4, method, params)),
    }));
    assert.equal(missing.status, 400);
    assert.match((await missing.json()).error.message, /required header Mcp-Name is missing/);
  }
  gates.step.open();
  gates.end.open();
  await handler.close();
});

test("HTTP: a task's run is handed to the runtime's waitUntil (Workers end a request's work with its response)", async () => {
  const { server, gates } = fixture();
  const handler = createFetchHandler(server, { keepAliveMs: 0 });
  const kept = [];
  const execution = { waitUntil: (work) => kept.push(work) };
  const body = (id, method, params) => JSON.stringify(request(id, method, params));
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'job' };
  const reply = await handler(new Request('http://localhost/mcp', { method: 'POST', headers, body: body(1, 'tools/call', { name: 'job', arguments: {} }) }), execution);
  const created = (await reply.json()).result;
  assert.equal(created.resultType, 'task');
  assert.equal(kept.length, 1, 'one run handed to waitUntil');
  let settled = false;
  kept[0].then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(settled, false, 'the kept promise is the run, still going');
  gates.step.open();
  gates.end.open();
  await kept[0];
  const done = await (await post(handler, 2, 'tasks/get', { taskId: created.taskId })).json();
  assert.equal(done.result.status, 'completed');
  // A call that is not a task keeps nothing alive.
  const listed = await handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, 'mcp-method': 'tools/list' }, body: body(3, 'tools/list', {}) }), execution);
  assert.equal(listed.status, 200);
  assert.equal(kept.length, 1);
  await handler.close();
});
