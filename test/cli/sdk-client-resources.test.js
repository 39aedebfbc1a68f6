// The example server's resources, prompt and completion as the official v1 SDK client sees them
// (the bin as a process over stdio); results checked against the 2025-11-25 schema.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mainBin } from '../helpers.js';
import { assertWire, schemaDir } from '../mcp-oracle.js';

const SECRET = 'TOP-SECRET-TOKEN';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

let base;
let root;
let client;
/** Checks a result against schema.json at the revision the SDK negotiated (skipped without it). */
let wire = () => {};

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'baremcp-sdk-res-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(base, 'ws-evil'));
  writeFileSync(join(base, 'ws-evil', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'README.md'), '# Title\nneedle here\n');
  writeFileSync(join(root, 'logo.png'), PNG);
  writeFileSync(join(root, 'src', 'a.txt'), 'alpha\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export {};\n');
  symlinkSync(join(base, 'ws-evil'), join(root, 'evil-link'));
  client = new Client({ name: 'sdk-v1-resources-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [mainBin, '--root', root], stderr: 'pipe' });
  await client.connect(transport);
  if (schemaDir !== undefined) wire = (name, value) => assertWire(assert, '2025-11-25', name, value);
  else console.log('# schema checks skipped: needs ../shared/mcp-schema (absent)');
});

after(async () => {
  await client?.close();
  rmSync(base, { recursive: true, force: true });
});

test('the server announces resources, prompts and completions to the v1 SDK client', () => {
  const capabilities = client.getServerCapabilities();
  assert.ok(capabilities.resources, 'resources');
  assert.ok(capabilities.prompts, 'prompts');
  assert.ok(capabilities.completions, 'completions');
  assert.match(client.getInstructions(), /file:\/\/\/<path>/);
});

test('the v1 SDK client lists the file:///{+path} template and no static resources', async () => {
  const templates = await client.listResourceTemplates();
  wire('ListResourceTemplatesResult', templates);
  assert.deepEqual(templates.resourceTemplates.map((t) => [t.uriTemplate, t.name]), [['file:///{+path}', 'workspace-files']]);
  const listed = await client.listResources();
  wire('ListResourcesResult', listed);
  assert.deepEqual(listed.resources, []);
});

test('the v1 SDK client reads a text file and a binary file through the template', async () => {
  const text = await client.readResource({ uri: 'file:///README.md' });
  wire('ReadResourceResult', text);
  assert.deepEqual(text.contents, [{ uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Title\nneedle here\n' }]);
  const blob = await client.readResource({ uri: 'file:///logo.png' });
  wire('ReadResourceResult', blob);
  assert.equal(blob.contents[0].mimeType, 'image/png');
  assert.deepEqual(Buffer.from(blob.contents[0].blob, 'base64'), PNG);
});

test('the v1 SDK client gets -32002 for reads that escape the root, and never the secret', async () => {
  for (const uri of ['file:///../ws-evil/secret.txt', 'file:///evil-link/secret.txt', 'file:///%2e%2e/ws-evil/secret.txt', 'file:///nope.txt']) {
    await assert.rejects(client.readResource({ uri }), (error) => {
      assert.equal(error.code, -32002, `${uri}: ${error.message}`);
      assert.deepEqual(error.data, { uri });
      assert.doesNotMatch(error.message, new RegExp(SECRET));
      return true;
    });
  }
});

test('the v1 SDK client lists the review_file prompt and gets it with the file embedded', async () => {
  const listed = await client.listPrompts();
  wire('ListPromptsResult', listed);
  const [prompt] = listed.prompts;
  assert.equal(prompt.name, 'review_file');
  assert.deepEqual(prompt.arguments.filter((a) => a.required).map((a) => a.name), ['path']);
  const got = await client.getPrompt({ name: 'review_file', arguments: { path: 'src/a.txt' } });
  wire('GetPromptResult', got);
  assert.equal(got.messages.length, 2);
  assert.match(got.messages[0].content.text, /review the file src\/a\.txt/);
  assert.deepEqual(got.messages[1], {
    role: 'user',
    content: { type: 'resource', resource: { uri: 'file:///src/a.txt', mimeType: 'text/plain', text: 'alpha\n' } },
  });
  await assert.rejects(client.getPrompt({ name: 'review_file', arguments: { path: 'evil-link/secret.txt' } }), (error) => {
    assert.equal(error.code, -32602);
    return true;
  });
});

test('the v1 SDK client completes a path for the template and for the prompt argument', async () => {
  const forTemplate = await client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'src/' } });
  wire('CompleteResult', forTemplate);
  assert.deepEqual(forTemplate.completion, { values: ['src/a.txt', 'src/b.ts'], total: 2, hasMore: false });
  const forPrompt = await client.complete({ ref: { type: 'ref/prompt', name: 'review_file' }, argument: { name: 'path', value: 'R' } });
  wire('CompleteResult', forPrompt);
  assert.deepEqual(forPrompt.completion.values, ['README.md']);
  const outside = await client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: '../' } });
  assert.deepEqual(outside.completion.values, []);
});
