// Issue 22, "refuse, never degrade": every server-side option that takes a name from a closed set
// baremcp defines refuses an unknown name with a message that lists the known ones (strict
// profiles on a tool, logging levels, list kinds, content block types, the test client's protocol
// revision and log level). Each test asserts on the message a person reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, ErrorCode, ToolDefinitionError } from '../../dist/index.js';
import { connect } from '../../dist/testing/index.js';
import { init, INITD } from '../helpers.js';

const info = { name: 'closed-sets', version: '1.0.0' };
const PROFILES = '(choose from openai, anthropic, gemini, mcp)';
const LEVELS = '(choose from debug, info, notice, warning, error, critical, alert, emergency)';
const TYPES = '(choose from text, image, audio, resource_link, resource)';
const tool = (name, run, extra = {}) => ({
  name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, run, ...extra,
});
const call = (id, name, args = {}, meta) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
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

test('ctx.log with an unknown level is an error the tool author reads, not a silently dropped message', async () => {
  const sent = [];
  const server = createServer({
    info, report: () => {},
    tools: [tool('warn', (_args, ctx) => { ctx.log('warn', 'disk almost full'); return 'ok'; })],
  });
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle(init());
  await connection.handle(INITD);
  await connection.handle({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } });
  const reply = await connection.handle(call(3, 'warn'));
  assert.equal(reply.result.isError, true);
  assert.equal(reply.result.content[0].text, `log: unknown logging level "warn" ${LEVELS}`);
  assert.deepEqual(sent, []);
});

test('an unknown log level in a 2026-07-28 request _meta is -32602 listing the levels', async () => {
  const server = createServer({ info, tools: [tool('noop', () => 'ok')] });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/logLevel': 'verbose',
  };
  const reply = await server.handle(call(1, 'noop', {}, meta));
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
  assert.equal(reply.error.message, `_meta["io.modelcontextprotocol/logLevel"]: unknown logging level "verbose" ${LEVELS}`);
  // A known level is served.
  const ok = await server.handle(call(2, 'noop', {}, { ...meta, 'io.modelcontextprotocol/logLevel': 'info' }));
  assert.equal(ok.result.content[0].text, 'ok');
});

test('server.listChanged with an unknown list kind throws, listing the kinds, and sends nothing', async () => {
  const sent = [];
  const server = createServer({ info, tools: [tool('noop', () => 'ok')] });
  const connection = server.connect({ send: (m) => sent.push(m) });
  await connection.handle(init());
  await connection.handle(INITD);
  assert.throws(() => server.listChanged('tool'), {
    name: 'TypeError',
    message: 'listChanged: unknown list kind "tool" (choose from tools, prompts, resources)',
  });
  assert.deepEqual(sent, []);
  server.listChanged('tools');
  assert.deepEqual(sent, [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
});

test('a tool result with an unknown content type is an isError result naming the types, reported as a server bug', async () => {
  const lines = [];
  const server = createServer({
    info, report: (line) => lines.push(line),
    tools: [
      tool('typo', () => [{ type: 'text', text: 'fine' }, { type: 'txt', text: 'oops' }]),
      tool('bare', () => ({ content: ['just a string'] })),
    ],
  });
  const client = await connect(server);
  const typo = await client.callTool('typo');
  assert.equal(typo.isError, true);
  assert.equal(typo.content[0].text, 'Tool "typo" produced an invalid result (a server bug, not your call): ' +
    `content[1]: unknown content type "txt" ${TYPES}`);
  assert.equal(lines[0], `tool "typo" returned a result no client can read: content[1]: unknown content type "txt" ${TYPES}`);
  const bare = await client.callTool('bare');
  assert.equal(bare.content[0].text, 'Tool "bare" produced an invalid result (a server bug, not your call): ' +
    'content[0]: not a content block (an object with a "type": text, image, audio, resource_link, resource)');
  await client.close();
});

test('a prompt message with an unknown content type is refused, naming the types', async () => {
  const lines = [];
  const server = createServer({
    info, report: (line) => lines.push(line),
    prompts: [{ name: 'p', get: () => [{ role: 'user', content: { type: 'markdown', text: '# hi' } }] }],
  });
  const client = await connect(server);
  await assert.rejects(client.getPrompt('p'), { code: ErrorCode.InternalError });
  assert.ok(lines.some((line) => line.includes(
    `prompt "p": get returned messages[0].content: unknown content type "markdown" ${TYPES}`)), lines.join('\n'));
  await client.close();
});

test('the test client refuses an unknown protocol revision or log level instead of testing another one', async () => {
  const server = createServer({ info, tools: [tool('noop', () => 'ok')] });
  await assert.rejects(connect(server, { protocolVersion: '2025-11-26' }), {
    name: 'TypeError',
    message: 'protocolVersion: unknown protocol revision "2025-11-26" (choose from 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)',
  });
  await assert.rejects(connect(server, { protocolVersion: '2026-07-28', logLevel: 'warn' }), {
    name: 'TypeError',
    message: `logLevel: unknown logging level "warn" ${LEVELS}`,
  });
});
