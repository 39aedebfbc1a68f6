// The scale-out seams on their own: the in-memory session and event stores (their bounds), the
// event bus as the server uses it, a failing store, and serveHttp's graceful close (the listener
// closes before the requests in flight finish).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createServer, MemoryEventBus, MemoryEventStore, MemorySessionStore } from '../../dist/index.js';
import { createFetchHandler, serveHttp } from '../../dist/transport/http.js';
import { eventId, parseEventId } from '../../dist/transport/event-store.js';

const RECORD = { owner: '', protocolVersion: '2025-11-25', client: { capabilities: {} }, initialized: false, resourceSubscriptions: [] };
const message = (n) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: n } });

test('MemorySessionStore holds at most maxSessions, drops expired ones to make room, and renews on use', async () => {
  let now = 0;
  const store = new MemorySessionStore({ maxSessions: 2, now: () => now });
  assert.equal(await store.create('a', RECORD, 100), true);
  assert.equal(await store.create('b', RECORD, 1000), true);
  assert.equal(await store.create('c', RECORD, 100), false, 'full');
  now = 90;
  assert.ok(await store.get('a', 100), 'renewed to 190');
  now = 150;
  assert.ok(await store.update('a', (r) => ({ ...r, logLevel: 'info' }), 100));
  assert.equal((await store.get('a', 100)).logLevel, 'info');
  now = 400;
  assert.equal(await store.create('c', RECORD, 100), true, 'the expired one made room');
  assert.equal(await store.get('a', 100), undefined);
  assert.equal(await store.update('a', (r) => r, 100), undefined);
  assert.equal(await store.delete('b'), true);
  assert.equal(await store.delete('b'), false);
  assert.equal(store.size, 1);
  assert.throws(() => new MemorySessionStore({ maxSessions: 0 }), /maxSessions must be a positive integer/);
});

test('MemoryEventStore keeps the last events of each stream within its stream, byte and time bounds', async () => {
  let now = 0;
  const store = new MemoryEventStore({ maxStreams: 2, maxEventsPerStream: 2, maxBytes: 10_000, retainMs: 1000, now: () => now });
  await store.open('stream-aaaaaaaa', { sessionId: 's', node: 'n', requestId: 1 });
  for (let n = 1; n <= 3; n++) await store.append('stream-aaaaaaaa', n, message(n), n === 3);
  const read = await store.read('stream-aaaaaaaa', 0);
  assert.deepEqual(read.events.map((e) => e.seq), [2, 3], 'the oldest event dropped');
  assert.equal(read.ended, true);
  await store.open('stream-bbbbbbbb', { sessionId: 's', node: 'n' });
  await store.append('stream-bbbbbbbb', 1, message(1), false);
  await store.open('stream-cccccccc', { sessionId: 's', node: 'n' });
  assert.equal(store.size, 2);
  assert.equal(await store.read('stream-aaaaaaaa', 0), undefined, 'the ended stream went first');
  assert.ok(await store.read('stream-bbbbbbbb', 0));
  now = 1000;
  assert.equal(await store.read('stream-bbbbbbbb', 0), undefined, 'expired retainMs after its last event');
  await store.append('unknown', 1, message(1), false);
  const small = new MemoryEventStore({ maxBytes: 150 });
  for (const id of ['stream-dddddddd', 'stream-eeeeeeee']) {
    await small.open(id, { sessionId: 's', node: 'n' });
    await small.append(id, 1, message(1), false);
  }
  assert.ok(small.bytes <= 150 && small.size === 1, `${small.bytes} bytes in ${small.size} streams`);
  await store.heartbeat('node', 50);
  assert.equal(await store.alive('node'), true);
  now = 1050;
  assert.equal(await store.alive('node'), false);
  assert.equal(await store.alive('never'), false);
  for (const name of ['maxStreams', 'maxEventsPerStream', 'maxBytes', 'retainMs']) {
    assert.throws(() => new MemoryEventStore({ [name]: 1.5 }), new RegExp(`${name} must be a positive integer`));
  }
});

