// Checks of examples/cloudflare-worker under workerd (fixtures/worker-example.capnp): a
// 2026-07-28 call served by the isolate, and a legacy session whose requests all reach the
// Durable Object that holds it (initialize, a call with the session id, its GET stream, DELETE).
// Each check is { name, ok, detail }.
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'example-check', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const post = (url, body, headers = {}) =>
  fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
const echo = (id, text, meta) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, ...(meta ? { _meta: META } : {}) } });

async function modernCall(url) {
  const response = await post(url, echo(1, 'stateless', true), { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
  const body = await response.json();
  const text = body.result?.content?.[0]?.text;
  return { name: '2026-07-28 call in the isolate', ok: text === 'stateless', detail: `HTTP ${response.status}: ${text ?? JSON.stringify(body)}` };
}

async function legacySession(url) {
  const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  await init.json();
  const id = init.headers.get('mcp-session-id');
  if (id === null) return { name: 'legacy session in the Durable Object', ok: false, detail: `initialize: HTTP ${init.status}, no session id` };
  const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).arrayBuffer();
  const texts = [];
  for (let i = 0; i < 3; i++) texts.push((await (await post(url, echo(2 + i, `call ${i}`), session)).json()).result?.content?.[0]?.text);
  const start = Date.now();
  const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...session } });
  const reader = stream.body.getReader();
  const first = await reader.read();
  const firstMs = Date.now() - start;
  await reader.cancel();
  const deleted = await fetch(url, { method: 'DELETE', headers: session });
  const gone = await post(url, echo(9, 'after'), session);
  await gone.arrayBuffer();
  const ok = texts.join('|') === 'call 0|call 1|call 2' && !first.done && firstMs < 1000 && deleted.status === 204 && gone.status === 404;
  return {
    name: 'legacy session in the Durable Object',
    ok,
    detail: `calls: ${texts.join(', ')}; GET stream first bytes after ${firstMs} ms; DELETE ${deleted.status}, then ${gone.status}`,
  };
}

/** Runs the checks one after the other against `url`; resolves to the list of results. */
export async function checkWorkerExample(url) {
  const results = [];
  for (const check of [modernCall, legacySession]) {
    results.push(await check(url).catch((error) => ({ name: check.name, ok: false, detail: error.message })));
  }
  return results;
}
