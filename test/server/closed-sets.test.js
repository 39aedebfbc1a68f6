// Issue 22, "refuse, never degrade": every server-side option that takes a name from a closed set
// baremcp defines refuses an unknown name with a message that lists the known ones (strict
// profiles on a tool, logging levels, list kinds, content block types, the test client's protocol
// revision and log level). Each test asserts on the message a person reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, ToolDefinitionError } from '../../dist/index.js';

const info = { name: 'closed-sets', version: '1.0.0' };
const PROFILES = '(choose from openai, anthropic, gemini, mcp)';
const tool = (name, run, extra = {}) => ({
  name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, run, ...extra,
});

test('a tool whose strict list names an unknown profile is refused at createServer, naming the tool and the profiles', () => {
  const clean = { type: 'object', properties: {}, additionalProperties: false };
  for (const [strict, message] of [
    [['opneai'], `tool "edit": unknown strict profile "opneai" ${PROFILES}`],
    [['openai', 'OpenAI'], `tool "edit": unknown strict profile "OpenAI" ${PROFILES}`],
    [[undefined], `tool "edit": no strict profile given ${PROFILES}`],
    ['openai', `tool "edit": strict must be an array of profile names, e.g. ['openai'] ${PROFILES}`],
  ]) {
    assert.throws(
      () => createServer({ info, tools: [tool('edit', () => 'ok', { inputSchema: clean, strict })] }),
      (error) => error instanceof ToolDefinitionError && error.message === message,
      JSON.stringify(strict),
    );
  }
  // Known names still work, and an empty list promises nothing.
  createServer({ info, tools: [tool('edit', () => 'ok', { inputSchema: clean, strict: ['openai', 'mcp'] })] });
  createServer({ info, tools: [tool('edit', () => 'ok', { strict: [] })] });
});
