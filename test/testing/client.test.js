// The in-memory test client of baremcp/testing: connect(server) against servers built here, in
// both eras. Some cases restate test/server/dispatcher.test.js in the form an author would write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, ErrorCode, RpcError } from '../../dist/index.js';
import { connect } from '../../dist/testing/index.js';
import { RpcError as TestingRpcError } from '../../dist/testing/index.js';

const info = { name: 'test-server', version: '1.2.3' };
const echo = {
  name: 'echo',
  description: 'Echo the text back.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer' } },
    required: ['text'],
  },
  run: ({ text, times = 1 }) => text.repeat(times),
};
const shared = { n: 1, nested: { list: [1, 2] } };
const structured = {
  name: 'structured',
  description: 'Returns the same object every time.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  run: () => ({ content: [], structuredContent: shared }),
};
const failing = {
  name: 'failing',
  description: 'Throws.',
  inputSchema: { type: 'object' },
  run: () => {
    throw new Error('disk full');
  },
};
const reporter = {
  name: 'progress',
  description: 'Reports progress and logs.',
  inputSchema: { type: 'object' },
  run: (_a, ctx) => {
    ctx.progress(1, 3, 'one');
    ctx.progress(2, 3);
    ctx.log('debug', 'quiet');
    ctx.log('error', { e: 1 }, 'db');
    return 'ok';
  },
};
const confirm = {
  name: 'confirm',
  description: 'Asks the user before acting.',
  inputSchema: { type: 'object', properties: { action: { type: 'string' } }, required: ['action'] },
  run: async ({ action }, ctx) => {
    const answer = await ctx.elicit({
      message: `Really ${action}?`,
      requestedSchema: {
        type: 'object',
        properties: { ok: { type: 'boolean' } },
        required: ['ok'],
      },
    });
    return answer.action === 'accept' && answer.content.ok === true
      ? `${action}: done`
      : `${action}: stopped`;
  },
};

test('a plain { tools } definition is served and its tools listed and called', async () => {
  const client = await connect({ tools: [echo] });
  try {
    assert.equal(client.serverInfo.name, 'test-server');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(
      (await client.listTools()).map((t) => t.name),
      ['echo'],
    );
    const result = await client.callTool('echo', { text: 'ab', times: '2' });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'abab' }] });
  } finally {
    await client.close();
  }
});

test('a tool error is a resolved isError result, a protocol error rejects with RpcError', async () => {
  const client = await connect(createServer({ info, tools: [echo, failing], report: () => {} }));
  const failed = await client.callTool('failing');
  assert.equal(failed.isError, true);
  assert.equal(failed.content[0].text, 'disk full');
  const invalid = await client.callTool('echo', { times: 'two' });
  assert.equal(invalid.isError, true);
  assert.match(invalid.content[0].text, /text/);
  await assert.rejects(client.callTool('nope'), (error) => {
    assert.ok(error instanceof RpcError);
    assert.ok(error instanceof TestingRpcError, 'baremcp/testing re-exports the same RpcError');
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, /Unknown tool: nope/);
    return true;
  });
  await client.close();
});

test("results are plain JSON copies: no reference to the server's objects", async () => {
  const client = await connect(createServer({ info, tools: [structured] }));
  const first = await client.callTool('structured');
  assert.deepEqual(first.structuredContent, shared);
  assert.notEqual(first.structuredContent, shared);
  first.structuredContent.nested.list.push(3);
  assert.deepEqual((await client.callTool('structured')).structuredContent, {
    n: 1,
    nested: { list: [1, 2] },
  });
  await client.close();
});

// Restates 'progress is sent only with a progressToken' and 'ctx.log sends notifications/message'.
test('progress goes to onProgress, and log messages at or above logLevel are kept in notifications', async () => {
  const server = createServer({ info, tools: [reporter] });
  const client = await connect(server, { logLevel: 'warning' });
  const updates = [];
  assert.deepEqual(await client.callTool('progress', {}, { onProgress: (p) => updates.push(p) }), {
    content: [{ type: 'text', text: 'ok' }],
  });
  assert.deepEqual(updates, [
    { progress: 1, total: 3, message: 'one' },
    { progress: 2, total: 3 },
  ]);
  const logs = client.notifications.filter((n) => n.method === 'notifications/message');
  assert.deepEqual(
    logs.map((n) => n.params),
    [{ level: 'error', data: { e: 1 }, logger: 'db' }],
  );
  const quiet = await connect(server);
  await quiet.callTool('progress');
  assert.deepEqual(quiet.notifications, []);
  await client.close();
  await quiet.close();
});

