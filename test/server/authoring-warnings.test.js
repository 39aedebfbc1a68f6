// What a person sees on stderr while writing tools: a misspelled schema keyword when the tool is
// defined, and a tool that returns undefined (once per tool).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../../dist/index.js';
import typo from '../fixtures/typo-server.js';

test('a misspelled keyword is reported when the tool is defined, with its path and "did you mean"', () => {
  const lines = [];
  const server = createServer({ ...typo, report: (line) => lines.push(line) });
  assert.deepEqual(lines, [
    'tool "search": inputSchema.requried is not a JSON Schema keyword: did you mean "required"? (an unknown keyword is ignored, so nothing checks it)',
    'tool "search": inputSchema.properties.query.minLenght is not a JSON Schema keyword: did you mean "minLength"? (an unknown keyword is ignored, so nothing checks it)',
    'tool "list": outputSchema.items.properites is not a JSON Schema keyword: did you mean "properties"? (an unknown keyword is ignored, so nothing checks it)',
  ]);
  // Tools added later are checked the same way; unknown keywords that are no misspelling stay quiet.
  lines.length = 0;
  server.tools.add({ name: 'later', description: 'd', inputSchema: { type: 'object', widget: 'x', nullable: true, 'x-a': 1, maxLenght: 3 }, run: () => '' });
  assert.deepEqual(lines, ['tool "later": inputSchema.maxLenght is not a JSON Schema keyword: did you mean "maxLength"? (an unknown keyword is ignored, so nothing checks it)']);
});

test('a tool that returns undefined gets one warning, however often it is called', async () => {
  const lines = [];
  const server = createServer({
    info: { name: 's', version: '1' },
    report: (line) => lines.push(line),
    tools: [{ name: 'forgot', description: 'd', inputSchema: { type: 'object' }, run: () => { /* no return */ } }],
  });
  for (let id = 1; id <= 3; id++) {
    const reply = await server.handle({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'forgot', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } });
    assert.deepEqual(reply.result.content, []);
  }
  assert.deepEqual(lines, ['tool "forgot" returned undefined, so the client got an empty result (content: []); return a string, content blocks or a CallToolResult (said once per tool)']);
});
