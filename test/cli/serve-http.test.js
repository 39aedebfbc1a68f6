// `baremcp serve --http` as an operator runs it: --host 0.0.0.0 answers on this machine's own
// addresses, --allowed-host adds a name (a proxy's Host), --health answers probes, and replicas
// that share --state-secret (or BAREMCP_STATE_SECRET) resume each other's multi round-trip
// requests; without a secret, one line on stderr says what breaks. Requests go to 127.0.0.1 only,
// naming other hosts in the Host header.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { delay, mainBin, repoRoot } from '../helpers.js';

const ASK = resolve(repoRoot, 'test', 'fixtures', 'ask-server.js');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const NO_SECRET = /no stateSecret configured: .*more than one replica/;

/** This environment without the operator's variables. */
function cleanEnv(env) {
  const clean = { ...process.env, ...env };
  for (const name of ['BAREMCP_STATE_SECRET', 'BAREMCP_ALLOWED_HOSTS']) if (!(name in env)) delete clean[name];
  return clean;
}

/** Children still running: killed when the file ends, whatever failed. */
const live = new Set();
after(() => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts `baremcp serve ASK --http --port 0 ...args`; resolves once it prints its URL. */
async function serve(args, env = {}) {
  const child = spawn(process.execPath, [mainBin, 'serve', ASK, '--http', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: cleanEnv(env),
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  for (let i = 0; i < 500 && !/Streamable HTTP at /.test(stderr); i++) await delay(10);
  const match = /Streamable HTTP at http:\/\/[^:]+:(\d+)\/mcp/.exec(stderr);
  if (match === null) {
    child.kill('SIGKILL');
    throw new Error(`no URL printed; stderr: ${stderr}`);
  }
  return {
    port: Number(match[1]),
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    },
  };
}

/** One HTTP request to 127.0.0.1:port naming `host`; resolves to { status, body }. */
function call(port, { method = 'POST', path = '/mcp', host = `127.0.0.1:${port}`, body, headers = {} } = {}) {
  return new Promise((resolveCall, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolveCall({ status: res.statusCode, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    if (body !== undefined) {
      req.setHeader('content-type', 'application/json');
      req.setHeader('accept', 'application/json, text/event-stream');
      req.end(JSON.stringify(body));
    } else req.end();
  });
}

function askCall(port, params, id) {
  return call(port, {
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', arguments: {}, ...params, _meta: META } },
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask' },
  });
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
const LIST_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

/** This machine's own non-loopback addresses, as a Host header writes them. */
const ownAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => !entry.internal && entry.family === 'IPv4')
  .map((entry) => entry.address);

test('--host 0.0.0.0 answers a Host naming its own address; --allowed-host adds a name; others get 403', async (t) => {
  const server = await serve(['--host', '0.0.0.0', '--allowed-host', 'mcp.example.com', '--allowed-host', 'mcp_backend']);
  t.after(() => server.stop());
  const list = (host) => call(server.port, { host, body: LIST, headers: LIST_HEADERS });
  for (const address of ownAddresses) {
    const own = await list(`${address}:${server.port}`);
    assert.equal(own.status, 200, `${address}: before the fix 403`);
    assert.equal(own.body.result.tools[0].name, 'ask');
  }
  assert.equal((await list(`localhost:${server.port}`)).status, 200);
  assert.equal((await list('mcp.example.com')).status, 200);
  assert.equal((await list('mcp_backend')).status, 200, "nginx's default Host for proxy_pass http://mcp_backend");
  const refused = await list('evil.example');
  assert.equal(refused.status, 403);
  assert.match(refused.body.error.message, /^Forbidden: Host "evil\.example" is not allowed/);
});

test('--health answers GET /healthz with 200 by address; stderr says where, and once that no secret is set', async (t) => {
  const server = await serve(['--health']);
  t.after(() => server.stop());
  const health = await call(server.port, { method: 'GET', path: '/healthz', host: '10.9.8.7' });
  assert.deepEqual(health, { status: 200, body: { status: 'ok' } });
  assert.match(server.stderr(), /health at http:\/\/127\.0\.0\.1:\d+\/healthz/);
  assert.equal(server.stderr().split('\n').filter((l) => NO_SECRET.test(l)).length, 1, server.stderr());
  assert.equal((await call(server.port, { method: 'GET', path: '/other' })).status, 404);
});

test('replicas sharing --state-secret or BAREMCP_STATE_SECRET resume each other; without it the retry fails', async (t) => {
  const [a, b, c] = await Promise.all([
    serve(['--state-secret', 'replica-secret']),
    serve([], { BAREMCP_STATE_SECRET: 'replica-secret' }),
    serve([]),
  ]);
  t.after(() => Promise.all([a.stop(), b.stop(), c.stop()]));
  for (const replica of [a, b]) assert.doesNotMatch(replica.stderr(), NO_SECRET);
  assert.match(c.stderr(), NO_SECRET);
  const first = await askCall(a.port, {}, 1);
  assert.equal(first.body.result.resultType, 'input_required');
  const [key] = Object.keys(first.body.result.inputRequests);
  const retry = {
    requestState: first.body.result.requestState,
    inputResponses: { [key]: { action: 'accept', content: { name: 'Lin' } } },
  };
  const resumed = await askCall(b.port, retry, 2);
  assert.equal(resumed.body.result.content[0].text, 'Hello, Lin!');
  const elsewhere = await askCall(c.port, retry, 3);
  assert.match(elsewhere.body.error.message, /integrity check failed/);
});

test('the operator options are usage errors without --http, or with an empty secret, a bad health path or a bad --max-in-flight', () => {
  const run = (args, env = {}) =>
    spawnSync(process.execPath, [mainBin, 'serve', ASK, ...args], { encoding: 'utf8', env: cleanEnv(env), input: '', timeout: 10_000 });
  const cases = [
    [['--state-secret', 's'], {}, 'baremcp: --state-secret needs --http\n'],
    [['--allowed-host', 'x'], {}, 'baremcp: --allowed-host needs --http\n'],
    [['--health'], {}, 'baremcp: --health needs --http\n'],
    [['--max-in-flight', '4'], {}, 'baremcp: --max-in-flight needs --http\n'],
    [['--behind-proxy'], {}, 'baremcp: --behind-proxy needs --http\n'],
    [['--http', '--port', '0', '--max-in-flight', '0'], {}, 'baremcp: --max-in-flight=0: expected a positive integer, e.g. --max-in-flight 64\n'],
    [['--http', '--port', '0', '--state-secret='], {}, 'baremcp: --state-secret (or BAREMCP_STATE_SECRET) is empty: give every replica the same non-empty secret\n'],
    [['--http', '--port', '0'], { BAREMCP_STATE_SECRET: '' }, 'baremcp: --state-secret (or BAREMCP_STATE_SECRET) is empty: give every replica the same non-empty secret\n'],
    [['--http', '--port', '0', '--health=healthz'], {}, 'baremcp: --health=healthz: expected a path other than /mcp, e.g. --health=/healthz\n'],
  ];
  for (const [args, env, message] of cases) {
    const result = run(args, env);
    assert.equal(result.status, 2, args.join(' '));
    assert.equal(result.stderr, message);
  }
});

test('--max-in-flight N: a session with N requests running gets 429 with Retry-After for the next', async () => {
  const server = await serve(['--max-in-flight', '1', '--behind-proxy']);
  const url = `http://127.0.0.1:${server.port}/mcp`;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const send = (body, extra = {}) => fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const init = await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } });
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id') };
  await init.text();
  await (await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const ask = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } };
  // The first call waits for the client's answer (its stream carries the elicitation request).
  const first = await send(ask, session);
  assert.equal(first.status, 200);
  const second = await send({ ...ask, id: 3 }, session);
  assert.equal(second.status, 429);
  assert.equal(second.headers.get('retry-after'), '1');
  assert.equal((await second.json()).error.code, -31429);
  await (await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }, session)).text();
  await first.body.cancel();
  await server.stop();
});
