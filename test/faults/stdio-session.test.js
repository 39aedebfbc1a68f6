// Faults of a stdio session found by the fuzzers and the fault runs, each reduced to its input and
// kept as a regression test. A todo mark is an open bug (reported with a proposed patch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { createServer } from '../../dist/index.js';
import { serve } from '../../dist/transport/stdio.js';
import { parseWire } from '../fuzz/model.js';

const info = { name: 'faults', version: '1.0.0' };
const tool = (name, run) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object' },
  run,
});
const waiter = tool(
  'wait',
  (_args, ctx) =>
    new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'))),
);
const INIT =
  '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const INITD = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

function session(tools, options = {}) {
  const input = new PassThrough();
  const written = [];
  const output = new Writable({ write: (c, _e, cb) => (written.push(Buffer.from(c)), cb()) });
  const lines = [];
  const server = createServer({ info, tools, report: (l) => lines.push(l) });
  const s = serve(input, output, server, options);
  const wire = () => parseWire(Buffer.concat(written));
  return { input, server, session: s, lines, wire, messages: () => wire().messages };
}

test('a result that cannot be serialised still gets one reply for its id (-32603)', async () => {
  const s = session([
    tool('bigint', () => ({
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { n: 10n },
    })),
  ]);
  s.input.end(
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bigint"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
  );
  await s.session.closed;
  const reply = s.messages().find((m) => m.id === 1);
  assert.equal(reply?.error?.code, -32603);
});

test('at maxInFlight, notifications/cancelled still reaches the call it names', async () => {
  const s = session([waiter], { maxInFlight: 2 });
  s.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}\n');
  s.input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}\n');
  await new Promise((r) => setTimeout(r, 20));
  s.input.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n');
  s.input.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  const deadline = Date.now() + 1000;
  while (!s.messages().some((m) => m.id === 3) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 5));
  const answered = s.messages().some((m) => m.id === 3);
  s.session.close();
  assert.equal(answered, true, 'the ping after the cancel is answered');
  assert.equal(
    s.messages().some((m) => m.id === 1),
    false,
    'no reply for the cancelled call',
  );
});

test(
  'a call cancelled while it waits for a place in flight never runs and gets no reply',
  {},
  async () => {
    const ran = [];
    const gates = [];
    const block = tool('block', (_args, ctx) => {
      ran.push(ctx.requestId);
      return new Promise((resolve) => gates.push(() => resolve('released')));
    });
    const s = session([block], { maxInFlight: 1 });
    s.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}\n');
    s.input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}}\n');
    await new Promise((r) => setTimeout(r, 10));
    s.input.write(
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n',
    );
    await new Promise((r) => setTimeout(r, 10));
    gates.shift()();
    await new Promise((r) => setTimeout(r, 20));
    while (gates.length > 0) gates.shift()();
    s.input.end();
    await s.session.closed;
    assert.deepEqual(ran, [1], 'the cancelled call never started');
    assert.deepEqual(
      s.messages().map((m) => m.id),
      [1],
    );
  },
);

test('only a JSON-RPC 2.0 notification cancels: a request, or a 1.0 message, named notifications/cancelled is answered', async () => {
  const gates = [];
  const block = tool('block', () => new Promise((resolve) => gates.push(() => resolve('done'))));
  const s = session([block], { maxInFlight: 1 });
  s.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}\n');
  s.input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}}\n');
  await new Promise((r) => setTimeout(r, 10));
  s.input.write(
    '{"jsonrpc":"2.0","id":3,"method":"notifications/cancelled","params":{"requestId":2}}\n',
  );
  // Not JSON-RPC 2.0 at all: an Invalid Request (without id), and not a cancel either.
  s.input.write('{"jsonrpc":"1.0","method":"notifications/cancelled","params":{"requestId":2}}\n');
  await new Promise((r) => setTimeout(r, 10));
  while (gates.length > 0) {
    gates.shift()();
    await new Promise((r) => setTimeout(r, 10));
  }
  s.input.end();
  await s.session.closed;
  const ids = s.messages().map((m) => m.id);
  assert.ok(ids.includes(2), 'call 2 was not cancelled by a request');
  assert.ok(ids.includes(3), 'the request got a reply');
  const refused = s.messages().filter((m) => !('id' in m) && m.error?.code === -32600);
  assert.equal(refused.length, 1, 'the 1.0 message is refused');
});

