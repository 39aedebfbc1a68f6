// The in-memory task store: the TaskStore contract (task-store.cases.js), and what is its own:
// its limits' validation and the bound on the expired ids it remembers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTaskStore } from '../../dist/extensions/tasks/index.js';
import { taskState, taskStoreCases } from './task-store.cases.js';

taskStoreCases(test, 'MemoryTaskStore', (options) => new MemoryTaskStore(options));

test('MemoryTaskStore refuses a maxTasks that is not a positive integer', () => {
  for (const maxTasks of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new MemoryTaskStore({ maxTasks }), /maxTasks must be a positive integer/);
  }
  assert.equal(new MemoryTaskStore().size, 0);
});

test('MemoryTaskStore remembers at most maxTasks expired ids, the oldest forgotten first', async () => {
  let now = 0;
  const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
  for (const id of ['a', 'b', 'c']) {
    await store.create(taskState(id, { ttlMs: 10 }));
    now += 10;
    await store.expire(now);
  }
  assert.equal(store.size, 0);
  assert.equal(await store.get('a'), undefined, 'forgotten: unknown now');
  assert.deepEqual(await store.get('b'), { taskId: 'b', expired: true });
  assert.deepEqual(await store.get('c'), { taskId: 'c', expired: true });
});
