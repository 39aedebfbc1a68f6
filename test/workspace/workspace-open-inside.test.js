// The workspace's descriptor checks (open-inside.ts, descriptors.ts) and the search walk built on
// them, on a real temporary directory: what was opened is checked, not the path it was opened by.
// Both strategies run where they can: by the kernel's name for the descriptor (/proc/self/fd,
// Linux) and by resolving the path again (everywhere else).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { openSync, closeSync, fstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  descriptorPath,
  DIRECTORY_FLAGS,
  FILE_FLAGS,
  probeDescriptorPaths,
} from '../../dist/workspace/descriptors.js';
import {
  childRef,
  openInside,
  openInsideSync,
  readEntries,
  recheck,
  statInside,
  stillInsideSync,
} from '../../dist/workspace/open-inside.js';
import { openWorkspaceRoot } from '../../dist/workspace/paths.js';
import { runSearch } from '../../dist/workspace/search-worker.js';

let base;
let ws;
let roots; // [name, root] for each strategy this platform can run
const CHANGED = /changed while it was being opened and led outside the workspace root/;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'baremcp-open-'));
  ws = join(base, 'ws');
  await mkdir(join(ws, 'sub'), { recursive: true });
  await mkdir(join(base, 'outside', 'inner'), { recursive: true });
  await writeFile(join(ws, 'file.txt'), 'inside\n');
  await writeFile(join(ws, 'sub', 'inner.txt'), 'inner\n');
  await writeFile(join(base, 'outside', 'secret.txt'), 'SECRET\n');
  await writeFile(join(base, 'outside', 'inner', 'deep.txt'), 'SECRET deep\n');
  await symlink(join(base, 'outside'), join(ws, 'link-out'));
  await symlink('sub', join(ws, 'link-in'));
  const root = openWorkspaceRoot(ws);
  roots = [['by re-resolving the path', { ...root, byDescriptor: false }]];
  if (root.byDescriptor) roots.unshift(['by /proc/self/fd', root]);
});

after(() => rm(base, { recursive: true, force: true }));

const openFds = () => readdir('/proc/self/fd').then((names) => names.length);

describe('descriptors', () => {
  test('the probe finds /proc/self/fd on Linux only, and not for a missing folder', () => {
    assert.equal(probeDescriptorPaths(openWorkspaceRoot(ws).real), process.platform === 'linux');
    assert.equal(probeDescriptorPaths(join(base, 'nope')), false);
  });

  test('a deleted file has no descriptor path', { skip: process.platform !== 'linux' }, async () => {
    const file = join(ws, 'gone.txt');
    await writeFile(file, 'x');
    const fd = openSync(file, FILE_FLAGS);
    try {
      assert.equal(descriptorPath(fd, fstatSync(fd)), file);
      await unlink(file);
      assert.equal(descriptorPath(fd, fstatSync(fd)), undefined);
    } finally {
      closeSync(fd);
    }
  });
});