// Restates 'a cancelled request gets no reply and its signal aborts'.
test('aborting the signal cancels the call: the tool sees its signal abort and the call rejects', async () => {
  let started;
  const running = new Promise((resolve) => (started = resolve));
  let aborted = false;
  const slow = {
    name: 'slow',
    description: 'Waits for its signal.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) =>
      new Promise((resolve) => {
        started();
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          resolve('late');
        });
      }),
  };
  const client = await connect({ tools: [slow] });
  const controller = new AbortController();
  const call = client.callTool('slow', {}, { signal: controller.signal });
  await running;
  controller.abort(new Error('user pressed stop'));
  await assert.rejects(call, /user pressed stop/);
  assert.equal(aborted, true);
  await client.close();
});

test('a request with no reply in time rejects, and the server is told to stop', async () => {
  let aborted;
  const stuck = {
    name: 'stuck',
    description: 'Never answers until cancelled.',
    inputSchema: { type: 'object' },
    run: (_a, ctx) =>
      new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          resolve('x');
        }),
      ),
  };
  const client = await connect({ tools: [stuck] }, { timeoutMs: 20 });
  await assert.rejects(client.callTool('stuck'), /no reply to tools\/call within 20 ms/);
  assert.equal(aborted, true);
  await client.close();
});

for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
  test(`elicitation is answered from handlers at ${protocolVersion}`, async () => {
    const asked = [];
    const client = await connect(
      { tools: [confirm] },
      {
        protocolVersion,
        handlers: {
          'elicitation/create': (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { ok: true } };
          },
        },
      },
    );
    assert.equal(client.protocolVersion, protocolVersion);
    const result = await client.callTool('confirm', { action: 'delete' });
    assert.equal(result.content[0].text, 'delete: done');
    assert.deepEqual(asked, ['Really delete?']);
    await client.close();
  });
}

test('without an elicitation handler the client declares no capability: a tool error (legacy), -32021 (2026-07-28)', async () => {
  const legacy = await connect({ tools: [confirm] });
  const result = await legacy.callTool('confirm', { action: 'x' });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /elicitation/);
  const modern = await connect({ tools: [confirm] }, { protocolVersion: '2026-07-28' });
  await assert.rejects(
    modern.callTool('confirm', { action: 'x' }),
    (error) =>
      error instanceof RpcError && error.code === ErrorCode.MissingRequiredClientCapability,
  );
  await legacy.close();
  await modern.close();
});

test('a 2026-07-28 client needs no handshake and gets serverInfo from server/discover', async () => {
  const client = await connect(
    createServer({ info: { ...info, title: 'Test' }, tools: [echo], instructions: 'Be brief.' }),
    { protocolVersion: '2026-07-28' },
  );
  assert.equal(client.serverInfo.name, 'test-server');
  assert.equal(client.instructions, 'Be brief.');
  assert.deepEqual(client.serverCapabilities.tools, { listChanged: true });
  const result = await client.callTool('echo', { text: 'hi' });
  assert.equal(result.resultType, 'complete');
  assert.equal(result.content[0].text, 'hi');
  await client.close();
});

