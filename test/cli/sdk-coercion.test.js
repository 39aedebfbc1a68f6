// Coercion through the real SDK client, against the built bin serving the example: "5" for an
// integer parameter succeeds and is reported; "five" is an isError result naming the parameter.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { mainBin } from '../helpers.js';

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'baremcp-coerce-'));
  writeFileSync(join(root, 'notes.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

test('the SDK client calls read_text_file with head "5": coerced to 5, reported on stderr and in _meta', async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [mainBin, '--root', root], stderr: 'pipe' });
  const stderr = [];
  transport.stderr.on('data', (c) => stderr.push(c));
  const client = new Client({ name: 'coercion-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.request(
      { method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'notes.txt', head: '5' }, _meta: { 'dev.baremcp/coercions': true } } },
      CallToolResultSchema,
    );
    assert.notEqual(result.isError, true);
    const text = result.content.map((c) => c.text).join('\n');
    assert.match(text, /line 5/);
    assert.doesNotMatch(text, /line 6/);
    assert.deepEqual(result._meta['dev.baremcp/coercions'], [{ path: '/head', from: '5', to: 5, rule: 'string-to-integer' }]);

    const bad = await client.callTool({ name: 'read_text_file', arguments: { path: 'notes.txt', head: 'five' } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /\/head/);
    assert.match(bad.content[0].text, /five/);
  } finally {
    await client.close();
  }
  assert.match(Buffer.concat(stderr).toString('utf8'), /read_text_file.*\/head "5" -> 5 \(string-to-integer\)/);
});