describe('openInside', () => {
  test('a file reached through a link to outside is refused after the open, with either check', async () => {
    for (const [name, root] of roots) {
      await assert.rejects(
        openInside(root, join(root.real, 'link-out', 'secret.txt'), 'x/secret.txt', 'file'),
        CHANGED,
        name,
      );
      await assert.rejects(
        openInside(root, join(root.real, 'link-out', 'inner'), 'x/inner', 'directory'),
        CHANGED,
        name,
      );
    }
  });

  test('a link in the last segment is not followed at all (ELOOP, or ENOTDIR for a folder)', async () => {
    for (const [name, root] of roots) {
      await assert.rejects(
        openInside(root, join(root.real, 'link-in'), 'link-in', 'file'),
        { code: 'ELOOP' },
        name,
      );
      await assert.rejects(
        openInside(root, join(root.real, 'link-in'), 'link-in', 'directory'),
        (error) => ['ELOOP', 'ENOTDIR'].includes(error.code),
        name,
      );
    }
  });

  test('a file and a folder inside are opened, stat-ed and listed through the descriptor', async () => {
    for (const [name, root] of roots) {
      const file = await openInside(root, join(root.real, 'file.txt'), 'file.txt', 'file');
      try {
        assert.equal(file.real, join(root.real, 'file.txt'), name);
        assert.equal(file.info.isFile(), true);
        if (root.byDescriptor) assert.match(file.ref, /^\/proc\/self\/fd\/\d+$/);
      } finally {
        await file.handle.close();
      }
      const folder = await openInside(root, join(root.real, 'sub'), 'sub', 'directory');
      try {
        const { entries, complete } = await readEntries(folder, 10);
        assert.deepEqual(entries.map((e) => e.name), ['inner.txt'], name);
        assert.equal(complete, true);
        assert.deepEqual(await readEntries(folder, 0).then((r) => r.complete), false);
      } finally {
        await folder.handle.close();
      }
    }
  });

  test('a folder swapped for a link after it was opened is still the one listed and looked into', async (t) => {
    const root = openWorkspaceRoot(ws);
    if (!root.byDescriptor) return t.skip('the path-based check cannot do this (SECURITY.md)');
    const folder = await openInside(root, join(root.real, 'sub'), 'sub', 'directory');
    await rename(join(ws, 'sub'), join(ws, 'sub-moved'));
    await symlink(join(base, 'outside'), join(ws, 'sub'));
    try {
      const { entries } = await readEntries(folder, 10);
      assert.deepEqual(entries.map((e) => e.name), ['inner.txt']);
      const { statSync } = await import('node:fs');
      assert.equal(statSync(childRef(folder, 'inner.txt')).size, 'inner\n'.length);
      assert.throws(() => statSync(childRef(folder, 'secret.txt')), { code: 'ENOENT' });
    } finally {
      await folder.handle.close();
      await unlink(join(ws, 'sub'));
      await rename(join(ws, 'sub-moved'), join(ws, 'sub'));
    }
  });

  test('elsewhere, a folder swapped for a link after it was opened is caught once it was read by path', async () => {
    const root = { ...openWorkspaceRoot(ws), byDescriptor: false };
    const folder = await openInside(root, join(root.real, 'sub'), 'sub', 'directory');
    const synced = openInsideSync(root, join(root.real, 'sub'), DIRECTORY_FLAGS);
    await rename(join(ws, 'sub'), join(ws, 'sub-moved'));
    await symlink(join(base, 'outside'), join(ws, 'sub'));
    try {
      await assert.rejects(readEntries(folder, 10), CHANGED);
      await assert.rejects(recheck(folder), CHANGED);
      assert.equal(stillInsideSync(root, synced), false);
    } finally {
      await folder.handle.close();
      closeSync(synced.fd);
      await unlink(join(ws, 'sub'));
      await rename(join(ws, 'sub-moved'), join(ws, 'sub'));
    }
    const again = await openInside(root, join(root.real, 'sub'), 'sub', 'directory');
    await recheck(again); // unchanged: nothing to say
    await again.handle.close();
  });
});

describe('statInside', () => {
  test('it stats the root, a file and a folder without opening them', async () => {
    for (const [name, root] of roots) {
      const top = await statInside(root, root.real, '.');
      assert.deepEqual([top.real, top.info.isDirectory()], [root.real, true], name);
      const file = await statInside(root, join(root.real, 'sub', 'inner.txt'), 'sub/inner.txt');
      assert.deepEqual([file.real, file.info.size], [join(root.real, 'sub', 'inner.txt'), 6]);
    }
  });

  test('a parent through a link to outside, and a last segment that became a link, are refused', async () => {
    for (const [name, root] of roots) {
      await assert.rejects(
        statInside(root, join(root.real, 'link-out', 'inner', 'deep.txt'), 'x/inner/deep.txt'),
        CHANGED,
        name,
      );
      // resolveInside resolves every link, so a link here means it was swapped in meanwhile.
      await assert.rejects(statInside(root, join(root.real, 'link-in'), 'link-in'), CHANGED, name);
    }
  });
});

describe('openInsideSync and the search walk', () => {
  test('a refused or failed open returns nothing and leaves no descriptor open', { skip: process.platform !== 'linux' }, async () => {
    for (const [name, root] of roots) {
      const before = await openFds();
      assert.equal(openInsideSync(root, join(root.real, 'link-out', 'secret.txt'), FILE_FLAGS), undefined, name);
      assert.equal(openInsideSync(root, join(root.real, 'link-in'), DIRECTORY_FLAGS), undefined, name);
      assert.equal(openInsideSync(root, join(root.real, 'missing'), FILE_FLAGS), undefined, name);
      assert.equal(await openFds(), before, name);
      const opened = openInsideSync(root, join(root.real, 'sub'), DIRECTORY_FLAGS);
      assert.equal(opened.real, join(root.real, 'sub'));
      assert.equal(stillInsideSync(root, opened), true);
      closeSync(opened.fd);
    }
  });

  test('the worker checks its start itself: a start through a link to outside searches nothing', () => {
    for (const [name, root] of roots) {
      const posted = [];
      const job = {
        root: { real: root.real, byDescriptor: root.byDescriptor },
        start: join(root.real, 'link-out'),
        source: 'secret',
        flags: 'i',
        limit: 10,
        maxFileBytes: 1 << 20,
        timeMs: 5000,
        counters: new SharedArrayBuffer(8),
      };
      assert.equal(runSearch(job, (m) => posted.push(m)), null, name);
      assert.deepEqual(posted, [], name);
      job.start = root.real;
      runSearch(job, (m) => posted.push(m));
      assert.deepEqual(posted, [], `${name}: the walk does not follow link-out`);
      job.source = 'inner';
      runSearch(job, (m) => posted.push(m));
      assert.deepEqual(posted.map((m) => m.path), ['sub/inner.txt'], name);
    }
  });
});
