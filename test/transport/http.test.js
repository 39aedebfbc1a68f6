// Streamable HTTP: the web-standard handler in-process (every status code and header rule, both
// eras), two replicas sharing only a stateSecret, node:http over a real port, and the official SDK
// v1 client against serveHttp.
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, MemoryEventStore } from '../../dist/index.js';
import { createFetchHandler, createHttpHandler, serveHttp } from '../../dist/transport/http.js';
import { decodeHeaderValue, paramHeaders } from '../../dist/transport/headers.js';
import { accepts, originAllowed } from '../../dist/transport/http-rules.js';
import { SseStream } from '../../dist/transport/sse.js';
import { nodeFetchHandler } from './node-path.js';
import { mainBin, repoRoot } from '../helpers.js';

/** Every test has a time-out, so that a hung stream fails instead of stalling the suite. */
const test = (name, fn) => nodeTest(name, { timeout: 20_000 }, fn);
const URL_ = 'http://localhost/mcp';
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const INIT = (protocolVersion = '2025-11-25', capabilities = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'test', version: '1' } },
});

/** A server with the tools these tests call; `seen` records what tools observed. */
function fixture(options = {}) {
  const seen = { aborted: 0 };
  let server;
  const tools = [
    {
      name: 'echo',
      description: 'Echo.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      run: ({ text }) => String(text),
    },
    {
      name: 'slow',
      description: 'Reports progress, then waits until cancelled.',
      inputSchema: { type: 'object' },
      run: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.progress(1, 2);
          ctx.signal.addEventListener('abort', () => {
            seen.aborted++;
            resolve('aborted');
          });
        }),
    },
    {
      name: 'progress',
      description: 'Reports progress twice.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => {
        ctx.progress(1, 2);
        await new Promise((r) => setImmediate(r));
        ctx.progress(2, 2);
        return 'done';
      },
    },
    {
      name: 'ask',
      description: 'Asks the user for a name.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return `Hello, ${answer.content?.name}!`;
      },
    },
    {
      name: 'sample',
      description: 'Needs sampling.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => JSON.stringify(await ctx.sample({ messages: [], maxTokens: 1 })),
    },
    {
      name: 'change',
      description: 'Announces a tool list change.',
      inputSchema: { type: 'object' },
      run: () => {
        server.listChanged('tools');
        return 'changed';
      },
    },
    {
      name: 'routed',
      description: 'Arguments mirrored into headers.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
          place: {
            type: 'object',
            properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } },
          },
          list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Ignored' } },
        },
      },
      run: (args) => JSON.stringify(args),
    },
  ];
  server = createServer({
    info: { name: 'http-test', version: '1.0.0' },
    tools,
    report: () => {},
    ...options,
  });
  return { server, seen };
}

// BAREMCP_TEST_HTTP_PATH=node (set by http-node.test.js) runs this suite against the node:http
// path instead, over a socket (parity, issue 21).
const NODE_PATH = process.env.BAREMCP_TEST_HTTP_PATH === 'node';
const handlers = [];
function handlerFor(options = {}, serverOptions = {}) {
  const made = fixture(serverOptions);
  const handler = (NODE_PATH ? nodeFetchHandler : createFetchHandler)(made.server, { keepAliveMs: 0, ...options });
  handlers.push(handler);
  return { ...made, handler };
}
nodeTest.after(() => Promise.all(handlers.map((h) => (h.stop ?? h.close)())));

/**
 * Resolves once `check()` holds: at once on the fetch path; over a socket (the node path) a
 * client's disconnect reaches the server a few turns later, so it waits up to 2 s for it.
 */
async function eventually(check) {
  const deadline = Date.now() + 2000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, NODE_PATH ? 5 : 0));
}

function request(method, { body, headers = {}, url = URL_ } = {}) {
  const init = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return new Request(url, init);
}
const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
function post(handler, body, headers = {}) {
  return handler(request('POST', { body, headers: { ...JSON_HEADERS, ...headers } }));
}

/** A 2026-07-28 request with conformant headers; `headers` override or extend them. */
function modern(handler, method, params = {}, headers = {}, id = 7) {
  const standard = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (method === 'tools/call' || method === 'prompts/get') standard['mcp-name'] = params.name;
  if (method === 'resources/read') standard['mcp-name'] = params.uri;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...META, ...params._meta } },
  };
  return post(handler, body, { ...standard, ...headers });
}

/** Opens a legacy session; returns its id. */
async function openSession(handler, protocolVersion = '2025-11-25', capabilities = {}) {
  const response = await post(handler, INIT(protocolVersion, capabilities));
  assert.equal(response.status, 200);
  const id = response.headers.get('mcp-session-id');
  assert.match(id, /^[\x21-\x7e]{20,}$/);
  await response.json();
  const initialized = await post(
    handler,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id },
  );
  assert.equal(initialized.status, 202);
  return id;
}

