// The workspace example's bounds (issue 19): bytes one read_text_file call may scan, the default
// tool time-out, and the search pool (threads, queue, cancellation, reuse).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../dist/server/server.js';
import { connect } from '../../dist/testing/memory.js';
import { createWorkspaceTools, workspaceInfo } from '../../dist/workspace/index.js';
import { openWorkspaceRoot } from '../../dist/workspace/paths.js';
import { SearchPool } from '../../dist/workspace/search-pool.js';

const WORKER_URL = new URL('../../dist/workspace/search-worker.js', import.meta.url);
const HAS_PROC = existsSync('/proc/self/status') && existsSync('/proc/self/io');
const live = () => ({ signal: new AbortController().signal });
const text = (result) => result.content.map((block) => block.text).join('\n');
/** A number from a /proc/self file, such as `Threads:` of status or `rchar:` of io. */
const proc = (file, key) =>
  Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/self/${file}`, 'utf8'))[1]);
const osThreads = () => proc('status', 'Threads');
const bytesRead = () => proc('io', 'rchar');
const tool = (tools, name) => tools.find((t) => t.name === name);

let base;
let root;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'baremcp-wslimits-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'slow'), { recursive: true });
  await writeFile(join(root, 'slow', 'redos.txt'), `${'a'.repeat(40)}!\n`);
  await writeFile(join(root, 'quick.txt'), 'needle\n');
});

after(() => rm(base, { recursive: true, force: true }));

/** A search job as search_text builds it. */
function job(source, timeMs, start = join(root, 'slow')) {
  const { real, byDescriptor } = openWorkspaceRoot(root);
  return {
    root: { real, byDescriptor },
    start,
    source,
    flags: '',
    limit: 10,
    maxFileBytes: 1 << 20,
    timeMs,
    counters: new SharedArrayBuffer(8),
  };
}
const SLOW = '^(a+)+$';

describe('read_text_file scan bound', () => {
  test('startLine is looked for in at most maxScanBytes, then the call is an isError result pointing to tail and search_text', async () => {
    const tools = createWorkspaceTools(root, { maxScanBytes: 100 });
    const read = (path, args) => tool(tools, 'read_text_file').run({ path, ...args }, live());
    await writeFile(join(root, 'long-first.txt'), `${'x'.repeat(100)}\nsecond\n`);
    const refused = await read('long-first.txt', { startLine: 2 });
    assert.equal(refused.isError, true);
    assert.equal(
      text(refused),
      "Line 2 of 'long-first.txt' begins more than 100 bytes into the file (line 1 is still " +
        'going on there), and read_text_file scans at most 100 bytes per call to find a line. ' +
        'Use tail to read the end of the file, or search_text to find the lines you need.',
    );
    assert.equal((await read('long-first.txt', { tail: 1 })).content[0].text, 'second\n');
    // Line 2 beginning exactly at byte 100 is found; a file that ends at the bound is "past the end".
    await writeFile(join(root, 'at-bound.txt'), `${'x'.repeat(99)}\nsecond\n`);
    assert.equal(text(await read('at-bound.txt', { startLine: 2 })).split('\n')[0], 'second');
    await writeFile(join(root, 'ends-at-bound.txt'), 'x'.repeat(100));
    assert.match(text(await read('ends-at-bound.txt', { startLine: 2 })), /past the end.*1 lines/);
    assert.throws(() => createWorkspaceTools(root, { maxScanBytes: 0 }), RangeError);
  });

  const sparse = { skip: !HAS_PROC && 'needs /proc/self/io', timeout: 30_000 };
  test('on a 10 GiB sparse file with no newline, startLine 2 reads about 64 MiB, not 10 GiB', sparse, async () => {
    const file = join(root, 'sparse.txt');
    await writeFile(file, 'x'.repeat(8192));
    await truncate(file, 10 * 2 ** 30);
    try {
      const tools = createWorkspaceTools(root);
      const before = bytesRead();
      const result = await tool(tools, 'read_text_file').run(
        { path: 'sparse.txt', startLine: 2 },
        live(),
      );
      const read = bytesRead() - before;
      assert.equal(result.isError, true);
      assert.match(text(result), /begins more than 67108864 bytes into the file/);
      assert.ok(read <= 64 * 2 ** 20 + 2 ** 20, `read ${read} bytes`);
      assert.ok(read >= 64 * 2 ** 20, `read ${read} bytes`);
    } finally {
      await rm(file);
    }
  });
});

describe('tool time-out', () => {
  test('every workspace tool carries a 30 s time-out by default, and toolTimeoutMs sets it', () => {
    const timeouts = (options) => createWorkspaceTools(root, options).map((t) => t.timeoutMs);
    assert.deepEqual(timeouts(), [30_000, 30_000, 30_000, 30_000]);
    assert.deepEqual(timeouts({ toolTimeoutMs: 5 }), [5, 5, 5, 5]);
  });

  test('a search that outlasts the time-out is an isError result, and its worker is stopped for the next one', async () => {
    const server = createServer({
      info: workspaceInfo,
      tools: createWorkspaceTools(root, {
        toolTimeoutMs: 1000,
        searchTimeMs: 60_000,
        searchThreads: 1,
      }),
    });
    const client = await connect(server);
    try {
      const slow = await client.callTool('search_text', { query: SLOW, regex: true, path: 'slow' });
      assert.equal(slow.isError, true);
      assert.match(text(slow), /search_text" timed out after 1000 ms; try a smaller request/);
      // With one thread, this search could not start if the stuck worker had been left running.
      const quick = await client.callTool('search_text', { query: 'needle', path: 'quick.txt' });
      assert.equal(quick.isError, undefined, text(quick));
      assert.equal(quick.structuredContent.matches.length, 1);
    } finally {
      await client.close();
    }
  });
});

describe('search pool', () => {
  test('at most `threads` workers exist, `maxQueued` searches wait, and one more is refused as busy', async () => {
    const pool = new SearchPool({ workerUrl: WORKER_URL, threads: 2, maxQueued: 2, heapMb: 64 });
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, pool.threads)), 2);
    try {
      const accepted = Array.from({ length: 4 }, () => pool.run(job(SLOW, 150)));
      assert.equal(pool.queued, 2);
      await assert.rejects(pool.run(job(SLOW, 150)), {
        name: 'ToolError',
        message: /^The server is busy with other searches \(2 running, 2 waiting\)\. Try again/,
      });
      const outcomes = await Promise.all(accepted);
      assert.deepEqual(outcomes.map((o) => o.stoppedBy), ['time', 'time', 'time', 'time']);
      assert.equal(pool.peakThreads, 2);
      assert.ok(most <= 2, `saw ${most} workers`);
    } finally {
      clearInterval(sampler);
      await pool.close();
    }
  });

  test('a waiting search that is cancelled never runs; a running one is stopped with its worker', async () => {
    const pool = new SearchPool({ workerUrl: WORKER_URL, threads: 1, maxQueued: 4, heapMb: 64 });
    try {
      const first = new AbortController();
      const second = new AbortController();
      const running = pool.run(job(SLOW, 60_000), first.signal);
      const waiting = pool.run(job('needle', 60_000, root), second.signal);
      second.abort();
      const cancelled = await waiting;
      assert.equal(cancelled.stoppedBy, 'cancelled');
      assert.equal(cancelled.filesSearched, 0, 'it never ran');
      assert.equal(pool.queued, 0);
      first.abort();
      assert.equal((await running).stoppedBy, 'cancelled');
      const aborted = new AbortController();
      aborted.abort();
      assert.equal((await pool.run(job('x', 100), aborted.signal)).stoppedBy, 'cancelled');
      while (pool.threads > 0) await new Promise((r) => setTimeout(r, 5));
    } finally {
      await pool.close();
    }
  });

  test('a worker is reused for the next search, retired when idle, and close() cancels every search', async () => {
    const pool = new SearchPool({
      workerUrl: WORKER_URL,
      threads: 1,
      maxQueued: 4,
      heapMb: 64,
      idleMs: 30,
    });
    for (let i = 0; i < 3; i++) {
      const outcome = await pool.run(job('needle', 5000, root));
      assert.deepEqual(outcome.matches.map((m) => m.path), ['quick.txt']);
    }
    assert.equal(pool.peakThreads, 1);
    while (pool.threads > 0) await new Promise((r) => setTimeout(r, 5));
    const running = pool.run(job(SLOW, 60_000));
    const waiting = pool.run(job('needle', 5000, root));
    await pool.close();
    assert.equal((await waiting).stoppedBy, 'cancelled');
    assert.equal((await running).stoppedBy, 'cancelled');
    assert.equal(pool.threads, 0);
  });

  test('a search whose worker fails is rejected with the error, and the next search gets a new worker', async () => {
    const pool = new SearchPool({ workerUrl: WORKER_URL, threads: 1, maxQueued: 1, heapMb: 64 });
    try {
      await assert.rejects(pool.run({ ...job('x', 5000), flags: 'not-flags' }), SyntaxError);
      const outcome = await pool.run(job('needle', 5000, root));
      assert.deepEqual(outcome.matches.map((m) => m.path), ['quick.txt']);
      assert.equal(pool.peakThreads, 1);
    } finally {
      await pool.close();
    }
  });

  const threads = { skip: !HAS_PROC && 'needs /proc/self/status' };
  test('through search_text, 8 concurrent slow searches add at most searchThreads OS threads', threads, async () => {
    const options = { searchThreads: 2, maxQueuedSearches: 30, searchTimeMs: 100 };
    const tools = createWorkspaceTools(root, options);
    const search = tool(tools, 'search_text');
    const baseline = osThreads();
    let most = baseline;
    const sampler = setInterval(() => (most = Math.max(most, osThreads())), 2);
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => search.run({ query: SLOW, regex: true, path: 'slow' }, live())),
      );
      assert.ok(results.every((r) => r.structuredContent?.truncatedReason === 'timeLimit'));
    } finally {
      clearInterval(sampler);
    }
    // One thread of slack for a thread the process starts by itself meanwhile (CI read 12 -> 15
    // once, on Node 20 under load, with the pool's own count at 2). Without the bound, the 8
    // searches would add 8 threads.
    assert.ok(most - baseline <= options.searchThreads + 1, `threads went from ${baseline} to ${most}`);
  });

  test('past the queue, search_text answers with an isError result asking to try again', async () => {
    const options = { searchThreads: 1, maxQueuedSearches: 1, searchTimeMs: 100 };
    const tools = createWorkspaceTools(root, options);
    const search = tool(tools, 'search_text');
    const results = await Promise.all(
      Array.from({ length: 3 }, () => search.run({ query: SLOW, regex: true, path: 'slow' }, live())),
    );
    const refused = results.filter((r) => r.isError === true);
    assert.equal(refused.length, 1, 'one runs, one waits, one is refused');
    assert.match(text(refused[0]), /busy with other searches \(1 running, 1 waiting\)\. Try again/);
  });
});
