// Authorization end to end over real sockets: the official SDK v1 client's OAuth support against
// serveHttp (it follows the 401 to the Protected Resource Metadata, discovers the authorization
// server, gets a client-credentials token from a real oidc-provider, calls tools; on 403
// insufficient_scope it asks for a token again); the bin's --auth-issuer and its environment
// variables; what the HTTP
// layer refuses before any of it (a 1 MB header, two Authorization headers on the wire).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { serveHttp } from '../../dist/transport/http.js';
import { mainBin, repoRoot } from '../helpers.js';
import { scopedServer } from './fixture.js';
import { CLIENT, startProvider } from './provider.js';

const MODULE = resolve(repoRoot, 'test/auth/fixtures/scoped-server.js');
let provider;
before(async () => {
  provider = await startProvider();
});
after(() => provider.close());

const ALL = 'files:read files:write admin notes:read';
const claimsOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

/** The SDK's client-credentials provider; SDK v1 requests the scope it was configured with. */
function sdkClient(url, scope = ALL) {
  const auth = new ClientCredentialsProvider({ clientId: CLIENT.id, clientSecret: CLIENT.secret, expectedIssuer: provider.issuer, ...(scope ? { scope } : {}) });
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  return { client, transport: new StreamableHTTPClientTransport(new URL(url), { authProvider: auth }), auth };
}

test('the SDK v1 client discovers the metadata, then the authorization server, gets a token and calls a tool', async () => {
  const { server, runs } = scopedServer();
  const serving = await serveHttp(server, { port: 0, auth: { issuer: provider.issuer } });
  const { client, transport, auth } = sdkClient(serving.url);
  try {
    const metadataBefore = provider.requests.metadata;
    await client.connect(transport);
    assert.ok(provider.requests.metadata > metadataBefore, 'the client read the authorization server metadata');
    assert.equal(auth.tokens().token_type, 'Bearer');
    // The token names this server (RFC 8707 resource), so the server accepted it.
    assert.equal(claimsOf(auth.tokens().access_token).aud, serving.url);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['whoami', 'read_file', 'write_file', 'admin_reset', 'ask']);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    assert.deepEqual(JSON.parse(who.content[0].text).scopes, ['files:read', 'files:write', 'admin', 'notes:read']);
    const write = await client.callTool({ name: 'write_file', arguments: {} });
    assert.equal(write.content[0].text, 'write_file');
    assert.equal(runs.at(-1).principal.clientId, CLIENT.id);
  } finally {
    await client.close();
    await serving.close();
  }
});

test('with a narrower token the SDK v1 client sees only its tools, gets 403 for the others, and a wider token of the same client continues the session', async () => {
  const { server, runs } = scopedServer();
  const serving = await serveHttp(server, { port: 0, auth: { issuer: provider.issuer } });
  const { client, transport, auth } = sdkClient(serving.url, 'files:read');
  try {
    await client.connect(transport);
    const session = transport.sessionId;
    assert.equal(claimsOf(auth.tokens().access_token).scope, 'files:read');
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['whoami', 'read_file', 'ask']);
    const read = await client.callTool({ name: 'read_file', arguments: {} });
    assert.equal(read.content[0].text, 'read_file');
    // 403 insufficient_scope: the client asks for a token once more (with its configured scope,
    // the only one a v1 client-credentials client requests), gets 403 again, and gives up.
    await assert.rejects(client.callTool({ name: 'write_file', arguments: {} }), /403 after trying upscoping/);
    assert.deepEqual(runs.map((r) => r.name), ['read_file']);
    // Step-up by hand: the same client, a token with more scope, the same session.
    auth.clientMetadata.scope = 'files:read files:write';
    auth.saveTokens(undefined);
    await assert.rejects(client.callTool({ name: 'admin_reset', arguments: {} }), /403/);
    const write = await client.callTool({ name: 'write_file', arguments: {} });
    assert.equal(write.content[0].text, 'write_file');
    assert.equal(claimsOf(auth.tokens().access_token).scope, 'files:read files:write');
    assert.equal(transport.sessionId, session, 'a new token of the same client keeps the session');
    assert.deepEqual(runs.map((r) => r.name), ['read_file', 'write_file']);
  } finally {
    await client.close();
    await serving.close();
  }
});