test('resources, templates, prompts and completion through the client', async () => {
  const server = createServer({
    info,
    resources: [
      { uri: 'memo://readme', name: 'readme', mimeType: 'text/plain', read: () => 'hello' },
      {
        uriTemplate: 'memo://notes/{id}',
        name: 'notes',
        read: ({ id }) => `note ${id}`,
        complete: { id: (v) => ['1', '2', '10'].filter((x) => x.startsWith(v)) },
      },
    ],
    prompts: [
      {
        name: 'greet',
        arguments: [{ name: 'who', required: true }],
        get: ({ who }) => `Say hello to ${who}.`,
      },
    ],
  });
  const client = await connect(server);
  assert.deepEqual(
    (await client.listResources()).map((r) => r.uri),
    ['memo://readme'],
  );
  assert.deepEqual(
    (await client.listResourceTemplates()).map((t) => t.uriTemplate),
    ['memo://notes/{id}'],
  );
  assert.deepEqual(await client.readResource('memo://readme'), {
    contents: [{ uri: 'memo://readme', mimeType: 'text/plain', text: 'hello' }],
  });
  assert.equal((await client.readResource('memo://notes/7')).contents[0].text, 'note 7');
  await assert.rejects(
    client.readResource('memo://nothing'),
    (error) => error.code === ErrorCode.ResourceNotFound,
  );
  assert.deepEqual(
    (await client.listPrompts()).map((p) => p.name),
    ['greet'],
  );
  const prompt = await client.getPrompt('greet', { who: 'Ada' });
  assert.deepEqual(prompt.messages, [
    { role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } },
  ]);
  await assert.rejects(
    client.getPrompt('greet'),
    (error) => error.code === ErrorCode.InvalidParams && /who/.test(error.message),
  );
  const completion = await client.complete(
    { type: 'ref/resource', uri: 'memo://notes/{id}' },
    { name: 'id', value: '1' },
  );
  assert.deepEqual(completion.values, ['1', '10']);
  await client.close();
});

test('lists follow nextCursor through every page', async () => {
  const many = Array.from({ length: 7 }, (_, i) => ({ ...echo, name: `echo_${i}` }));
  const client = await connect(createServer({ info, tools: many, pageSize: 3 }));
  assert.deepEqual(
    (await client.listTools()).map((t) => t.name),
    many.map((t) => t.name),
  );
  await client.close();
});

test('a list change on a live server arrives in notifications', async () => {
  const server = createServer({ info, tools: [echo] });
  const client = await connect(server);
  server.tools.add({ ...echo, name: 'echo2' });
  assert.deepEqual(
    client.notifications.map((n) => n.method),
    ['notifications/tools/list_changed'],
  );
  assert.equal((await client.listTools()).length, 2);
  await client.close();
});

test('arguments JSON cannot carry fail that call only, and a closed client rejects every call', async () => {
  const client = await connect({ tools: [echo] });
  await assert.rejects(client.callTool('echo', { text: 1n }), TypeError);
  assert.equal(
    (await client.callTool('echo', { text: 'still here' })).content[0].text,
    'still here',
  );
  await client.close();
  await client.close();
  await assert.rejects(client.callTool('echo', { text: 'x' }), /closed/);
});

test('request sends any method and notify any notification', async () => {
  const client = await connect({ tools: [echo] }, { protocolVersion: '2025-03-26' });
  assert.equal(client.protocolVersion, '2025-03-26');
  assert.deepEqual(await client.request('ping'), {});
  await assert.rejects(
    client.request('frob/nicate'),
    (error) => error.code === ErrorCode.MethodNotFound,
  );
  client.notify('notifications/roots/list_changed');
  assert.deepEqual(await client.request('ping'), {});
  await client.close();
});

test('a server request with no handler is answered -32601, ping is answered', async () => {
  const answers = [];
  const asking = {
    name: 'asking',
    description: 'Asks the client for its roots.',
    inputSchema: { type: 'object' },
    run: async (_a, ctx) => {
      try {
        answers.push(await ctx.listRoots());
      } catch (error) {
        answers.push(error.message);
      }
      return 'asked';
    },
  };
  const client = await connect({ tools: [asking] }, { capabilities: { roots: {} } });
  await client.callTool('asking');
  assert.match(answers[0], /-?32601|Method not found/);
  const withRoots = await connect(
    { tools: [asking] },
    { handlers: { 'roots/list': () => ({ roots: [{ uri: 'file:///tmp' }] }) } },
  );
  await withRoots.callTool('asking');
  assert.deepEqual(answers[1], { roots: [{ uri: 'file:///tmp' }] });
  await client.close();
  await withRoots.close();
});
