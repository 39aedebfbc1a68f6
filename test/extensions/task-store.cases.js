// The TaskStore contract as one case suite, run against every implementation (the in-memory store
// here; a shared store, e.g. on Redis, runs the same cases). `make({ maxTasks, now })` returns a
// fresh store whose clock is `now()` (milliseconds) and that holds at most `maxTasks` tasks.
import assert from 'node:assert/strict';

const AT = '2026-12-01T10:00:00.000Z';

/** A new task state: plain JSON, as the tasks extension writes it. */
export function taskState(taskId, fields = {}) {
  return { taskId, status: 'working', createdAt: AT, lastUpdatedAt: AT, ttlMs: 60_000, pollIntervalMs: 1000, ...fields };
}

/** Registers the contract's cases with `test` for the store `make` builds. */
export function taskStoreCases(test, name, make) {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms) => (now += ms) };
  };

  test(`${name}: a created task is found at once, as JSON equal to what was stored`, async () => {
    const store = make({ maxTasks: 10, now: clock().now });
    const state = taskState('t1', { owner: '["iss","sub",null]', statusMessage: 'started' });
    await store.create(state);
    assert.deepEqual(await store.get('t1'), state);
    // Copies: changing what get returned changes nothing stored.
    (await store.get('t1')).status = 'failed';
    assert.equal((await store.get('t1')).status, 'working');
    assert.equal(await store.get('unknown'), undefined);
    await assert.rejects(store.create(state), /exists already/);
  });

  test(`${name}: update applies a pure change to the current state and resolves to what is stored`, async () => {
    const store = make({ maxTasks: 10, now: clock().now });
    await store.create(taskState('t1'));
    const seen = [];
    const after = await store.update('t1', (task) => {
      seen.push(task.status);
      return { ...task, status: 'input_required', inputRequests: { a: { method: 'roots/list', params: {} } } };
    });
    assert.deepEqual(seen, ['working']);
    assert.equal(after.status, 'input_required');
    assert.deepEqual(await store.get('t1'), after);
    // No change: the task stays as it is.
    assert.deepEqual(await store.update('t1', () => undefined), after);
    // A value JSON cannot carry fails the update and leaves the task as it was.
    await assert.rejects(store.update('t1', (task) => ({ ...task, result: { n: 1n } })));
    assert.deepEqual(await store.get('t1'), after);
    assert.equal(await store.update('unknown', (task) => task), undefined);
  });

  test(`${name}: cancel marks a live task cancelled and drops its input requests; a terminal task stays as it is`, async () => {
    const store = make({ maxTasks: 10, now: clock().now });
    await store.create(taskState('t1', { status: 'input_required', inputRequests: { a: {} } }));
    const cancelled = await store.cancel('t1');
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.inputRequests, undefined);
    await store.create(taskState('t2', { status: 'completed', result: { content: [] } }));
    assert.equal((await store.cancel('t2')).status, 'completed');
    assert.equal(await store.cancel('unknown'), undefined);
  });

  test(`${name}: a task is gone once its ttlMs passed, reported as expired while remembered, and by expire()`, async () => {
    const { now, advance } = clock();
    const store = make({ maxTasks: 10, now });
    await store.create(taskState('short', { ttlMs: 1000, owner: 'o' }));
    await store.create(taskState('long', { ttlMs: 5000 }));
    await store.create(taskState('forever', { ttlMs: null }));
    advance(999);
    assert.deepEqual(await store.expire(now()), []);
    assert.equal((await store.get('short')).status, 'working');
    advance(1);
    assert.deepEqual(await store.get('short'), { taskId: 'short', expired: true, owner: 'o' });
    assert.equal(await store.update('short', (t) => t), undefined);
    advance(10_000);
    // Every task that expired since the last call, found by a read or by this sweep.
    assert.deepEqual((await store.expire(now())).sort(), ['long', 'short']);
    assert.deepEqual(await store.expire(now()), []);
    assert.deepEqual(await store.get('long'), { taskId: 'long', expired: true });
    assert.equal((await store.get('forever')).status, 'working');
  });

  test(`${name}: at maxTasks a create fails naming the limit, no task is dropped, and expired ones make room`, async () => {
    const { now, advance } = clock();
    const store = make({ maxTasks: 2, now });
    await store.create(taskState('a', { ttlMs: 1000 }));
    await store.create(taskState('b', { ttlMs: 5000 }));
    await assert.rejects(store.create(taskState('c')), (error) => {
      assert.equal(error.name, 'TaskStoreFullError');
      assert.match(error.message, /the task store is full \(maxTasks 2\)/);
      return true;
    });
    assert.equal((await store.get('a')).status, 'working');
    advance(1000);
    await store.create(taskState('c'));
    assert.equal((await store.get('c')).status, 'working');
    assert.equal((await store.get('b')).status, 'working');
  });
}
