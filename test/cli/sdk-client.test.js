// The bin as a process, driven by the official SDK clients: v1 (@modelcontextprotocol/sdk) and
// v2 (@modelcontextprotocol/client, whose validator accepts JSON Schema 2020-12 only).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mainBin } from '../helpers.js';

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'baremcp-sdk-'));
  writeFileSync(join(root, 'README.md'), '# Title\nline two\nline three\nneedle here\n');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.txt'), 'alpha\nneedle again\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

async function connectV1() {
  const client = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [mainBin, '--root', root], stderr: 'pipe' });
  await client.connect(transport);
  return client;
}

test('the v1 SDK client connects, lists the example tools and calls each one', async () => {
  const client = await connectV1();
  try {
    assert.equal(client.getServerVersion().name, 'baremcp-workspace');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['file_info', 'list_directory', 'read_text_file', 'search_text']);
    for (const tool of tools) {
      assert.equal(tool.annotations.readOnlyHint, true);
      assert.equal('$schema' in tool.inputSchema, false);
    }

    const read = await client.callTool({ name: 'read_text_file', arguments: { path: 'README.md' } });
    assert.notEqual(read.isError, true);
    assert.match(read.content[0].text, /needle here/);

    const head = await client.callTool({ name: 'read_text_file', arguments: { path: 'README.md', head: 1 } });
    assert.match(head.content[0].text, /# Title/);
    assert.doesNotMatch(head.content[0].text, /line two/);

    const list = await client.callTool({ name: 'list_directory', arguments: { path: '.' } });
    assert.notEqual(list.isError, true);
    const names = list.structuredContent.entries.map((e) => e.name).sort();
    assert.deepEqual(names, ['README.md', 'src']);

    const search = await client.callTool({ name: 'search_text', arguments: { query: 'needle' } });
    assert.notEqual(search.isError, true);
    assert.match(JSON.stringify(search.content), /a\.txt/);

    const info = await client.callTool({ name: 'file_info', arguments: { path: 'src/a.txt' } });
    assert.notEqual(info.isError, true);
    assert.equal(info.structuredContent.type, 'file');

    const escape = await client.callTool({ name: 'read_text_file', arguments: { path: '../outside.txt' } });
    assert.equal(escape.isError, true);
  } finally {
    await client.close();
  }
});

test('the v1 SDK client gets a protocol error for an unknown tool', async () => {
  const client = await connectV1();
  try {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /-32602|Unknown tool/);
  } finally {
    await client.close();
  }
});

test('the v2 client (2020-12 validator only) lists the tools without refusing a schema', async () => {
  const { Client: Client2 } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport: Stdio2 } = await import('@modelcontextprotocol/client/stdio');
  const client = new Client2({ name: 'sdk-v2-test', version: '2.0.0' });
  const transport = new Stdio2({ command: process.execPath, args: [mainBin, '--root', root], stderr: 'pipe' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 4);
    const result = await client.callTool({ name: 'list_directory', arguments: { path: 'src' } });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent.entries.map((e) => e.name), ['a.txt']);
  } finally {
    await client.close();
  }
});
