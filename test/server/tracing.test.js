// Server spans to a sink, with no tracing library: names and attributes from the OpenTelemetry
// semantic conventions for MCP, the parent from the incoming W3C trace context (params._meta, else
// HTTP headers), times from the clock, status from the outcome; over stdio and HTTP, both eras.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, RpcError } from '../../dist/index.js';
import { tracing } from '../../dist/policies/index.js';
import { initialize, modernHeaders, modernMeta, overHttp, overStdio } from './drive.js';

const info = { name: 'tracing-test', version: '1.0.0' };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

function traced() {
  const clock = { now: 1_000 };
  const spans = [];
  const server = createServer({
    info,
    tools: [
      { name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object' }, run: () => { clock.now += 40; return 'sunny'; } },
      { name: 'broken', description: 'Fails.', inputSchema: { type: 'object' }, run: () => { throw new Error('no data'); } },
    ],
    prompts: [{ name: 'summarize', get: () => 'Summarize.' }],
    resources: [{ uri: 'file:///notes/today.md', name: 'today', read: () => 'notes' }],
    middleware: [tracing({ sink: (span) => spans.push(span), clock: () => clock.now })],
  });
  server.method('com.example/refuse', () => { throw new RpcError(-32602, 'no such thing'); });
  return { server, spans, clock };
}
const call = (id, name, _meta) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...(_meta ? { _meta } : {}) } });

test('a tools/call span: named "tools/call {tool}", kind server, parented to the caller from params._meta', async () => {
  const { server, spans } = traced();
  await server.handle(initialize());
  await server.handle(call(7, 'get_weather', { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' }));
  const span = spans.at(-1);
  assert.match(span.spanId, /^[0-9a-f]{16}$/);
  assert.notEqual(span.spanId, CLIENT_SPAN);
  assert.deepEqual({ ...span, spanId: 'x' }, {
    name: 'tools/call get_weather',
    kind: 'server',
    traceId: TRACE_ID,
    spanId: 'x',
    parentSpanId: CLIENT_SPAN,
    sampled: true,
    tracestate: 'rojo=00f067aa0ba902b7',
    startTime: 1_000,
    endTime: 1_040,
    status: { code: 'unset' },
    attributes: {
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': '7',
      'mcp.protocol.version': '2025-11-25',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
    },
  });
});

test('errors set error.type and an ERROR status with the JSON-RPC message; isError is tool_error; no parent starts a trace', async () => {
  const { server, spans } = traced();
  await server.handle(initialize());
  await server.handle(call(1, 'broken'));
  await server.handle(call(2, 'missing'));
  await server.handle({ jsonrpc: '2.0', id: 3, method: 'com.example/refuse' });
  const [initSpan, broken, missing, refused] = spans;
  assert.equal(initSpan.parentSpanId, undefined);
  assert.match(initSpan.traceId, /^[0-9a-f]{32}$/);
  assert.notEqual(initSpan.traceId, broken.traceId, 'each request without a parent is a trace of its own');
  assert.deepEqual([broken.attributes['error.type'], broken.status], ['tool_error', { code: 'error' }]);
  assert.equal(broken.attributes['rpc.response.status_code'], undefined, 'a tool error is a result, not a JSON-RPC error');
  assert.deepEqual([missing.name, missing.attributes['error.type'], missing.attributes['rpc.response.status_code'], missing.status], [
    'tools/call missing',
    '-32602',
    '-32602',
    { code: 'error', message: 'Unknown tool: missing' },
  ]);
  assert.deepEqual([refused.name, refused.status.message], ['com.example/refuse', 'no such thing']);
});

test('prompts are targets in the name; resource URIs only in mcp.resource.uri (high cardinality)', async () => {
  const { server, spans } = traced();
  await server.handle({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'summarize', _meta: modernMeta() } });
  await server.handle({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///notes/today.md', _meta: modernMeta() } });
  await server.handle({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta() } });
  assert.deepEqual(spans.map((s) => s.name), ['prompts/get summarize', 'resources/read', 'tools/list']);
  assert.equal(spans[0].attributes['gen_ai.prompt.name'], 'summarize');
  assert.equal(spans[0].attributes['mcp.protocol.version'], '2026-07-28');
  assert.equal(spans[1].attributes['mcp.resource.uri'], 'file:///notes/today.md');
});

test('over stdio network.transport is pipe; over HTTP tcp and http, with the legacy session id and the traceparent header', async () => {
  const { server, spans } = traced();
  const replies = await overStdio(server, [initialize(), call(1, 'get_weather', { traceparent: TRACEPARENT })]);
  assert.equal(replies.length, 2);
  assert.deepEqual([spans[1].attributes['network.transport'], spans[1].parentSpanId], ['pipe', CLIENT_SPAN]);
  spans.length = 0;
  const { post, handler } = overHttp(server);
  const opened = await post(initialize());
  const sessionId = opened.headers.get('mcp-session-id');
  await post(call(1, 'get_weather'), { 'mcp-session-id': sessionId, traceparent: `00-${TRACE_ID}-b7ad6b7169203331-00` });
  await post(call(2, 'get_weather', modernMeta()), modernHeaders('tools/call', 'get_weather', { traceparent: TRACEPARENT }));
  await handler.close();
  const [, legacy, modern] = spans;
  assert.deepEqual(
    [legacy.attributes['network.transport'], legacy.attributes['network.protocol.name'], legacy.attributes['mcp.session.id']],
    ['tcp', 'http', sessionId],
  );
  assert.deepEqual([legacy.parentSpanId, legacy.sampled], ['b7ad6b7169203331', false], 'from the traceparent header');
  assert.deepEqual([modern.parentSpanId, modern.attributes['mcp.session.id']], [CLIENT_SPAN, undefined]);
});

test('tracing needs a sink or an around hook; a sink that throws is reported', async () => {
  assert.throws(() => tracing({}), /^TypeError: tracing: give a sink\(span\) to receive spans, an around\(span, run\) hook, or both$/);
  const lines = [];
  const server = createServer({ info, report: (line) => lines.push(line), middleware: [tracing({ sink: () => { throw new Error('collector down'); } })] });
  assert.ok((await server.handle(initialize())).result);
  assert.deepEqual(lines, ['tracing sink failed: collector down']);
});
