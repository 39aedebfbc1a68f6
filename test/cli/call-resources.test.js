// `baremcp call --read <uri>` and `baremcp call --prompt <name> [json-args]` against the example
// server on a temporary directory: what they print, --json, and their exit codes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mainBin, repoRoot } from '../helpers.js';
import { assertWire, schemaDir } from '../mcp-oracle.js';

const SECRET = 'TOP-SECRET-TOKEN';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
let base;
let root;

before(() => {
  base = mkdtempSync(join(tmpdir(), 'baremcp-call-res-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(root, 'README.md'), '# Title\nline two\n');
  writeFileSync(join(root, 'no-eol.txt'), 'abc');
  writeFileSync(join(root, 'logo.png'), PNG);
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  // A module server whose resource has several contents and whose prompt has other block types.
  const index = pathToFileURL(resolve(repoRoot, 'dist', 'index.js')).href;
  writeFileSync(
    join(base, 'server.mjs'),
    `import { createServer } from ${JSON.stringify(index)};
export default createServer({
  info: { name: 'multi', version: '1.0.0' },
  resources: [{ uri: 'mem://many', name: 'many', read: () => [{ text: 'first' }, { uri: 'mem://many/b', mimeType: 'application/x-b', blob: 'AAEC' }] }],
  prompts: [{
    name: 'mixed',
    get: () => [
      { role: 'assistant', content: { type: 'image', data: 'AAECAw==', mimeType: 'image/png' } },
      { role: 'user', content: { type: 'resource_link', uri: 'mem://many', name: 'many' } },
    ],
  }],
});
`,
  );
});
after(() => rmSync(base, { recursive: true, force: true }));

const call = (...args) => spawnSync(process.execPath, [mainBin, 'call', '--root', root, ...args], { encoding: 'utf8', timeout: 30_000 });

test('call --read prints the text of a resource, ending in one line break', () => {
  const r = call('--read', 'file:///README.md');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '# Title\nline two\n');
  const bare = call('--read', 'file:///no-eol.txt');
  assert.equal(bare.status, 0, bare.stderr);
  assert.equal(bare.stdout, 'abc\n');
});

test('call --read prints <blob N bytes mimeType> for a binary resource, and --read=<uri> works too', () => {
  const r = call('--read=file:///logo.png');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `<blob ${PNG.length} bytes image/png>\n`);
});

test('call --read --json prints the raw ReadResourceResult', () => {
  const r = call('--json', '--read', 'file:///logo.png');
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.deepEqual(result, { contents: [{ uri: 'file:///logo.png', mimeType: 'image/png', blob: PNG.toString('base64') }] });
  if (schemaDir !== undefined) assertWire(assert, '2025-11-25', 'ReadResourceResult', result);
});

test('call --read of a path outside the root exits 3 with "Resource not found" and prints nothing', () => {
  for (const uri of ['file:///../secret.txt', 'file:///%2e%2e/secret.txt', 'file:///missing.txt']) {
    const r = call('--read', uri);
    assert.equal(r.status, 3, `${uri}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Resource not found/);
    assert.doesNotMatch(r.stderr, new RegExp(SECRET));
  }
});

test('call --prompt prints each message with its role, the embedded file under its URI', () => {
  const r = call('--prompt', 'review_file', '{"path":"src/a.ts","focus":"naming"}');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], '[user]');
  assert.match(lines[1], /review the file src\/a\.ts .*attention to: naming\./);
  assert.equal(lines[2], '[user] file:///src/a.ts');
  assert.equal(lines.slice(3).join('\n'), 'export const a = 1;\n');
});

test('call --prompt --json prints the raw GetPromptResult; a binary file shows as a blob label', () => {
  const r = call('--prompt', 'review_file', '{"path":"logo.png"}', '--json');
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.equal(result.messages[1].content.resource.blob, PNG.toString('base64'));
  if (schemaDir !== undefined) assertWire(assert, '2025-11-25', 'GetPromptResult', result);
  const plain = call('--prompt', 'review_file', '{"path":"logo.png"}');
  assert.match(plain.stdout, new RegExp(`\\[user\\] file:///logo\\.png\\n<blob ${PNG.length} bytes image/png>\\n$`));
});

test('call --prompt with a refused path or a missing argument exits 3 with the server message', () => {
  const outside = call('--prompt', 'review_file', '{"path":"../secret.txt"}');
  assert.equal(outside.status, 3);
  assert.match(outside.stderr, /not a readable file inside the workspace/);
  const missing = call('--prompt', 'review_file');
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /missing required argument "path"/);
  const unknown = call('--prompt', 'no_such_prompt');
  assert.equal(unknown.status, 3);
  assert.match(unknown.stderr, /Unknown prompt/);
});

test('malformed --read and --prompt command lines are usage errors (exit 2)', () => {
  const cases = [
    [['--read'], /--read needs a value/],
    [['--read', 'file:///README.md', 'extra'], /unexpected argument "extra"/],
    [['--read', 'file:///README.md', '--prompt', 'review_file'], /not both/],
    [['--prompt'], /--prompt needs a value/],
    [['--prompt', 'review_file', '{"path":1}'], /argument "path" must be a string/],
    [['--prompt', 'review_file', '{bad'], /prompt arguments are not valid JSON/],
    [['--prompt', 'review_file', '[]'], /prompt arguments must be a JSON object/],
    [['--prompt', 'review_file', '{}', 'extra'], /unexpected argument "extra"/],
  ];
  for (const [args, pattern] of cases) {
    const r = call(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
});

test('call --read reaches a server started with -- <command...>', () => {
  const r = spawnSync(process.execPath, [mainBin, 'call', '--read', 'file:///README.md', '--', process.execPath, mainBin, '--root', root], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '# Title\nline two\n');
});

test('call --read prints a [uri] line before each of several contents, and --prompt labels other blocks', () => {
  const module = join(base, 'server.mjs');
  const read = spawnSync(process.execPath, [mainBin, 'call', '--server', module, '--read', 'mem://many'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(read.status, 0, read.stderr);
  assert.equal(read.stdout, '[mem://many]\nfirst\n[mem://many/b]\n<blob 3 bytes application/x-b>\n');
  const prompt = spawnSync(process.execPath, [mainBin, 'call', '--server', module, '--prompt', 'mixed'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(prompt.status, 0, prompt.stderr);
  assert.equal(prompt.stdout, '[assistant]\n<image 4 bytes image/png>\n[user]\n<resource_link mem://many>\n');
});
