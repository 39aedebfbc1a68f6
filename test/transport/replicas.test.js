// Replicas behind a plain round robin, in-process, sharing the in-memory stores and bus (see
// replicas.cases.js; the Redis stores run the same cases in test/stores/redis.test.js).
import { test as nodeTest } from 'node:test';
import { MemoryEventBus, MemoryEventStore, MemorySessionStore } from '../../dist/index.js';
import { MemoryTaskStore } from '../../dist/extensions/tasks/index.js';
import { replicaCases } from './replicas.cases.js';

const test = (name, fn) => nodeTest(name, { timeout: 20_000 }, fn);

replicaCases(test, 'memory stores', async () => ({
  sessionStore: new MemorySessionStore(),
  eventStore: new MemoryEventStore(),
  bus: new MemoryEventBus(),
  taskStore: new MemoryTaskStore(),
  close: async () => {},
}));
