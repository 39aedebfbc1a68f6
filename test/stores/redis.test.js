// The Redis stores of baremcp/redis against a real redis-server (started here on a free port,
// stopped after) through the node-redis client (the `redis` devDependency): the TaskStore contract
// (test/extensions/task-store.cases.js), the replicas behind round robin sharing sessions, stream
// events, the bus and tasks (test/transport/replicas.cases.js), and what is their own.
import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { RedisEventBus, RedisEventStore, RedisSessionStore, RedisTaskStore } from '../../dist/stores/redis/index.js';
import { taskState, taskStoreCases } from '../extensions/task-store.cases.js';
import { replicaCases } from '../transport/replicas.cases.js';
import { startRedis } from './redis-server.js';

const test = (name, fn) => nodeTest(name, { timeout: 30_000 }, fn);
let redis;
let client;
let prefixes = 0;
/** A key prefix of its own for each store, so that tests share nothing. */
const prefix = () => `test${++prefixes}:`;

before(async () => {
  redis = await startRedis();
  client = await createClient({ url: redis.url }).connect();
});
after(async () => {
  await client?.close();
  await redis?.stop();
});

taskStoreCases(test, 'RedisTaskStore', (options) => new RedisTaskStore({ client, prefix: prefix(), ...options }));

replicaCases(test, 'Redis stores', async () => {
  const shared = prefix();
  const bus = new RedisEventBus({ client, prefix: shared });
  return {
    sessionStore: new RedisSessionStore({ client, prefix: shared }),
    eventStore: new RedisEventStore({ client, prefix: shared }),
    bus,
    taskStore: new RedisTaskStore({ client, prefix: shared }),
    close: () => bus.close(),
  };
});

test('every Redis store refuses an object that is not a node-redis client, naming what it needs', () => {
  for (const Store of [RedisSessionStore, RedisEventStore, RedisEventBus, RedisTaskStore]) {
    assert.throws(() => new Store({ client: {} }), new RegExp(`${Store.name}: client must be a connected node-redis client`));
  }
  assert.throws(() => new RedisEventBus({ client: { sendCommand() {} } }), /give a subscriber client, or a client with duplicate\(\)/);
});

test('RedisSessionStore: a session lives ttlMs from its last use, updates are atomic, delete ends it', async () => {
  const store = new RedisSessionStore({ client, prefix: prefix() });
  const record = { owner: '', protocolVersion: '2025-11-25', client: { capabilities: {} }, initialized: false, resourceSubscriptions: [] };
  assert.equal(await store.create('s1', record, 200), true);
  assert.equal(await store.create('s1', record, 200), false, 'an id is never reused');
  // Concurrent updates from several replicas: none is lost.
  await Promise.all(['a', 'b', 'c', 'd'].map((uri) => store.update('s1', (r) => ({ ...r, resourceSubscriptions: [...r.resourceSubscriptions, uri] }), 200)));
  assert.deepEqual((await store.get('s1', 1000)).resourceSubscriptions.sort(), ['a', 'b', 'c', 'd']);
  // Two reads 600 ms apart, each renewing for 1000 ms: alive 1200 ms after the first only if the
  // second renewed it (margins of 400 ms either way, for a loaded machine).
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(await store.get('s1', 1000), 'renewed by the first read');
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(await store.get('s1', 1000), 'renewed by the second read');
  await new Promise((r) => setTimeout(r, 1400));
  assert.equal(await store.get('s1', 1000), undefined, 'expired');
  assert.equal(await store.update('s1', (r) => r, 1000), undefined);
  assert.equal(await store.create('s2', record, 10_000), true);
  assert.equal(await store.delete('s2'), true);
  assert.equal(await store.delete('s2'), false);
});

test('RedisEventStore keeps the last maxEventsPerStream events of a stream, and heartbeats lapse', async () => {
  const store = new RedisEventStore({ client, prefix: prefix(), maxEventsPerStream: 2 });
  await store.open('stream-one-abcdef', { sessionId: 's', node: 'n', requestId: 1 });
  for (let seq = 1; seq <= 3; seq++) {
    await store.append('stream-one-abcdef', seq, { jsonrpc: '2.0', method: 'm', params: { seq } }, seq === 3);
  }
  const read = await store.read('stream-one-abcdef', 0);
  assert.deepEqual(read.events.map((e) => e.seq), [2, 3]);
  assert.equal(read.ended, true);
  assert.deepEqual(read.info, { sessionId: 's', node: 'n', requestId: 1 });
  assert.deepEqual((await store.read('stream-one-abcdef', 2)).events.map((e) => e.seq), [3]);
  assert.equal(await store.read('unknown-stream-id', 0), undefined);
  await store.heartbeat('node-a', 100);
  assert.equal(await store.alive('node-a'), true);
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(await store.alive('node-a'), false);
});

test('RedisTaskStore: replicas updating one task at once lose no write', async () => {
  const store = new RedisTaskStore({ client, prefix: prefix() });
  await store.create(taskState('t', { inputResponses: {} }));
  await Promise.all(['a', 'b', 'c', 'd', 'e'].map((key) => store.update('t', (task) => ({ ...task, inputResponses: { ...task.inputResponses, [key]: {} } }))));
  assert.deepEqual(Object.keys((await store.get('t')).inputResponses).sort(), ['a', 'b', 'c', 'd', 'e']);
});
