// Every configurable limit, proved enforced. Limits already proved elsewhere are named here and
// not repeated:
//   ServerOptions.maxDepth (default 100)          test/server/dispatcher.test.js "arguments nested 10,000 levels deep ..."
//   ServerOptions.toolTimeoutMs, tool timeoutMs   test/server/dispatcher.test.js "a tool that hangs is stopped by its time-out ..."
//                                                 test/faults/timeouts.test.js "a hanging tool in a served module ..."
//   ServerOptions.maxResultSize (custom)          test/server/dispatcher.test.js "a result over maxResultSize ..."
//   ServerOptions.inputTimeoutMs                  test/server/revisions.test.js "a legacy client request times out ..."
//   ServerOptions.pageSize                        test/server/dispatcher.test.js "tools/list paginates ..."
//   StdioOptions.maxLineBytes (custom)            test/transport/stdio.test.js "a line over the limit gets one error ..."
//                                                 test/transport/line-buffer.test.js "50 MB with no newline ..."
//   StdioOptions.maxLineBytes (default, process)  test/faults/flood.test.js "a 100 MB line is refused ..."
//   StdioOptions.endGraceMs (default, process)    test/faults/shutdown.test.js "stdin closes while a tool hangs ..."
//   CompileOptions.maxDepth, maxErrors            test/schema/validate.test.js "a value nested deeper than maxDepth ...", "maxErrors caps ..."
//   CoerceOptions.maxDepth, maxStringLength       test/schema/coerce.test.js "values deeper than maxDepth are left", "... longer than maxStringLength ..."
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { createServer, ErrorCode } from '../../dist/index.js';
import { serve, DEFAULT_MAX_LINE_BYTES } from '../../dist/transport/stdio.js';
import { delay } from '../helpers.js';

const info = { name: 'limits', version: '1.0.0' };
const tool = (name, run, inputSchema = { type: 'object' }) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema,
  run,
});
const call = (id, name, args) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const nested = (depth) => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
const depthOf = (v) =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

test('ServerOptions.maxDepth: a custom limit refuses params one level deeper, for that id only', async () => {
  const server = createServer({ info, tools: [tool('echo', () => 'ok')], maxDepth: 5 });
  // params { name, arguments: <depth 3> } has depth 4; { arguments: <depth 4> } has depth 5.
  assert.equal((await server.handle(call(1, 'echo', nested(3)))).result.content[0].text, 'ok');
  assert.equal((await server.handle(call(2, 'echo', nested(4)))).result.content[0].text, 'ok');
  const refused = await server.handle(call(3, 'echo', nested(5)));
  assert.equal(refused.id, 3);
  assert.equal(refused.error.code, ErrorCode.InvalidParams);
  assert.match(refused.error.message, /limit of 5 levels/);
});

test('ServerOptions.maxDepth also bounds arguments sent as a JSON string', async () => {
  let seen;
  const server = createServer({
    info,
    tools: [tool('echo', (args) => ((seen = depthOf(args)), 'ran'))],
    report: () => {},
  });
  const reply = await server.handle(
    call(1, 'echo', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)),
  );
  assert.equal(seen, undefined, 'the tool never sees arguments deeper than the limit');
  const text = reply.error?.message ?? reply.result?.content[0].text;
  assert.match(text, /nested deeper than the limit of 100/);
});

test('a very large maxDepth does not turn deep params into a rejected handle()', async () => {
  const server = createServer({ info, tools: [], maxDepth: 10_000_000, report: () => {} });
  const deep = JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000));
  const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'ping', params: { deep } });
  assert.equal(reply.id, 1);
});

test('ServerOptions.maxResultSize: the 16 Mi default holds, and base64 data counts like text', async () => {
  const limit = 16 * 1024 * 1024;
  const server = createServer({
    info,
    tools: [
      tool('at', () => 'x'.repeat(limit)),
      tool('over', () => 'x'.repeat(limit + 1)),
      tool('image', () => [{ type: 'image', data: 'A'.repeat(limit + 4), mimeType: 'image/png' }]),
    ],
    report: () => {},
  });
  assert.equal((await server.handle(call(1, 'at', {}))).result.isError, undefined);
  for (const name of ['over', 'image']) {
    const result = (await server.handle(call(2, name, {}))).result;
    assert.equal(result.isError, true, name);
    assert.match(result.content[0].text, /over the limit of 16777216/);
  }
});