/** Reads SSE events (parsed `data:` lines) until `count` arrived or the stream ended. */
async function events(response, count = Infinity) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const found = [];
  let buffer = '';
  while (found.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (data !== '') found.push(JSON.parse(data));
    }
  }
  return { events: found, reader };
}

// ---- Status codes and headers common to both eras ----

test('a POST whose Content-Type is not application/json gets 415', async () => {
  const { handler } = handlerFor();
  const response = await post(handler, INIT(), { 'content-type': 'text/plain' });
  assert.equal(response.status, 415);
  assert.equal((await response.json()).error.code, -32600);
});

test('a POST whose Accept lacks text/event-stream or application/json gets 406; wildcards are accepted', async () => {
  const { handler } = handlerFor();
  assert.equal((await post(handler, INIT(), { accept: 'application/json' })).status, 406);
  assert.equal((await post(handler, INIT(), { accept: 'text/event-stream' })).status, 406);
  const missing = await handler(
    request('POST', { body: INIT(), headers: { 'content-type': 'application/json' } }),
  );
  assert.equal(missing.status, 406);
  assert.equal((await post(handler, INIT(), { accept: '*/*' })).status, 200);
  assert.equal(accepts('text/event-stream;q=0, application/json', 'text/event-stream'), false);
});

test('a body over maxBodyBytes gets 413, whether declared by Content-Length or found while reading', async () => {
  const { handler } = handlerFor({ maxBodyBytes: 64 });
  const big = JSON.stringify({ ...INIT(), pad: 'x'.repeat(100) });
  const declared = await post(handler, big);
  assert.equal(declared.status, 413);
  assert.equal(declared.headers.get('connection'), 'close');
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(big.slice(0, 50)));
      controller.enqueue(new TextEncoder().encode(big.slice(50)));
      controller.close();
    },
  });
  const streamed = await handler(
    new Request(URL_, { method: 'POST', headers: JSON_HEADERS, body: stream, duplex: 'half' }),
  );
  assert.equal(streamed.status, 413);
});

test('a body that is not JSON, or not UTF-8, gets 400 with a parse error', async () => {
  const { handler } = handlerFor();
  const response = await post(handler, '{"jsonrpc":');
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.error.code, -32700);
  assert.equal('id' in body, false);
  const latin1 = await handler(
    request('POST', { body: new Uint8Array([0x7b, 0xff, 0x7d]), headers: JSON_HEADERS }),
  );
  assert.equal(latin1.status, 400);
});

test('a Host or Origin outside the allow-list gets 403; localhost names pass and get CORS headers', async () => {
  const { handler } = handlerFor();
  const evilHost = await handler(
    request('POST', { url: 'http://evil.example.com/mcp', body: INIT(), headers: JSON_HEADERS }),
  );
  assert.equal(evilHost.status, 403);
  assert.equal((await evilHost.json()).error.code, -32600);
  const evilOrigin = await post(handler, INIT(), { origin: 'http://evil.example.com' });
  assert.equal(evilOrigin.status, 403);
  assert.equal((await post(handler, INIT(), { origin: 'null' })).status, 403);
  const local = await post(handler, INIT(), { origin: 'http://localhost:6274' });
  assert.equal(local.status, 200);
  assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:6274');
  assert.match(local.headers.get('access-control-expose-headers'), /Mcp-Session-Id/);
  for (const host of ['127.0.0.1:8080', '[::1]']) {
    const ok = await handler(
      request('POST', { url: `http://${host}/mcp`, body: INIT(), headers: JSON_HEADERS }),
    );
    assert.equal(ok.status, 200, host);
  }
});

test('allowedHosts and allowedOrigins options replace the localhost defaults', async () => {
  const { handler } = handlerFor({
    allowedHosts: ['mcp.example.com'],
    allowedOrigins: ['https://app.example.com'],
  });
  const ok = await handler(
    request('POST', {
      url: 'https://mcp.example.com/mcp',
      body: INIT(),
      headers: { ...JSON_HEADERS, origin: 'https://app.example.com' },
    }),
  );
  assert.equal(ok.status, 200);
  assert.equal(
    (await handler(request('POST', { body: INIT(), headers: JSON_HEADERS }))).status,
    403,
  );
  assert.equal(originAllowed('http://app.example.com', ['https://app.example.com']), false);
  assert.equal(originAllowed('https://x.test', '*'), true);
});

test('a CORS preflight from an allowed origin gets 204 with the allowed methods and headers', async () => {
  const { handler } = handlerFor();
  const response = await handler(
    request('OPTIONS', {
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    }),
  );
  assert.equal(response.status, 204);
  assert.match(response.headers.get('access-control-allow-methods'), /POST/);
  assert.equal(response.headers.get('access-control-allow-headers'), 'mcp-protocol-version');
});

test('the path option answers 404 elsewhere, and other HTTP methods get 405 with Allow', async () => {
  const { handler } = handlerFor({ path: '/mcp' });
  assert.equal(
    (
      await handler(
        request('POST', { url: 'http://localhost/other', body: INIT(), headers: JSON_HEADERS }),
      )
    ).status,
    404,
  );
  const put = await handler(request('PUT', { body: '{}' }));
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, POST, DELETE, OPTIONS');
});

