// Non-object outputSchemas through the official SDK clients, which validate structuredContent
// against the outputSchema they listed: v1 (2025-11-25, gets the { result } wrap) and v2 pinned
// to 2026-07-28 (gets the schema as written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mainBin } from '../helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/any-output-server.js', import.meta.url));

test('the v1 SDK client lists a wrapped array outputSchema and accepts the { result } it gets', async () => {
  const client = new Client({ name: 'sdk-v1-output', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [mainBin, 'serve', fixture], stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    assert.equal(tools[0].outputSchema.type, 'object');
    const tags = await client.callTool({ name: 'list_tags', arguments: {} });
    assert.deepEqual(tags.structuredContent, { result: ['red', 'green'] });
    const count = await client.callTool({ name: 'count', arguments: {} });
    assert.deepEqual(count.structuredContent, { result: 3 });
  } finally {
    await client.close();
  }
});

test('the v2 SDK client pinned to 2026-07-28 validates the array and number results against the schemas as written', async () => {
  const { Client: Client2 } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport: Stdio2 } = await import('@modelcontextprotocol/client/stdio');
  const client = new Client2({ name: 'sdk-v2-output', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new Stdio2({ command: process.execPath, args: [mainBin, 'serve', fixture], stderr: 'pipe' }));
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const { tools } = await client.listTools();
    assert.equal(tools[0].outputSchema.type, 'array');
    const tags = await client.callTool({ name: 'list_tags', arguments: {} });
    assert.deepEqual(tags.structuredContent, ['red', 'green']);
    const count = await client.callTool({ name: 'count', arguments: {} });
    assert.equal(count.structuredContent, 3);
  } finally {
    await client.close();
  }
});
