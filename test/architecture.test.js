// ARCHITECTURE.md tells the truth about the code: every file and folder it names exists under
// src/, its layer table lists every folder of shipped code, and each layer imports only the
// layers above it in that table, as the document says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { repoRoot } from './helpers.js';

const src = resolve(repoRoot, 'src');
const doc = readFileSync(resolve(repoRoot, 'ARCHITECTURE.md'), 'utf8');

/** Every file under `dir`, as paths relative to src/. */
function files(dir = src) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full.slice(src.length + 1)];
  });
}

test('every .ts file and folder ARCHITECTURE.md names exists under src/', () => {
  const all = files();
  const names = new Set(all.map((f) => basename(f)));
  const missing = [];
  for (const [, path] of doc.matchAll(/`([a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*(?:\.ts|\/))`/g)) {
    const exists = path.includes('/')
      ? existsSync(join(src, path)) || existsSync(join(repoRoot, path))
      : names.has(path);
    if (!exists) missing.push(path);
  }
  assert.deepEqual(missing, [], `named in ARCHITECTURE.md, not found under src/: ${missing.join(', ')}`);
});

/** The folders of the layer table, in its order. */
function layers() {
  const table = doc.slice(doc.indexOf('| folder |'), doc.indexOf('\n\n', doc.indexOf('| folder |')));
  return [...table.matchAll(/^\| `([a-z]+)\/` \|/gm)].map((m) => m[1]);
}

test('the layer table lists every folder of shipped code but the ones on top', () => {
  const onTop = ['testing', 'cli', 'workspace'];
  const folders = readdirSync(src).filter((f) => statSync(join(src, f)).isDirectory() && !onTop.includes(f));
  assert.deepEqual([...layers()].sort(), folders.sort());
  for (const folder of onTop) assert.match(doc, new RegExp(`\`${folder}/\``), folder);
});

test('each layer imports only the layers above it in the table', () => {
  const order = layers();
  const wrong = [];
  for (const [i, layer] of order.entries()) {
    for (const file of files(join(src, layer))) {
      const text = readFileSync(join(src, file), 'utf8');
      for (const [, target] of text.matchAll(/from '(?:\.\.\/)+([a-z]+)\//g)) {
        if (target !== layer && order.indexOf(target) > i) wrong.push(`${file} imports ${target}/`);
      }
    }
  }
  assert.deepEqual([...new Set(wrong)], []);
});