// ---- Legacy revisions: sessions, GET stream, DELETE ----

test('initialize opens a session: a visible-ASCII Mcp-Session-Id comes back with a JSON result', async () => {
  const { handler } = handlerFor();
  const response = await post(handler, INIT());
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.match(response.headers.get('mcp-session-id'), /^[A-Za-z0-9_-]{32}$/);
  const body = await response.json();
  assert.equal(body.result.protocolVersion, '2025-11-25');
  const other = await post(handler, INIT());
  assert.notEqual(other.headers.get('mcp-session-id'), response.headers.get('mcp-session-id'));
});

test('a failed initialize opens no session', async () => {
  const { handler } = handlerFor();
  const response = await post(handler, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  assert.equal(response.headers.get('mcp-session-id'), null);
  assert.ok((await response.json()).error);
});

test('legacy requests need a session: 400 without Mcp-Session-Id, 404 for an unknown one', async () => {
  const { handler } = handlerFor();
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
  const missing = await post(handler, list);
  assert.equal(missing.status, 400);
  assert.equal((await missing.json()).id, 2);
  assert.equal((await post(handler, list, { 'mcp-session-id': 'no-such-session' })).status, 404);
});

test('notifications and responses get 202 with no body; requests get JSON with the session id echoed', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler);
  const accepted = await post(
    handler,
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } },
    { 'mcp-session-id': id },
  );
  assert.equal(accepted.status, 202);
  assert.equal(await accepted.text(), '');
  const response = await post(
    handler,
    { jsonrpc: '2.0', id: 'x', result: {} },
    { 'mcp-session-id': id },
  );
  assert.equal(response.status, 202);
  const list = await post(
    handler,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
  );
  assert.equal(list.status, 200);
  assert.equal(list.headers.get('mcp-session-id'), id);
  assert.ok((await list.json()).result.tools.length > 0);
});

test('an unsupported MCP-Protocol-Version gets 400 with the supported revisions', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler);
  const response = await post(
    handler,
    { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' },
  );
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.id, 3);
  assert.equal(body.error.code, -32022);
  assert.equal(body.error.data.requested, '1999-01-01');
  assert.ok(body.error.data.supported.includes('2025-11-25'));
});

test('legacy JSON-RPC errors from handlers come with 200; an invalid message gets 400', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler);
  const unknown = await post(
    handler,
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope' } },
    { 'mcp-session-id': id },
  );
  assert.equal(unknown.status, 200);
  assert.equal((await unknown.json()).error.code, -32602);
  const invalid = await post(handler, { jsonrpc: '1.0', method: 'x' }, { 'mcp-session-id': id });
  assert.equal(invalid.status, 400);
});

test('DELETE ends a session (204), after which its id gets 404; DELETE without an id gets 400', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler);
  assert.equal(
    (await handler(request('DELETE', { headers: { 'mcp-session-id': id } }))).status,
    204,
  );
  assert.equal(
    (await post(handler, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id }))
      .status,
    404,
  );
  assert.equal(
    (await handler(request('DELETE', { headers: { 'mcp-session-id': id } }))).status,
    404,
  );
  assert.equal((await handler(request('DELETE'))).status, 400);
});

test('an idle session expires after sessionIdleMs and then gets 404', async () => {
  const { handler } = handlerFor({ sessionIdleMs: 1500 });
  const id = await openSession(handler);
  await new Promise((r) => setTimeout(r, 500));
  // A request renews it; then it is idle for longer than sessionIdleMs.
  assert.equal((await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).status, 202);
  await new Promise((r) => setTimeout(r, 1700));
  assert.equal(
    (await post(handler, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id }))
      .status,
    404,
  );
});

test('maxSessions bounds the live sessions: initialize gets 503 only when every session kept has a stream open, else takes an idle one\'s place', async () => {
  const { handler } = handlerFor({ maxSessions: 1 });
  const id = await openSession(handler);
  const stream = await handler(request('GET', { headers: { accept: 'text/event-stream', 'mcp-session-id': id } }));
  assert.equal(stream.status, 200);
  const refused = await post(handler, INIT());
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).error.message, 'Service Unavailable: too many sessions');
  await stream.body.cancel();
  assert.equal((await post(handler, INIT())).status, 200, 'the idle session made room');
});