test('ServerOptions.maxResultSize counts structuredContent too', async () => {
  const big = tool('big', () => ({ content: [], structuredContent: { text: 'x'.repeat(5000) } }));
  const server = createServer({ info, tools: [big], maxResultSize: 1000, report: () => {} });
  const result = (await server.handle(call(1, 'big', {}))).result;
  assert.equal(result.isError, true);
  assert.ok(JSON.stringify(result).length < 2000);
});

const modern = (capabilities) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const asker = tool('ask', async (_args, ctx) => {
  const answer = await ctx.elicit({
    mode: 'form',
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  });
  return `hello ${answer.content?.name}`;
});

async function roundTrip(server, wait) {
  const meta = modern({ elicitation: { form: {} } });
  const first = await server.handle({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'ask', arguments: {}, _meta: meta },
  });
  assert.equal(first.result.resultType, 'input_required');
  const [key] = Object.keys(first.result.inputRequests);
  await delay(wait);
  return server.handle({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'ask',
      arguments: {},
      _meta: meta,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.result.requestState,
    },
  });
}

test('ServerOptions.requestStateTtlMs: a requestState older than its TTL is refused with -32602; a fresh one completes', async () => {
  const expired = await roundTrip(
    createServer({ info, tools: [asker], requestStateTtlMs: 20 }),
    100,
  );
  assert.equal(expired.error.code, ErrorCode.InvalidParams);
  assert.match(expired.error.message, /requestState refused: expired/);
  const fresh = await roundTrip(createServer({ info, tools: [asker] }), 100);
  assert.equal(fresh.result.content[0].text, 'hello Ada');
});

/** A stdio session whose `block` tool runs until released; counts the calls running. */
function blockingSession(options) {
  const gates = [];
  let running = 0;
  const block = tool('block', (_args, ctx) => {
    running++;
    return new Promise((resolve) => {
      const done = (text) => {
        running--;
        resolve(text);
      };
      gates.push(() => done('released'));
      ctx.signal.addEventListener('abort', () => done('aborted'));
    });
  });
  const input = new PassThrough();
  const written = [];
  const output = new Writable({ write: (c, _e, cb) => (written.push(c), cb()) });
  const session = serve(input, output, createServer({ info, tools: [block] }), options);
  const replies = () =>
    Buffer.concat(written)
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { input, session, gates, replies, running: () => running };
}

