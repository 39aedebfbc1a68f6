// The OpenTelemetry adapter of docs/middleware.md, run as written there, with the real
// @opentelemetry/api and @opentelemetry/sdk-trace-base: across a tools/call, the client's span is
// the parent of the server span (the traceparent in params._meta, over stdio and over HTTP), and a
// span the tool starts is a child of the server span (with a context manager, as the guide says).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { repoRoot } from '../helpers.js';
import { initialize, modernHeaders, modernMeta } from './drive.js';

let work;
let otelTracing;
// The adapter imports 'baremcp' (the bundle): the server here comes from the same files.
const { createServer } = await import(pathToFileURL(resolve(repoRoot, 'dist/bundle/index.js')).href);
const { serve } = await import(pathToFileURL(resolve(repoRoot, 'dist/bundle/transport/stdio.js')).href);
const { createFetchHandler } = await import(pathToFileURL(resolve(repoRoot, 'dist/bundle/transport/http.js')).href);
const contextManager = new AsyncLocalStorageContextManager();

before(async () => {
  const guide = readFileSync(resolve(repoRoot, 'docs', 'middleware.md'), 'utf8');
  const block = [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]).find((code) => code.includes('export function otelTracing'));
  assert.ok(block, 'docs/middleware.md has the adapter');
  const { outputText } = ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  work = mkdtempSync(join(tmpdir(), 'baremcp-otel-'));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(repoRoot, join(work, 'node_modules', 'baremcp'), 'dir');
  symlinkSync(resolve(repoRoot, 'node_modules', '@opentelemetry'), join(work, 'node_modules', '@opentelemetry'), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(work, 'adapter.js'), outputText);
  ({ otelTracing } = await import(pathToFileURL(join(work, 'adapter.js')).href));
  context.setGlobalContextManager(contextManager.enable());
});
after(() => {
  context.disable();
  rmSync(work, { recursive: true, force: true });
});

/** A tracer that keeps finished spans, and a server traced by the guide's adapter. */
function setup() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('tracing-otel-test');
  const server = createServer({
    info: { name: 'otel-test', version: '1.0.0' },
    tools: [
      {
        name: 'get_weather',
        description: 'Weather, from a backend the tool traces.',
        inputSchema: { type: 'object' },
        run: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return tracer.startActiveSpan('fetch forecast', (span) => {
            span.end();
            return 'sunny';
          });
        },
      },
      { name: 'broken', description: 'Fails.', inputSchema: { type: 'object' }, run: () => { throw new Error('no data'); } },
    ],
    middleware: [otelTracing(tracer)],
  });
  /** A client span of the test's tracer, and the traceparent that carries it. */
  const clientSpan = (name) => {
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT }, ROOT_CONTEXT);
    const { traceId, spanId } = span.spanContext();
    return { span, traceparent: `00-${traceId}-${spanId}-01` };
  };
  return { exporter, server, clientSpan };
}

/** Checks client → server → tool links among the finished spans. */
function assertLinked(spans, client, expectedAttributes) {
  // The client's span has the same name (the conventions name both sides alike): pick by kind.
  const server = spans.find((s) => s.name === 'tools/call get_weather' && s.kind === SpanKind.SERVER);
  const child = spans.find((s) => s.name === 'fetch forecast');
  assert.ok(server && child, spans.map((s) => s.name).join(', '));
  const clientContext = client.span.spanContext();
  assert.equal(server.spanContext().traceId, clientContext.traceId, 'one trace');
  assert.equal(server.parentSpanContext?.spanId, clientContext.spanId, 'client span → server span');
  assert.equal(child.spanContext().traceId, clientContext.traceId);
  assert.equal(child.parentSpanContext?.spanId, server.spanContext().spanId, 'server span → the tool\'s span');
  assert.equal(server.status.code, SpanStatusCode.UNSET);
  for (const [key, value] of Object.entries(expectedAttributes)) assert.equal(server.attributes[key], value, key);
}

test('over stdio: client span → server span → the span the tool starts, with the MCP attributes', async () => {
  const { exporter, server, clientSpan } = setup();
  const client = clientSpan('tools/call get_weather');
  const input = new (await import('node:stream')).PassThrough();
  const output = new (await import('node:stream')).PassThrough();
  const lines = [];
  output.on('data', (chunk) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const session = serve(input, output, server);
  input.write(JSON.stringify(initialize()) + '\n');
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: {}, _meta: { traceparent: client.traceparent } } }) + '\n');
  input.end();
  await session.closed;
  client.span.end();
  assert.equal(JSON.parse(lines[1]).result.content[0].text, 'sunny');
  assertLinked(exporter.getFinishedSpans(), client, {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'get_weather',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '2',
    'network.transport': 'pipe',
    'mcp.protocol.version': '2025-11-25',
  });
  const init = exporter.getFinishedSpans().find((s) => s.name === 'initialize');
  assert.equal(init.parentSpanContext, undefined, 'initialize carried no trace context: a root span');
});

test('over HTTP (2026-07-28): the same links; a failed call is an ERROR span with error.type', async () => {
  const { exporter, server, clientSpan } = setup();
  const handler = createFetchHandler(server, { keepAliveMs: 0 });
  const post = (body, headers) =>
    handler(new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }));
  const client = clientSpan('tools/call get_weather');
  const ok = await post(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: {}, _meta: modernMeta('c', { traceparent: client.traceparent }) } },
    modernHeaders('tools/call', 'get_weather'),
  );
  assert.equal((await ok.json()).result.content[0].text, 'sunny');
  client.span.end();
  assertLinked(exporter.getFinishedSpans(), client, { 'network.transport': 'tcp', 'mcp.protocol.version': '2026-07-28' });
  await post(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'missing', arguments: {}, _meta: modernMeta() } },
    modernHeaders('tools/call', 'missing'),
  );
  await handler.close();
  const failed = exporter.getFinishedSpans().find((s) => s.name === 'tools/call missing');
  assert.deepEqual(failed.status, { code: SpanStatusCode.ERROR, message: 'Unknown tool: missing' });
  assert.equal(failed.attributes['error.type'], '-32602');
  assert.equal(trace.getActiveSpan(), undefined, 'nothing leaks into the ambient context');
});