test('GET opens the session stream (one at a time) and carries list changes; without a session it is 405', async () => {
  const { handler } = handlerFor();
  assert.equal(
    (await handler(request('GET', { headers: { accept: 'text/event-stream' } }))).status,
    405,
  );
  const id = await openSession(handler);
  assert.equal(
    (
      await handler(
        request('GET', { headers: { accept: 'application/json', 'mcp-session-id': id } }),
      )
    ).status,
    406,
  );
  assert.equal(
    (
      await handler(
        request('GET', { headers: { accept: 'text/event-stream', 'mcp-session-id': 'nope' } }),
      )
    ).status,
    404,
  );
  const stream = await handler(
    request('GET', { headers: { accept: 'text/event-stream', 'mcp-session-id': id } }),
  );
  assert.equal(stream.status, 200);
  assert.equal(stream.headers.get('content-type'), 'text/event-stream');
  assert.equal(stream.headers.get('x-accel-buffering'), 'no');
  assert.equal(
    (
      await handler(
        request('GET', { headers: { accept: 'text/event-stream', 'mcp-session-id': id } }),
      )
    ).status,
    409,
  );
  const call = await post(
    handler,
    { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'change', arguments: {} } },
    { 'mcp-session-id': id },
  );
  assert.equal((await call.json()).result.content[0].text, 'changed');
  const { events: got, reader } = await events(stream, 1);
  assert.deepEqual(got, [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  await reader.cancel();
});

test('a legacy server-to-client request travels on the POST stream and its answer resumes the tool', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler, '2025-11-25', { elicitation: {} });
  const call = await post(
    handler,
    { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'ask', arguments: {} } },
    { 'mcp-session-id': id },
  );
  assert.equal(call.status, 200);
  assert.equal(call.headers.get('content-type'), 'text/event-stream');
  const reader = call.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n'))
    text += decoder.decode((await reader.read()).value, { stream: true });
  const asked = JSON.parse(/data: (.*)/.exec(text)[1]);
  assert.equal(asked.method, 'elicitation/create');
  const answer = {
    jsonrpc: '2.0',
    id: asked.id,
    result: { action: 'accept', content: { name: 'Ada' } },
  };
  assert.equal((await post(handler, answer, { 'mcp-session-id': id })).status, 202);
  let rest = text.slice(text.indexOf('\n\n') + 2);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
  }
  const reply = JSON.parse(/data: (.*)/.exec(rest)[1]);
  assert.equal(reply.id, 6);
  assert.equal(reply.result.content[0].text, 'Hello, Ada!');
});

test('a batch is served on a 2025-03-26 session and refused on a 2025-11-25 one', async () => {
  const { handler } = handlerFor();
  const old = await openSession(handler, '2025-03-26');
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  const replies = await (await post(handler, batch, { 'mcp-session-id': old })).json();
  assert.deepEqual(
    replies.map((r) => r.id),
    [1, 2],
  );
  const current = await openSession(handler);
  const refused = await post(handler, batch, { 'mcp-session-id': current });
  assert.equal((await refused.json()).error.code, -32600);
});

// ---- 2026-07-28: stateless, header rules ----

test('a 2026-07-28 request is served without a session: no Mcp-Session-Id minted or echoed', async () => {
  const { handler } = handlerFor();
  const response = await modern(handler, 'tools/list', {}, { 'mcp-session-id': 'ignored' });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('mcp-session-id'), null);
  const body = await response.json();
  assert.equal(body.result.resultType, 'complete');
  assert.ok(body.result.tools.some((t) => t.name === 'routed'));
});

test('GET and DELETE at 2026-07-28 get 405', async () => {
  const { handler } = handlerFor();
  const headers = {
    accept: 'text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-session-id': 'x',
  };
  assert.equal((await handler(request('GET', { headers }))).status, 405);
  assert.equal((await handler(request('DELETE', { headers }))).status, 405);
});

test('a modern version header on a body without _meta gets 400 with -32602', async () => {
  const { handler } = handlerFor();
  const response = await post(
    handler,
    { jsonrpc: '2.0', id: 8, method: 'server/discover', params: {} },
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
  );
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.id, 8);
  assert.equal(body.error.code, -32602);
});

test('MCP-Protocol-Version missing or different from the body _meta version gets 400 with -32020', async () => {
  const { handler } = handlerFor();
  for (const headers of [
    { 'mcp-protocol-version': '2025-11-25' },
    { 'mcp-protocol-version': 'v9' },
  ]) {
    const response = await modern(handler, 'tools/list', {}, headers);
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error.code, -32020);
  }
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
  const missing = await post(handler, body, { 'mcp-method': 'tools/list' });
  assert.equal(missing.status, 400);
  assert.equal((await missing.json()).error.code, -32020);
});

test('an unsupported version named in both header and _meta gets 400 with -32022', async () => {
  const { handler } = handlerFor();
  const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999' };
  const response = await post(
    handler,
    { jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: meta } },
    { 'mcp-protocol-version': 'v999', 'mcp-method': 'server/discover' },
  );
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.id, 9);
  assert.equal(body.error.code, -32022);
  assert.equal(body.error.data.requested, 'v999');
});

test('an unknown method at 2026-07-28 gets 404 with -32601', async () => {
  const { handler } = handlerFor();
  const response = await modern(handler, 'unknown/method');
  assert.equal(response.status, 404);
  assert.equal((await response.json()).error.code, -32601);
});

