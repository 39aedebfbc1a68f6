// The workspace example's bounds (issue 19): bytes one read_text_file call may scan, and the
// default tool time-out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../dist/server/server.js';
import { connect } from '../../dist/testing/memory.js';
import { createWorkspaceTools, workspaceInfo } from '../../dist/examples/workspace/index.js';
const HAS_PROC = existsSync('/proc/self/status') && existsSync('/proc/self/io');
const live = () => ({ signal: new AbortController().signal });
const text = (result) => result.content.map((block) => block.text).join('\n');
/** A number from a /proc/self file, such as `Threads:` of status or `rchar:` of io. */
const proc = (file, key) =>
  Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/self/${file}`, 'utf8'))[1]);
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
      }),
    });
    const client = await connect(server);
    try {
      const slow = await client.callTool('search_text', { query: SLOW, regex: true, path: 'slow' });
      assert.equal(slow.isError, true);
      assert.match(text(slow), /search_text" timed out after 1000 ms; try a smaller request/);
      const quick = await client.callTool('search_text', { query: 'needle', path: 'quick.txt' });
      assert.equal(quick.isError, undefined, text(quick));
      assert.equal(quick.structuredContent.matches.length, 1);
    } finally {
      await client.close();
    }
  });
});