test('the HTTP layer refuses a 1 MB header with 431 before authorization sees it', async () => {
  const { server, runs } = scopedServer();
  const serving = await serveHttp(server, { port: 0, auth: { issuer: provider.issuer } });
  try {
    const status = await new Promise((resolvePromise, reject) => {
      const req = httpRequest(serving.url, { method: 'POST', headers: { authorization: `Bearer ${'a'.repeat(1024 * 1024)}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolvePromise(res.statusCode);
      });
      req.on('error', reject);
      req.end('{}');
    });
    assert.equal(status, 431);
    assert.equal(runs.length, 0);
  } finally {
    await serving.close();
  }
});

test('two Authorization header lines on the wire → 400 invalid_request', async () => {
  const { server } = scopedServer();
  const serving = await serveHttp(server, { port: 0, auth: { issuer: provider.issuer } });
  try {
    const url = new URL(serving.url);
    const token = await provider.sign({ aud: serving.url });
    const raw = await new Promise((resolvePromise, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.end(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
            'Accept: application/json, text/event-stream\r\n' +
            `Authorization: Bearer ${token}\r\nAuthorization: Bearer ${token}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolvePromise(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /www-authenticate: Bearer error="invalid_request", error_description="send exactly one Authorization header"/i);
  } finally {
    await serving.close();
  }
});

/** Starts the bin with `args` and `env`; resolves to { child, url } once it prints its URL. */
function startBin(args, env = {}) {
  const child = spawn(process.execPath, [mainBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  return new Promise((resolvePromise, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = /at (http:\/\/\S+) \(/.exec(stderr);
      if (m) resolvePromise({ child, url: m[1], stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`bin exited ${code}: ${stderr}`)));
  });
}

test('baremcp serve --http --auth-issuer: the SDK client authorizes and calls a scoped tool; the URL and issuer are printed', async () => {
  const { child, url, stderr } = await startBin(['serve', MODULE, '--http', '--port', '0', '--auth-issuer', provider.issuer]);
  const { client, transport } = sdkClient(url, 'files:read');
  try {
    assert.match(stderr(), new RegExp(`OAuth: tokens from ${provider.issuer.replace(/\./g, '\\.')} for ${url.replace(/\./g, '\\.')}`));
    const unauthorized = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.equal(unauthorized.status, 401);
    assert.match(unauthorized.headers.get('www-authenticate'), /scope="files:read files:write"/);
    await client.connect(transport);
    const read = await client.callTool({ name: 'read_file', arguments: {} });
    assert.equal(read.content[0].text, `read by ${CLIENT.id}`);
  } finally {
    await client.close();
    child.kill('SIGTERM');
  }
});

test('BAREMCP_AUTH_ISSUER, BAREMCP_AUTH_AUDIENCE and BAREMCP_PUBLIC_URL configure the same', async () => {
  const { child, url, stderr } = await startBin(['serve', MODULE, '--http', '--port', '0'], {
    BAREMCP_AUTH_ISSUER: provider.issuer,
    BAREMCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    BAREMCP_AUTH_AUDIENCE: 'https://mcp.example.com/api',
  });
  try {
    assert.match(stderr(), /for https:\/\/mcp\.example\.com\/api\n/);
    // The public host is allowed; the metadata names the configured audience.
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/api', url), { headers: { host: 'mcp.example.com' } });
    const document = await metadata.json();
    assert.equal(document.resource, 'https://mcp.example.com/api');
    const token = await provider.sign({ aud: 'https://mcp.example.com/api', scope: 'files:read' });
    const call = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'read_file',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'read_file', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    assert.equal(call.status, 200);
    assert.equal((await call.json()).result.content[0].text, `read by ${CLIENT.id}`);
  } finally {
    child.kill('SIGTERM');
  }
});

test('stdio: --auth-issuer is a usage error, and scoped tools run unrestricted with one notice on stderr', () => {
  const refused = spawnSync(process.execPath, [mainBin, 'serve', MODULE, '--auth-issuer', provider.issuer], { encoding: 'utf8', input: '' });
  assert.equal(refused.status, 2);
  assert.equal(refused.stderr, 'baremcp: --auth-issuer needs --http: stdio has no authorization (MCP 2026-07-28, Basic / Authorization)\n');
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const callLine = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_file', arguments: {} } });
  const served = spawnSync(process.execPath, [mainBin, 'serve', MODULE], { encoding: 'utf8', input: `${init}\n${callLine}\n`, timeout: 20_000 });
  const replies = served.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(replies[1].result.content[0].text, 'written');
  const notices = served.stderr.split('\n').filter((line) => line.includes('OAuth scopes'));
  assert.deepEqual(notices, ['baremcp: tool read_file, tool write_file declare OAuth scopes; stdio has no authorization, so they run unrestricted']);
});

test('bad authorization settings are usage errors naming the fix', () => {
  const run = (...args) => spawnSync(process.execPath, [mainBin, 'serve', MODULE, '--http', '--port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });
  const plain = run('--auth-issuer', 'http://auth.example.com');
  assert.equal(plain.status, 2);
  assert.match(plain.stderr, /issuer: http:\/\/auth\.example\.com\/ is not https \(http is allowed only for loopback hosts\)/);
  const alone = run('--auth-audience', 'https://mcp.example.com/mcp');
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /--auth-audience needs --auth-issuer/);
  const fragment = run('--auth-issuer', provider.issuer, '--auth-audience', 'https://mcp.example.com/mcp#x');
  assert.equal(fragment.status, 2);
  assert.match(fragment.stderr, /must not have a fragment/);
});