test('initialize under a 2026-07-28 header gets 404 with -32601; with _meta but no modern header it opens a session', async () => {
  const { handler } = handlerFor();
  const removed = await modern(handler, 'initialize');
  assert.equal(removed.status, 404);
  const body = await removed.json();
  assert.equal(body.id, 7);
  assert.equal(body.error.code, -32601);
  const init = INIT();
  init.params._meta = META;
  const legacy = await post(handler, init);
  assert.equal(legacy.status, 200);
  assert.ok(legacy.headers.get('mcp-session-id'));
});

test('a missing client capability gets 400 with -32021', async () => {
  const { handler } = handlerFor();
  const response = await modern(handler, 'tools/call', { name: 'sample', arguments: {} });
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.error.code, -32021);
  assert.deepEqual(body.error.data.requiredCapabilities, { sampling: {} });
});

test('Mcp-Method must be present and equal to the body method, case-sensitively', async () => {
  const { handler } = handlerFor();
  for (const value of ['prompts/list', 'TOOLS/LIST']) {
    const response = await modern(handler, 'tools/list', {}, { 'mcp-method': value });
    assert.equal(response.status, 400, value);
    assert.match((await response.json()).error.message, /Mcp-Method/);
  }
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
  const missing = await post(handler, body, { 'mcp-protocol-version': MODERN });
  assert.equal((await missing.json()).error.code, -32020);
  const upper = await post(handler, body, {
    'mcp-protocol-version': MODERN,
    'MCP-METHOD': 'tools/list',
  });
  assert.equal(upper.status, 200);
});

test('Mcp-Name must match params.name or params.uri; whitespace around it and base64 values are accepted', async () => {
  const { handler } = handlerFor();
  const call = { name: 'echo', arguments: { text: 'hi' } };
  const wrong = await modern(handler, 'tools/call', call, { 'mcp-name': 'other' });
  assert.equal(wrong.status, 400);
  assert.deepEqual((await wrong.json()).error, {
    code: -32020,
    message: "Header mismatch: Mcp-Name header value 'other' does not match body value 'echo'",
  });
  const missing = await modern(handler, 'tools/call', call, { 'mcp-name': '' });
  assert.equal(missing.status, 400);
  assert.equal((await modern(handler, 'tools/call', call, { 'mcp-name': '  echo  ' })).status, 200);
  assert.equal(
    (await modern(handler, 'tools/call', call, { 'mcp-name': `=?base64?${btoa('echo')}?=` }))
      .status,
    200,
  );
  const read = await modern(
    handler,
    'resources/read',
    { uri: 'test://x' },
    { 'mcp-name': 'test://y' },
  );
  assert.equal((await read.json()).error.code, -32020);
});

