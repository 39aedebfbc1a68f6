// The servers in examples/ run, driven by the baremcp/testing client: in memory, and one over stdio
// through `baremcp serve`. TypeScript examples are transpiled first (types are checked by
// test/docs.test.js); `baremcp` resolves to this repo (self-reference, or a symlink in a temp dir).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { connect, spawnClient, textOf } from '../dist/testing/index.js';
import { mainBin, repoRoot } from './helpers.js';

const dir = resolve(repoRoot, 'examples');
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'baremcp-examples-'));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(repoRoot, join(work, 'node_modules', 'baremcp'), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
});
after(() => rmSync(work, { recursive: true, force: true }));

/** The default export of examples/<file>; a .ts file is transpiled into the temp dir first. */
async function load(file) {
  let path = join(dir, file);
  if (file.endsWith('.ts')) {
    const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    path = join(work, file.replace(/\.ts$/, '.js'));
    writeFileSync(path, outputText);
  }
  return (await import(pathToFileURL(path).href)).default;
}

test('every example is a single file under 50 lines', () => {
  const files = readdirSync(dir).filter((f) => /\.(js|ts)$/.test(f));
  assert.ok(files.length >= 3, files.join(', '));
  for (const file of files) {
    const lines = readFileSync(join(dir, file), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines < 50, `${file} has ${lines} lines`);
  }
});

test('echo.js: a plain object server repeats its text, and refuses a count over its maximum', async () => {
  const client = await connect(await load('echo.js'));
  assert.equal(client.serverInfo.name, 'echo');
  assert.equal(textOf(await client.callTool('echo', { text: 'hi', times: 2 })), 'hi hi');
  const refused = await client.callTool('echo', { text: 'hi', times: 11 });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /times/);
  await client.close();
});

test('echo.js over stdio through baremcp serve', async () => {
  const client = await spawnClient(process.execPath, [mainBin, 'serve', join(dir, 'echo.js')]);
  assert.equal(textOf(await client.callTool('echo', { text: 'over stdio' })), 'over stdio');
  assert.deepEqual(client.strayOutput, []);
  await client.close();
});

test('typed.ts: a typed tool with structured output, a prompt and a resource template', async () => {
  const client = await connect(await load('typed.ts'));
  const result = await client.callTool('forecast', { city: 'Oslo', days: '2' });
  assert.deepEqual(result.structuredContent, { city: 'Oslo', highs: [20, 21] });
  assert.equal(textOf(result), 'Oslo: 20°C, 21°C');
  assert.equal(
    textOf(await client.callTool('forecast', { city: 'Oslo', days: 1, unit: 'fahrenheit' })),
    'Oslo: 68°F',
  );
  assert.equal((await client.callTool('forecast', { city: 'Oslo', unit: 'kelvin' })).isError, true);
  assert.equal(
    textOf(await client.getPrompt('plan_trip', { city: 'Oslo', month: 'May' })),
    'Plan three days in Oslo in May; check the forecast first.',
  );
  assert.deepEqual((await client.readResource('weather://cities/Oslo')).contents, [
    { uri: 'weather://cities/Oslo', mimeType: 'text/plain', text: 'Oslo: a city with weather.' },
  ]);
  await client.close();
});

for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
  test(`ask.js at ${protocolVersion}: asks first, then logs and reports progress; a refusal deletes nothing`, async () => {
    const server = await load('ask.js');
    const questions = [];
    const yes = await connect(server, {
      protocolVersion,
      logLevel: 'info',
      handlers: {
        'elicitation/create': ({ message }) => (
          questions.push(message),
          { action: 'accept', content: { confirm: true } }
        ),
      },
    });
    const progress = [];
    const done = await yes.callTool(
      'clean_up',
      { project: 'site' },
      { onProgress: (p) => progress.push(p.progress) },
    );
    assert.equal(textOf(done), 'Deleted 3 files.');
    assert.deepEqual(questions, ['Delete 3 temporary files of site?']);
    assert.deepEqual(progress, [1, 2, 3]);
    const logs = yes.notifications.filter((n) => n.method === 'notifications/message');
    assert.deepEqual(
      logs.map((n) => n.params.data),
      [{ deleted: 'a.tmp' }, { deleted: 'b.tmp' }, { deleted: 'c.tmp' }],
    );
    const no = await connect(server, {
      protocolVersion,
      handlers: { 'elicitation/create': () => ({ action: 'decline' }) },
    });
    assert.equal(textOf(await no.callTool('clean_up', { project: 'site' })), 'Nothing deleted.');
    await yes.close();
    await no.close();
  });
}