test('a cancel never removes an invalid request from the queue: each still gets its -32600', async () => {
  const gates = [];
  const block = tool('block', () => new Promise((resolve) => gates.push(() => resolve('done'))));
  const s = session([block], { maxInFlight: 1 });
  s.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}\n');
  await new Promise((r) => setTimeout(r, 10));
  // Ids that are no ids (null; a number past 2^53, which decodes rounded), named by cancels.
  s.input.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
  s.input.write('{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}\n');
  s.input.write(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}\n',
  );
  s.input.write(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-9007199254740993}}\n',
  );
  await new Promise((r) => setTimeout(r, 10));
  gates.shift()();
  s.input.end();
  await s.session.closed;
  const refused = s.messages().filter((m) => !('id' in m) && m.error?.code === -32600);
  assert.equal(refused.length, 2);
});

test('a subscription that starts from the queue after end of input ends at once, with its result', async () => {
  const gates = [];
  const block = tool('block', () => new Promise((resolve) => gates.push(() => resolve('done'))));
  const s = session([block], { maxInFlight: 1, endGraceMs: 5000 });
  const meta =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
  s.input.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}\n');
  s.input.end(
    `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},${meta}}}\n`,
  );
  await new Promise((r) => setTimeout(r, 20));
  gates.shift()();
  let timer;
  const late = new Promise((r) => (timer = setTimeout(() => r(false), 1000)));
  const closed = await Promise.race([s.session.closed.then(() => true), late]);
  clearTimeout(timer);
  if (!closed) s.session.close();
  assert.equal(closed, true, 'the session ends without waiting out endGraceMs');
  assert.ok(
    s.messages().some((m) => m.id === 2 && 'result' in m),
    'the subscription got its result',
  );
});

test('at maxInFlight, open subscriptions do not keep the end of input from being read', async () => {
  const s = session([tool('t', () => 't')], { maxInFlight: 2 });
  const meta =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
  for (const id of [1, 2]) {
    s.input.write(
      `{"jsonrpc":"2.0","id":${id},"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},${meta}}}\n`,
    );
  }
  await new Promise((r) => setImmediate(r));
  s.input.end('{"jsonrpc":"2.0","id":3,"method":"tools/list"}\n');
  let timer;
  const late = new Promise((r) => (timer = setTimeout(() => r(false), 1000)));
  const closed = await Promise.race([s.session.closed.then(() => true), late]);
  clearTimeout(timer);
  if (!closed) s.session.close();
  assert.equal(closed, true, 'end of input ends the subscriptions and the session');
});

test('an over-long line is answered with its own id, not one nested inside it', async () => {
  const s = session([], { maxLineBytes: 200 });
  s.input.end(
    `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":5,"t":"${'x'.repeat(400)}"}},"id":9}\n`,
  );
  await s.session.closed;
  const [reply] = s.messages();
  assert.equal(reply.error.code, -32600);
  assert.ok(reply.id === 9 || !('id' in reply), `answered with id ${reply.id}`);
});

test('after end of input the session is over: nothing more is written to its output', async () => {
  const s = session([tool('a', () => 'a')]);
  s.input.end(`${INIT}\n${INITD}\n`);
  await s.session.closed;
  const before = s.messages().length;
  s.server.tools.add(tool('b', () => 'b'));
  await new Promise((r) => setImmediate(r));
  assert.equal(s.messages().length, before, 'no list_changed to a finished session');
});