test('x-mcp-header arguments must come as matching Mcp-Param headers: strings, integers numerically, booleans, nested', async () => {
  const { handler } = handlerFor();
  const call = (args, headers) =>
    modern(handler, 'tools/call', { name: 'routed', arguments: args }, headers);
  const ok = await call(
    { region: 'us-west1', count: 42, flag: true, place: { zone: 'b' } },
    {
      'mcp-param-region': 'us-west1',
      'Mcp-Param-Count': '42.0',
      'mcp-param-flag': 'true',
      'mcp-param-zone': 'b',
    },
  );
  assert.equal(ok.status, 200);
  assert.equal(
    (
      await call(
        { region: 'Hello, 世界' },
        { 'mcp-param-region': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=` },
      )
    ).status,
    200,
  );
  assert.equal(
    (await call({ region: 'SGVsbG8=' }, { 'mcp-param-region': 'SGVsbG8=' })).status,
    200,
  );
  assert.equal(
    (await call({ region: '=?base64?SGVsbG8=' }, { 'mcp-param-region': '=?base64?SGVsbG8=' }))
      .status,
    200,
  );
  assert.equal((await call({}, {})).status, 200);
  const rejected = [
    [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }],
    [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }],
    [{ region: 'test-value' }, {}],
    [{ region: 'a' }, { 'mcp-param-region': 'b' }],
    [{ count: 42 }, { 'mcp-param-count': '43' }],
    [{ flag: false }, { 'mcp-param-flag': 'FALSE' }],
    [{}, { 'mcp-param-region': 'stray' }],
    [{ place: { zone: 'a' } }, {}],
  ];
  for (const [args, headers] of rejected) {
    const response = await call(args, headers);
    assert.equal(response.status, 400, JSON.stringify([args, headers]));
    assert.equal((await response.json()).error.code, -32020);
  }
});

test('header values decode strictly: OWS trimmed, base64 of UTF-8 with correct padding, no control characters', () => {
  assert.equal(decodeHeaderValue('  us-west1 \t'), 'us-west1');
  assert.equal(decodeHeaderValue('=?base64?IHBhZGRlZCA=?='), ' padded ');
  assert.equal(decodeHeaderValue('=?base64?bGluZTEKbGluZTI=?='), 'line1\nline2');
  assert.equal(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='), '=?base64?literal?=');
  assert.equal(decodeHeaderValue('=?base64?/w==?='), undefined, 'not UTF-8');
  assert.equal(decodeHeaderValue('=?base64?SGVsbG8?='), undefined);
  assert.equal(decodeHeaderValue('a\u0001b'), undefined);
  assert.equal(decodeHeaderValue('é'), undefined);
  assert.deepEqual(
    paramHeaders({
      type: 'object',
      properties: {
        a: { 'x-mcp-header': 'A' },
        b: { 'x-mcp-header': 'bad name' },
        c: { allOf: [{ 'x-mcp-header': 'C' }] },
      },
    }),
    [{ header: 'A', path: ['a'] }],
  );
});

test('a 2026-07-28 notification gets 202 and a response gets 400', async () => {
  const { handler } = handlerFor();
  const note = await post(
    handler,
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    { 'mcp-protocol-version': MODERN },
  );
  assert.equal(note.status, 202);
  const response = await post(
    handler,
    { jsonrpc: '2.0', id: 1, result: {} },
    { 'mcp-protocol-version': MODERN },
  );
  assert.equal(response.status, 400);
});

test('progress switches the reply to SSE: the notifications, then the response, then the end of the stream', async () => {
  const { handler } = handlerFor();
  const response = await modern(handler, 'tools/call', {
    name: 'progress',
    arguments: {},
    _meta: { progressToken: 'p' },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const { events: got } = await events(response);
  assert.deepEqual(
    got.map((e) => e.method ?? `reply ${e.id}`),
    ['notifications/progress', 'notifications/progress', 'reply 7'],
  );
  assert.equal(got[2].result.content[0].text, 'done');
});

/** An event store that logs heartbeats and stream openings, in order. */
class LoggingEventStore extends MemoryEventStore {
  log = [];
  async heartbeat(node, ttlMs) {
    this.log.push(`beat ${node}`);
    return super.heartbeat(node, ttlMs);
  }
  async open(streamId, info) {
    this.log.push(`open ${info.node}`);
    return super.open(streamId, info);
  }
}

test('a handler beats no heart while it serves 2026-07-28 POSTs; its first legacy request starts the heartbeat before any stream is recorded', async () => {
  const store = new LoggingEventStore();
  const { handler, server } = handlerFor({ eventStore: store });
  const streamed = await modern(handler, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 1 } });
  assert.equal((await events(streamed)).events.at(-1).result.content[0].text, 'done');
  assert.deepEqual(store.log, [], 'no heartbeat and no stored stream at 2026-07-28');
  const id = await openSession(handler);
  assert.deepEqual(store.log, [`beat ${server.nodeId}`], 'the heartbeat started with the first legacy request');
  const legacy = await post(
    handler,
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 1 } } },
    { 'mcp-session-id': id },
  );
  assert.equal((await events(legacy)).events.at(-1).result.content[0].text, 'done');
  await eventually(() => store.log.length > 1);
  assert.deepEqual(store.log, [`beat ${server.nodeId}`, `open ${server.nodeId}`], 'the stream is stored after the first beat');
});

test('closing a 2026-07-28 response stream cancels the request; a legacy disconnect does not', async () => {
  const { handler, seen } = handlerFor();
  const response = await modern(handler, 'tools/call', {
    name: 'slow',
    arguments: {},
    _meta: { progressToken: 1 },
  });
  const { events: first, reader } = await events(response, 1);
  assert.equal(first[0].method, 'notifications/progress');
  await reader.cancel();
  await new Promise((r) => setImmediate(r));
  if (NODE_PATH) await eventually(() => seen.aborted === 1);
  assert.equal(seen.aborted, 1);
  const id = await openSession(handler);
  const legacy = await post(
    handler,
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: { progressToken: 1 } },
    },
    { 'mcp-session-id': id },
  );
  await legacy.body.cancel();
  await new Promise((r) => setImmediate(r));
  if (NODE_PATH) await new Promise((r) => setTimeout(r, 50));
  assert.equal(seen.aborted, 1);
  await post(
    handler,
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
    { 'mcp-session-id': id },
  );
  assert.equal(seen.aborted, 2);
});

test('subscriptions/listen streams the acknowledgement first, then the list changes it asked for', async () => {
  const { handler } = handlerFor();
  const listen = await modern(handler, 'subscriptions/listen', {
    notifications: { toolsListChanged: true },
  });
  assert.equal(listen.headers.get('content-type'), 'text/event-stream');
  const { events: ack, reader } = await events(listen, 1);
  assert.equal(ack[0].method, 'notifications/subscriptions/acknowledged');
  await (await modern(handler, 'tools/call', { name: 'change', arguments: {} })).json();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n'))
    text += decoder.decode((await reader.read()).value, { stream: true });
  const change = JSON.parse(/data: (.*)/.exec(text)[1]);
  assert.equal(change.method, 'notifications/tools/list_changed');
  assert.equal(change.params._meta['io.modelcontextprotocol/subscriptionId'], 7);
  await reader.cancel();
});

test('close() ends subscriptions with their result, ends session streams, and answers new requests with 503', async () => {
  const { handler } = handlerFor();
  const id = await openSession(handler);
  const stream = await handler(
    request('GET', { headers: { accept: 'text/event-stream', 'mcp-session-id': id } }),
  );
  const listen = await modern(handler, 'subscriptions/listen', {
    notifications: { toolsListChanged: true },
  });
  await handler.close();
  const { events: got } = await events(listen);
  assert.equal(got.at(-1).id, 7);
  assert.ok(got.at(-1).result);
  assert.deepEqual((await events(stream)).events, []);
  assert.equal((await post(handler, INIT())).status, 503);
});

test('a batch at 2026-07-28 gets 400', async () => {
  const { handler } = handlerFor();
  const response = await post(handler, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], {
    'mcp-protocol-version': MODERN,
  });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, -32600);
});

test('an SSE stream drops a message JSON cannot carry and ends a consumer that falls too far behind', async () => {
  let aborted = 0;
  const stream = new SseStream({ maxBufferedBytes: 4096, onabort: () => aborted++ });
  assert.equal(stream.send({ jsonrpc: '2.0', method: 'x', params: { n: 1n } }), false);
  assert.equal(stream.open, true);
  const big = { jsonrpc: '2.0', method: 'x', params: { pad: 'y'.repeat(1000) } };
  let sent = 0;
  while (stream.send(big)) sent++;
  assert.ok(sent > 4 && sent < 100, `${sent} messages queued`);
  assert.equal(stream.open, false);
  assert.equal(aborted, 1);
  await assert.rejects(stream.readable.getReader().read());
});

test('an SSE stream read as a web stream ends a consumer that falls too far behind', async () => {
  let aborted = 0;
  const stream = new SseStream({ maxBufferedBytes: 4096, onabort: () => aborted++ });
  const reader = stream.readable.getReader();
  const big = { jsonrpc: '2.0', method: 'x', params: { pad: 'y'.repeat(1000) } };
  let sent = 0;
  while (stream.send(big)) sent++;
  assert.ok(sent > 4 && sent < 100, `${sent} messages queued`);
  assert.equal(aborted, 1);
  await assert.rejects(reader.read(), /fell too far behind/);
});

test('an SSE stream handed to a node:http response (a sink) gets what was queued, then each event, then its end', () => {
  const log = [];
  let held = 0;
  const sink = { write: (text) => (log.push(text), held), end: () => log.push('end'), fail: () => log.push('fail') };
  let aborted = 0;
  const stream = new SseStream({ startWithComment: true, maxBufferedBytes: 10, onabort: () => aborted++ });
  stream.send({ jsonrpc: '2.0', method: 'a' });
  stream.attach(sink);
  assert.deepEqual(log, [':\n\n', 'event: message\ndata: {"jsonrpc":"2.0","method":"a"}\n\n']);
  assert.equal(stream.send({ jsonrpc: '2.0', method: 'b' }, '7'), true);
  assert.equal(log[2], 'id: 7\nevent: message\ndata: {"jsonrpc":"2.0","method":"b"}\n\n');
  // The response holds more than the bound unsent: the client is dropped, the stream ends.
  held = 64 * 1024 + 11;
  assert.equal(stream.send({ jsonrpc: '2.0', method: 'c' }), false);
  assert.deepEqual(log.slice(4), ['fail']);
  assert.equal(aborted, 1);
  assert.equal(stream.open, false);
  stream.cancel();
  assert.equal(aborted, 1);

  const closed = new SseStream();
  closed.send({ jsonrpc: '2.0', method: 'd' });
  closed.close();
  const after = [];
  closed.attach({ write: (text) => (after.push(text), 0), end: () => after.push('end'), fail: () => after.push('fail') });
  assert.deepEqual(after, ['event: message\ndata: {"jsonrpc":"2.0","method":"d"}\n\n', 'end']);

  const failed = new SseStream({ maxBufferedBytes: 0 });
  while (failed.send({ jsonrpc: '2.0', method: 'x', params: { pad: 'y'.repeat(1000) } }));
  const late = [];
  failed.attach({ write: (text) => (late.push(text), 0), end: () => late.push('end'), fail: () => late.push('fail') });
  assert.deepEqual(late, ['fail']);
});

// ---- Scaling: replicas that share only the stateSecret ----

test("two replicas sharing only a stateSecret serve alternating requests and resume each other's elicitation", async () => {
  const stateSecret = 'shared-replica-secret';
  const a = handlerFor({}, { stateSecret }).handler;
  const b = handlerFor({}, { stateSecret }).handler;
  const replicas = [a, b];
  for (let i = 0; i < 4; i++) {
    const response = await modern(
      replicas[i % 2],
      'tools/call',
      { name: 'echo', arguments: { text: `n${i}` } },
      {},
      i,
    );
    assert.equal((await response.json()).result.content[0].text, `n${i}`);
  }
  const first = await (await modern(a, 'tools/call', { name: 'ask', arguments: {} }, {}, 1)).json();
  assert.equal(first.result.resultType, 'input_required');
  const [key, question] = Object.entries(first.result.inputRequests)[0];
  assert.equal(question.method, 'elicitation/create');
  const retry = {
    name: 'ask',
    arguments: {},
    requestState: first.result.requestState,
    inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } },
  };
  const second = await (await modern(b, 'tools/call', retry, {}, 2)).json();
  assert.equal(second.result.resultType, 'complete');
  assert.equal(second.result.content[0].text, 'Hello, Grace!');
  const stranger = handlerFor({}, { stateSecret: 'another-secret' }).handler;
  const refused = await (await modern(stranger, 'tools/call', retry, {}, 3)).json();
  assert.equal(refused.error.code, -32602);
});

// ---- node:http ----

test('serveHttp on port 0 serves both eras over a real socket, refuses an oversized body, and closes gracefully', async () => {
  const { server } = fixture();
  const serving = await serveHttp(server, { port: 0, maxBodyBytes: 1024, keepAliveMs: 0 });
  assert.match(serving.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  try {
    const init = await fetch(serving.url, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(INIT()),
    });
    assert.equal(init.status, 200);
    assert.ok(init.headers.get('mcp-session-id'));
    assert.equal((await init.json()).result.serverInfo.name, 'http-test');
    const progress = await fetch(serving.url, {
      method: 'POST',
      headers: {
        ...JSON_HEADERS,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'progress',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'progress', arguments: {}, _meta: { ...META, progressToken: 1 } },
      }),
    });
    const { events: got } = await events(progress);
    assert.equal(got.length, 3);
    const big = await fetch(serving.url, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ ...INIT(), pad: 'x'.repeat(5000) }),
    });
    assert.equal(big.status, 413);
    assert.equal(
      (
        await fetch(serving.url.replace('/mcp', '/elsewhere'), {
          method: 'POST',
          headers: JSON_HEADERS,
          body: '{}',
        })
      ).status,
      404,
    );
  } finally {
    await serving.close();
  }
  await assert.rejects(fetch(serving.url, { method: 'POST', headers: JSON_HEADERS, body: '{}' }));
});

test('createHttpHandler mounts in a plain node:http server and streams SSE with backpressure', async () => {
  const { createServer: createNodeServer } = await import('node:http');
  const { server } = fixture();
  const mcp = createHttpHandler(server, { keepAliveMs: 0 });
  const http = createNodeServer(mcp);
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://localhost:${http.address().port}/anything`;
  try {
    const init = await fetch(url, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(INIT()),
    });
    const id = init.headers.get('mcp-session-id');
    await init.json();
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await fetch(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': id },
      body: JSON.stringify(initialized),
    });
    const stream = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': id },
    });
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    for (let i = 0; i < 200; i++) server.listChanged('tools');
    const { events: got, reader } = await events(stream, 200);
    assert.equal(got.length, 200);
    await reader.cancel();
  } finally {
    await mcp.close();
    await new Promise((r) => http.close(r));
  }
});