test('event ids name their stream and place; ids this server did not make are not parsed', () => {
  assert.equal(eventId('abcdefgh12345678', 7), 'abcdefgh12345678.7');
  assert.deepEqual(parseEventId('abcdefgh12345678.7'), { streamId: 'abcdefgh12345678', seq: 7 });
  for (const foreign of ['', '7', 'short.1', 'abcdefgh12345678.', 'abcdefgh12345678.x', 'a b c d e f g h.1']) {
    assert.equal(parseEventId(foreign), undefined, foreign);
  }
});

test('a server on a bus relays its list changes to the other servers and ignores its own', async () => {
  const bus = new MemoryEventBus();
  const lines = [];
  const a = createServer({ info: { name: 'a', version: '1' }, bus, report: (l) => lines.push(l) });
  const b = createServer({ info: { name: 'b', version: '1' }, report: (l) => lines.push(l) });
  await b.useEventBus(bus);
  assert.equal(b.bus, bus);
  assert.equal(bus.size, 2);
  assert.notEqual(a.nodeId, b.nodeId);
  const seen = [];
  b.onBroadcast('custom', (m) => seen.push(['b', m.n]));
  const off = a.onBroadcast('custom', (m) => seen.push(['a', m.n]));
  await a.broadcast({ type: 'custom', n: 1 });
  await b.broadcast({ type: 'custom', n: 2 });
  off();
  await b.broadcast({ type: 'custom', n: 3 });
  // A handler that throws is reported; delivery goes on.
  b.onBroadcast('custom', () => {
    throw new Error('handler broke');
  });
  await a.broadcast({ type: 'custom', n: 4 });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(seen, [['b', 1], ['a', 2], ['b', 4]]);
  assert.match(lines.join('\n'), /event bus: the handler of custom failed: Error: handler broke/);
  await b.useEventBus(undefined);
  assert.equal(bus.size, 1);
  await assert.rejects(async () => a.useEventBus({ publish() {} }), /event bus: expected an object with publish\(message\) and subscribe\(listener\)/);
  // A bus that fails to publish is reported, never thrown.
  const broken = createServer({ info: { name: 'c', version: '1' }, report: (l) => lines.push(l) });
  await broken.useEventBus({ publish: async () => Promise.reject(new Error('bus down')), subscribe: async () => () => {} });
  broken.listChanged('tools');
  await new Promise((r) => setTimeout(r, 10));
  assert.match(lines.join('\n'), /event bus: could not publish list_changed: bus down/);
});

test('an event store that fails is reported once per stream, and the stream still gets its reply', async () => {
  const lines = [];
  const server = createServer({
    info: { name: 's', version: '1' },
    report: (l) => lines.push(l),
    tools: [{ name: 'p', description: 'Progress, then done.', inputSchema: { type: 'object' }, run: async (_a, ctx) => (ctx.progress(1, 2), ctx.progress(2, 2), 'done') }],
  });
  const failing = new MemoryEventStore();
  failing.append = async () => {
    throw new Error('store down');
  };
  const handler = createFetchHandler(server, { keepAliveMs: 0, eventStore: failing });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body, extra = {}) => handler(new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) }));
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id') };
  const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'p', arguments: {}, _meta: { progressToken: 't' } } }, session);
  const text = await call.text();
  assert.match(text, /^id: [A-Za-z0-9_-]{16}\.1$/m);
  assert.match(text, /"result":\{"content":\[\{"type":"text","text":"done"\}\]/);
  assert.equal(lines.filter((l) => /event store: stream \S+ is not resumable: store down/.test(l)).length, 1);
  await handler.close();
});

test('serveHttp closes its listener first: a new connection is refused while the call in flight finishes', async () => {
  let release;
  const server = createServer({
    info: { name: 's', version: '1' },
    report: () => {},
    tools: [{ name: 'hold', description: 'Waits to be released.', inputSchema: { type: 'object' }, run: () => new Promise((r) => (release = r)) }],
  });
  const serving = await serveHttp(server, { port: 0 });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'hold' };
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const call = fetch(serving.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold', arguments: {}, _meta: meta } }) });
  while (release === undefined) await new Promise((r) => setTimeout(r, 5));
  const closed = serving.close();
  const { port } = new URL(serving.url);
  const refused = await new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error) => resolve(error.code));
  });
  assert.equal(refused, 'ECONNREFUSED');
  release('finished');
  const response = await call;
  assert.equal(response.status, 200);
  assert.equal((await response.json()).result.content[0].text, 'finished');
  await closed;
});
