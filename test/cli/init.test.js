// `baremcp init <dir>`: the starter package it writes installs this repo's tarball offline (what
// `npm publish` would ship, no network) and passes its own `npm test`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packageName } from '../../dist/cli/commands/init.js';
import { mainBin, repoRoot } from '../helpers.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'));

/** npm as [command, leading args]: the npm running this suite when there is one, else PATH's. */
function npm() {
  const cli = process.env.npm_execpath;
  return cli !== undefined && /\.c?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
}

/** Runs a command; resolves to { code, output } (never rejects). */
async function sh(command, args, options = {}) {
  return run(command, args, { maxBuffer: 16 * 1024 * 1024, ...options }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, output: stdout + stderr }),
    (error) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      output: `${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

// Without NODE_TEST_CONTEXT: node:test sets it for the files it runs, and a `node --test` that
// inherits it skips every file (it takes itself for a nested run).
const { NODE_TEST_CONTEXT: _nested, ...outer } = process.env;
const offline = {
  ...outer,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

let work;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'baremcp-init-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

test('init writes a package that installs this repo offline and passes its own npm test', async (t) => {
  const [cmd, lead] = npm();
  const probe = await sh(cmd, [...lead, '--version']);
  if (probe.code !== 0) return t.skip(`npm is not available: ${probe.output}`);
  assert.ok(
    existsSync(resolve(repoRoot, 'dist', 'testing', 'index.js')),
    'dist is built (npm test builds it first)',
  );

  const dir = join(work, 'Word Counter');
  const created = await sh(process.execPath, [mainBin, 'init', dir]);
  assert.equal(created.code, 0, created.output);
  assert.match(created.stdout, /Created word-counter/);
  assert.deepEqual(readdirSync(dir).sort(), [
    '.gitignore',
    'README.md',
    'bin.js',
    'package.json',
    'server.js',
    'test',
  ]);

  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.equal(manifest.name, 'word-counter');
  assert.deepEqual(manifest.bin, { 'word-counter': 'bin.js' });
  assert.deepEqual(manifest.dependencies, { baremcp: `^${pkg.version}` });
  assert.equal(manifest.devDependencies, undefined);
  assert.equal(manifest.type, 'module');
  const bin = readFileSync(join(dir, 'bin.js'), 'utf8');
  assert.match(bin, /^#!\/usr\/bin\/env node\n/);
  assert.ok((statSync(join(dir, 'bin.js')).mode & 0o111) !== 0, 'bin.js is executable');
  assert.match(readFileSync(join(dir, 'server.js'), 'utf8'), /from 'baremcp';/);
  assert.match(
    readFileSync(join(dir, 'test', 'server.test.js'), 'utf8'),
    /from 'baremcp\/testing';/,
  );
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  for (const client of ['Claude Desktop', 'Claude Code', 'Cursor'])
    assert.ok(readme.includes(client), `README mentions ${client}`);
  const config = /```json\n([^`]+)```/.exec(readme);
  assert.deepEqual(JSON.parse(config[1]), { mcpServers: { 'word-counter': { command: 'npx', args: ['-y', 'word-counter'] } } });
  assert.ok(readme.includes('claude mcp add word-counter -- npx -y word-counter'));

  // The tarball npm publish would upload, installed with no network.
  const packed = await sh(
    cmd,
    [...lead, 'pack', '--ignore-scripts', '--pack-destination', work, '--json'],
    { cwd: repoRoot, env: offline },
  );
  assert.equal(packed.code, 0, packed.output);
  const tarball = join(work, JSON.parse(packed.stdout)[0].filename);
  const installed = await sh(cmd, [...lead, 'install', '--no-save', '--offline', tarball], {
    cwd: dir,
    env: offline,
  });
  assert.equal(installed.code, 0, installed.output);
  assert.ok(existsSync(join(dir, 'node_modules', 'baremcp', 'dist', 'bundle', 'testing', 'index.js')));

  // TAP whatever the Node: from Node 23 on, `node --test` prints the spec reporter even when its
  // output is not a terminal.
  const tested = await sh(cmd, [...lead, 'test', '--', '--test-reporter=tap'], { cwd: dir, env: offline });
  assert.equal(tested.code, 0, tested.output);
  assert.match(tested.output, /# pass 3/);
  assert.match(tested.output, /# fail 0/);
});

test('init refuses a non-empty directory and a file, and writes nothing there', async () => {
  const full = join(work, 'full');
  mkdirSync(full);
  writeFileSync(join(full, 'keep.txt'), 'mine');
  const refused = await sh(process.execPath, [mainBin, 'init', full]);
  assert.equal(refused.code, 2);
  assert.match(refused.output, /not empty/);
  assert.deepEqual(readdirSync(full), ['keep.txt']);
  const file = join(full, 'keep.txt');
  const onFile = await sh(process.execPath, [mainBin, 'init', file]);
  assert.equal(onFile.code, 2);
  assert.match(onFile.output, /is a file/);
  const missing = await sh(process.execPath, [mainBin, 'init']);
  assert.equal(missing.code, 2);
  assert.match(missing.output, /name the directory/);
});

test('init accepts an existing empty directory', async () => {
  const empty = join(work, 'empty');
  mkdirSync(empty);
  const created = await sh(process.execPath, [mainBin, 'init', empty]);
  assert.equal(created.code, 0, created.output);
  assert.ok(existsSync(join(empty, 'server.js')));
});

test('the scaffold passes its own baremcp check with the default profiles: exit 0, no violation', async () => {
  const dir = join(work, 'checked');
  const created = await sh(process.execPath, [mainBin, 'init', dir]);
  assert.equal(created.code, 0, created.output);
  const checked = await sh(process.execPath, [mainBin, 'check', join(dir, 'server.js')]);
  assert.equal(checked.code, 0, checked.output);
  assert.equal(checked.stdout, 'No violations.\n1 tool checked; mcp: ok\n' +
    'Vendor strict modes (for tools sent strict): --profile openai,anthropic,gemini, or --profile all.\n');
});

test('package names come from the directory name, as npm accepts them', () => {
  assert.equal(packageName('/tmp/My Server'), 'my-server');
  assert.equal(packageName('/tmp/.hidden_dir.'), 'hidden_dir');
  assert.equal(packageName('/tmp/weather-mcp'), 'weather-mcp');
  assert.equal(packageName('/tmp/éé'), 'my-mcp-server');
});