test('the official SDK v1 client talks to serveHttp: tools, elicitation over SSE, logging, session end', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } =
    await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { server } = fixture();
  const serving = await serveHttp(server, { port: 0, keepAliveMs: 0 });
  const client = new Client(
    { name: 'sdk-v1', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name: 'Linus' },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(serving.url));
  try {
    await client.connect(transport);
    assert.ok(transport.sessionId);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'echo'));
    assert.equal(
      (await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content[0].text,
      'hi',
    );
    assert.equal(
      (await client.callTool({ name: 'ask', arguments: {} })).content[0].text,
      'Hello, Linus!',
    );
    const progress = [];
    await client.callTool({ name: 'progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    assert.deepEqual(progress, [1, 2]);
    await transport.terminateSession();
    assert.equal(transport.sessionId, undefined);
  } finally {
    await client.close();
    await serving.close();
  }
});

test('baremcp serve <module> --http --port 0 serves over HTTP and exits cleanly on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-http-'));
  const module = join(dir, 'server.js');
  const index = pathToFileURL(resolve(repoRoot, 'dist', 'index.js')).href;
  writeFileSync(
    module,
    `import { createServer } from '${index}';\nexport default createServer({ info: { name: 'cli-http', version: '1' }, tools: [{ name: 'hi', description: 'Hi.', inputSchema: { type: 'object' }, run: () => 'hi' }] });\n`,
  );
  const child = spawn(
    process.execPath,
    [mainBin, 'serve', module, '--http', '--port', '0', '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise((resolveUrl, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolveUrl(match[1]);
    });
    child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
  });
  const response = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify(INIT()),
  });
  assert.equal((await response.json()).result.serverInfo.name, 'cli-http');
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});