async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('StdioOptions.maxInFlight: with 3 allowed, a 4th call does not start until one ends', async () => {
  const s = blockingSession({ maxInFlight: 3 });
  for (let i = 1; i <= 10; i++) {
    s.input.write(`${JSON.stringify(call(i, 'block', {}))}\n`);
    await settle();
  }
  assert.equal(s.running(), 3);
  s.gates.shift()();
  await settle();
  assert.equal(s.running(), 3, 'one ended, the next one started');
  assert.equal(s.replies().length, 1);
  s.input.end();
  while (s.replies().length < 10) {
    s.gates.shift()?.();
    await settle();
  }
  await s.session.closed;
  assert.deepEqual(
    s
      .replies()
      .map((r) => r.id)
      .sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test('StdioOptions.maxInFlight: the default lets 256 calls run at once, not 257', async () => {
  const s = blockingSession({});
  for (let i = 1; i <= 300; i++) {
    s.input.write(`${JSON.stringify(call(i, 'block', {}))}\n`);
    if (i % 10 === 0) await settle();
  }
  await settle();
  assert.equal(s.running(), 256);
  s.session.close();
  await s.session.closed;
});

test('StdioOptions.maxQueued: past the calls in flight and the queue, input is left unread', async () => {
  const s = blockingSession({ maxInFlight: 1, maxQueued: 2 });
  const line = (i) => `${JSON.stringify(call(i, 'block', {}))}\n`;
  for (let i = 1; i <= 10; i++) {
    s.input.write(line(i));
    await settle();
  }
  // One running, two queued, seven still in the input stream.
  assert.equal(s.running(), 1);
  assert.equal(
    s.input.readableLength,
    [4, 5, 6, 7, 8, 9, 10].reduce((n, i) => n + line(i).length, 0),
  );
  s.gates.shift()();
  await settle();
  assert.equal(s.running(), 1);
  assert.equal(
    s.input.readableLength,
    [5, 6, 7, 8, 9, 10].reduce((n, i) => n + line(i).length, 0),
    'one more line read',
  );
  s.session.close();
  await s.session.closed;
});

test('StdioOptions.endGraceMs: after end of input, a call that makes no progress for the grace is aborted', async () => {
  let aborted = false;
  const stuck = tool(
    'stuck',
    (_args, ctx) => new Promise(() => ctx.signal.addEventListener('abort', () => (aborted = true))),
  );
  const lines = [];
  const input = new PassThrough();
  const output = new Writable({ write: (_c, _e, cb) => cb() });
  const session = serve(
    input,
    output,
    createServer({ info, tools: [stuck], report: (l) => lines.push(l) }),
    { endGraceMs: 50 },
  );
  // The grace timer does not hold a process open by itself; this test's process must stay up.
  const keepAlive = setInterval(() => {}, 1000);
  input.end(`${JSON.stringify(call(1, 'stuck', {}))}\n`);
  await session.closed;
  clearInterval(keepAlive);
  assert.equal(aborted, true);
  assert.match(lines.join('\n'), /1 request\(s\) .*50 ms.* abandoned/);
});

test('StdioOptions.maxLineBytes: the 8 MiB default accepts a line of exactly 8 MiB and refuses one byte more', async () => {
  assert.equal(DEFAULT_MAX_LINE_BYTES, 8 * 1024 * 1024);
  const input = new PassThrough();
  const written = [];
  const output = new Writable({ write: (c, _e, cb) => (written.push(c), cb()) });
  const session = serve(
    input,
    output,
    createServer({ info, tools: [tool('len', ({ pad }) => String(pad.length))], report: () => {} }),
  );
  const line = (id, bytes) => {
    const head = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"len","arguments":{"pad":"`;
    const tail = '"}}}';
    return head + 'p'.repeat(bytes - head.length - tail.length) + tail;
  };
  input.write(line(1, DEFAULT_MAX_LINE_BYTES) + '\n');
  input.end(line(2, DEFAULT_MAX_LINE_BYTES + 1) + '\n');
  await session.closed;
  const replies = Buffer.concat(written)
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.equal(replies.find((r) => r.id === 1).result.content[0].text.length > 0, true);
  assert.equal(replies.find((r) => r.id === 2).error.code, ErrorCode.InvalidRequest);
});

const ints = tool('ints', () => 'ok', {
  type: 'object',
  properties: { list: { type: 'array', items: { type: 'integer' } } },
});
const obj = tool('obj', ({ o }) => JSON.stringify(o), {
  type: 'object',
  properties: { o: { type: 'object' } },
});

test('validator maxErrors (100) inside tools/call: 500 bad items are reported as 100 problems', async () => {
  const server = createServer({ info, tools: [ints], coerce: false });
  const result = (await server.handle(call(1, 'ints', { list: Array(500).fill('x') }))).result;
  assert.equal(result.isError, true);
  assert.equal(result.content[0].text.split('\n').filter((l) => l.startsWith('- ')).length, 100);
});

test('coercion maxStringLength (1 MiB) inside tools/call: a longer JSON string is not decoded, a short one is', async () => {
  const server = createServer({ info, tools: [obj], report: () => {} });
  const long = await server.handle(
    call(1, 'obj', { o: JSON.stringify({ k: 'y'.repeat(1024 * 1024) }) }),
  );
  assert.equal(long.result.isError, true);
  assert.match(long.result.content[0].text, /\/o: expected object, got string/);
  const short = await server.handle(call(2, 'obj', { o: '{"k":1}' }));
  assert.equal(short.result.content[0].text, '{"k":1}');
});

test('coercion work budget inside tools/call: 20,000 numeric strings coerce at most 10,000, then the call is an isError result', async () => {
  const server = createServer({ info, tools: [ints], report: () => {} });
  const result = (
    await server.handle(
      call(1, 'ints', { list: Array.from({ length: 20_000 }, (_, i) => String(i)) }),
    )
  ).result;
  assert.equal(result.isError, true);
  const first = Number(/\/list\/(\d+): expected integer/.exec(result.content[0].text)?.[1]);
  assert.ok(first > 0 && first <= 10_000, `first uncoerced item ${first}`);
});
