// The API reference (`npm run docs`, TypeDoc over typedoc.json) builds with no warning: no public
// type refers to a type left unexported (save the type-level helpers typedoc.json names), no
// {@link} is broken. Its modules are exactly the package's entry points, each named as a user
// imports it (`baremcp`, `baremcp/stdio`, ...).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './helpers.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'));
const config = JSON.parse(readFileSync(resolve(repoRoot, 'typedoc.json'), 'utf8'));

let work;
let output;
let project;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'baremcp-typedoc-'));
  const typedoc = resolve(repoRoot, 'node_modules', 'typedoc', 'bin', 'typedoc');
  // --json alone: the same conversion and validation as `npm run docs`, without the HTML.
  const result = await run(process.execPath, [typedoc, '--json', join(work, 'api.json')], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, text: `${stdout}${stderr}` }),
    (error) => ({ code: error.code, text: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  output = result;
  if (result.code === 0) project = JSON.parse(readFileSync(join(work, 'api.json'), 'utf8'));
});

after(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

test('typedoc.json fails on any warning, and npm run docs runs it', () => {
  assert.equal(config.treatWarningsAsErrors, true);
  assert.equal(pkg.scripts.docs, 'typedoc');
  assert.ok(pkg.devDependencies.typedoc, 'typedoc is a devDependency');
});

test('the API reference builds with no warning', () => {
  assert.equal(output.code, 0, output.text);
  assert.doesNotMatch(output.text, /warning/i);
});

test('its modules are the entry points of the exports map, named as they are imported', () => {
  const expected = Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => ({
      name: `baremcp${subpath.slice(1)}`,
      source: target.types.replace(/^\.\/dist\/types\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  assert.deepEqual([...config.entryPoints].sort(), expected.map((e) => e.source).sort());
  assert.ok(project, output.text);
  const names = project.children.map((m) => m.name).sort((a, b) => a.localeCompare(b));
  assert.deepEqual(names, expected.map((e) => e.name));
  const root = project.children.find((m) => m.name === 'baremcp');
  const documented = new Set(root.children.map((c) => c.name));
  for (const name of ['createServer', 'defineTool', 'RpcError', 'FromSchema', 'RequestContext']) {
    assert.ok(documented.has(name), `baremcp documents ${name}`);
  }
});
