// Authorization on the HTTP endpoint, in process against a real oidc-provider: the Protected
// Resource Metadata (root and path-aware), the challenges, the scope table (403 naming every
// scope, lists filtered), legacy sessions bound to their caller, 2026-07-28 requestState bound to
// its caller, and the caller in the context.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createResourceServer } from '../../dist/auth/index.js';
import { createFetchHandler } from '../../dist/transport/fetch-handler.js';
import { AUDIENCE, authHandler, challengeOf, legacy, modern, openSession, post, scopedServer } from './fixture.js';
import { startProvider, SCOPES } from './provider.js';

let provider;
let fixture;
const handlers = [];
before(async () => {
  provider = await startProvider({ audience: AUDIENCE });
  fixture = authHandler(provider.issuer);
  handlers.push(fixture.handler);
});
after(async () => {
  await Promise.all(handlers.map((h) => h.close()));
  await provider.close();
});

function withAuth(options) {
  const made = authHandler(provider.issuer, options);
  handlers.push(made.handler);
  return made;
}
const call = (handler, name, token) => modern(handler, 'tools/call', { name, arguments: {} }, { token });

test('Protected Resource Metadata is served at the path-aware and the root well-known URLs', async () => {
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const response = await fixture.handler(new Request(`http://localhost${path}`));
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await response.json(), {
      resource: AUDIENCE,
      authorization_servers: [provider.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['admin', 'files:read', 'files:write', 'notes:read'],
    });
  }
});

test('the metadata answers HEAD and a CORS preflight, refuses other methods, and needs no token', async () => {
  const url = 'http://localhost/.well-known/oauth-protected-resource/mcp';
  const head = await fixture.handler(new Request(url, { method: 'HEAD' }));
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  const preflight = await fixture.handler(new Request(url, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }));
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-methods'), /GET/);
  const put = await fixture.handler(new Request(url, { method: 'PUT', body: '{}' }));
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, HEAD, OPTIONS');
  // From a browser on any origin: public information.
  const browser = await fixture.handler(new Request(url, { headers: { origin: 'https://evil.example' } }));
  assert.equal(browser.status, 200);
  // But not for another Host (DNS rebinding protection still applies).
  const rebound = await fixture.handler(new Request('http://attacker.example/.well-known/oauth-protected-resource/mcp'));
  assert.equal(rebound.status, 404);
  // Other well-known paths are not the metadata.
  assert.equal((await fixture.handler(new Request('http://localhost/.well-known/oauth-protected-resource/other'))).status, 404);
});

test('configured scopes and a resource name shape the metadata; an audience on another path adds its well-known URL', async () => {
  const { handler } = withAuth({ auth: { audience: 'http://localhost/tenant/a', scopes: ['files:read'], resourceName: 'Files' } });
  for (const path of ['/tenant/a', '/mcp', '']) {
    const response = await handler(new Request(`http://localhost/.well-known/oauth-protected-resource${path}`));
    assert.equal(response.status, 200, path);
    const document = await response.json();
    assert.equal(document.resource, 'http://localhost/tenant/a');
    assert.deepEqual(document.scopes_supported, ['files:read']);
    assert.equal(document.resource_name, 'Files');
  }
});

test('no token: 401 with resource_metadata and the scopes, and no error code (RFC 6750 §3.1)', async () => {
  const response = await call(fixture.handler, 'whoami', undefined);
  assert.equal(response.status, 401);
  const value = response.headers.get('www-authenticate');
  assert.equal(
    value,
    'Bearer scope="admin files:read files:write notes:read", resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"',
  );
  const body = await response.json();
  assert.equal(body.error.message, 'Unauthorized: send an access token in the Authorization header (Bearer)');
  assert.equal(fixture.runs.length, 0);
});

test('every method of the endpoint needs the token: GET and DELETE too, and notifications', async () => {
  const get = await fixture.handler(new Request(AUDIENCE, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' } }));
  assert.equal(get.status, 401);
  const del = await fixture.handler(new Request(AUDIENCE, { method: 'DELETE', headers: { 'mcp-session-id': 'x' } }));
  assert.equal(del.status, 401);
  const note = await post(fixture.handler, { jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.equal(note.status, 401);
  // A CORS preflight carries no credentials and is answered without one; unknown methods are 405.
  const preflight = await fixture.handler(new Request(AUDIENCE, { method: 'OPTIONS', headers: { origin: 'http://localhost', 'access-control-request-method': 'POST' } }));
  assert.equal(preflight.status, 204);
  assert.equal((await fixture.handler(new Request(AUDIENCE, { method: 'PUT', body: '{}' }))).status, 405);
  // Browsers may read the challenge.
  const browser = await post(fixture.handler, '{}', { headers: { origin: 'http://localhost' } });
  assert.match(browser.headers.get('access-control-expose-headers'), /WWW-Authenticate/);
});

test('ctx.principal: subject, client id, issuer, scopes; chosen claims only; never the token unless asked', async () => {
  const token = await provider.token({ scope: 'files:read notes:read' });
  const response = await call(fixture.handler, 'whoami', token);
  assert.equal(response.status, 200);
  const principal = JSON.parse((await response.json()).result.content[0].text);
  assert.deepEqual(principal, {
    scopes: ['files:read', 'notes:read'],
    claims: {},
    subject: 'mcp-client',
    clientId: 'mcp-client',
    issuer: provider.issuer,
  });
  assert.ok(!JSON.stringify(principal).includes(token.slice(-20)));
  const { handler } = withAuth({ auth: { exposeClaims: ['jti', 'not-there'], exposeToken: true } });
  const shown = JSON.parse((await (await call(handler, 'whoami', token)).json()).result.content[0].text);
  assert.deepEqual(Object.keys(shown.claims), ['jti']);
  assert.equal(shown.token, token);
});

// The scope table: which token may call which tool, and what it sees in tools/list.
const SCOPE_TABLE = [
  { scopes: 'files:read', calls: { whoami: 200, read_file: 200, write_file: 403, admin_reset: 403 }, lists: ['whoami', 'read_file', 'ask'] },
  { scopes: 'files:write', calls: { read_file: 403, write_file: 200, admin_reset: 403 }, lists: ['whoami', 'write_file', 'ask'] },
  { scopes: 'files:read files:write admin', calls: { read_file: 200, write_file: 200, admin_reset: 200 }, lists: ['whoami', 'read_file', 'write_file', 'admin_reset', 'ask'] },
  { scopes: 'notes:read', calls: { whoami: 200, read_file: 403, admin_reset: 403 }, lists: ['whoami', 'ask'] },
];

for (const row of SCOPE_TABLE) {
  test(`scope table: a token with "${row.scopes}" calls and lists exactly what its scopes allow`, async () => {
    const token = await provider.token({ scope: row.scopes });
    for (const [name, status] of Object.entries(row.calls)) {
      const before = fixture.runs.length;
      const response = await call(fixture.handler, name, token);
      assert.equal(response.status, status, name);
      if (status === 403) {
        const tool = fixture.server.tools.get(name);
        const challenge = challengeOf(response);
        assert.equal(challenge.error, 'insufficient_scope');
        assert.equal(challenge.scope, tool.scopes.join(' '), 'every scope the tool needs, in one challenge');
        assert.equal(challenge.resource_metadata, 'http://localhost/.well-known/oauth-protected-resource/mcp');
        assert.match(challenge.error_description, new RegExp(`tool "${name}" needs scope`));
        const body = await response.json();
        assert.equal(body.id, 7);
        assert.deepEqual(body.error.data, { requiredScopes: tool.scopes });
        assert.match(body.error.message, /^Forbidden: insufficient scope: /);
        assert.equal(fixture.runs.length, before, `${name} must not run`);
      } else {
        assert.equal((await response.json()).result.isError, undefined);
        assert.equal(fixture.runs.at(-1).name, name);
      }
    }
    const list = await (await modern(fixture.handler, 'tools/list', {}, { token })).json();
    assert.deepEqual(list.result.tools.map((t) => t.name), row.lists);
    assert.equal(list.result.cacheScope, 'private', 'a list filtered per caller is private (MCP 2026-07-28 Caching)');
  });
}

test('scope table, legacy era: 403 on a session, the list filtered, and prompts too', async () => {
  const token = await provider.token({ scope: 'files:read' });
  const session = await openSession(fixture.handler, token);
  const before = fixture.runs.length;
  const denied = await legacy(fixture.handler, session, 'tools/call', { name: 'write_file', arguments: {} }, { token });
  assert.equal(denied.status, 403);
  assert.equal(challengeOf(denied).scope, 'files:write');
  assert.equal(fixture.runs.length, before);
  const tools = await (await legacy(fixture.handler, session, 'tools/list', {}, { token })).json();
  assert.deepEqual(tools.result.tools.map((t) => t.name), ['whoami', 'read_file', 'ask']);
  const prompts = await (await legacy(fixture.handler, session, 'prompts/list', {}, { token })).json();
  assert.deepEqual(prompts.result.prompts.map((p) => p.name), ['open']);
  const prompt = await legacy(fixture.handler, session, 'prompts/get', { name: 'notes' }, { token });
  assert.equal(prompt.status, 403);
  assert.equal(challengeOf(prompt).scope, 'notes:read');
  // A 2025-03-26 batch asking for two scoped tools: one 403 naming every scope.
  const batch = await post(
    fixture.handler,
    [
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'write_file', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'admin_reset', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
    ],
    { token, headers: { 'mcp-session-id': session } },
  );
  assert.equal(batch.status, 403);
  assert.equal(challengeOf(batch).scope, 'files:write admin');
  assert.equal((await batch.json()).id, undefined);
  assert.equal(fixture.runs.length, before);
});

test("listing: 'all' shows every tool (public cache scope) while calls still need their scopes", async () => {
  const { handler, runs } = withAuth({ auth: { listing: 'all' } });
  const token = await provider.token({ scope: 'files:read' });
  const list = await (await modern(handler, 'tools/list', {}, { token })).json();
  assert.deepEqual(list.result.tools.map((t) => t.name), ['whoami', 'read_file', 'write_file', 'admin_reset', 'ask']);
  assert.equal(list.result.cacheScope, 'public');
  assert.equal((await call(handler, 'write_file', token)).status, 403);
  assert.equal(runs.length, 0);
});

test('impliedScopes: a broader scope grants the narrower ones (scope hierarchy)', async () => {
  const { handler } = withAuth({ auth: { impliedScopes: { admin: ['files:write', 'files:read'] } } });
  const token = await provider.token({ scope: 'admin' });
  for (const name of ['read_file', 'write_file', 'admin_reset']) assert.equal((await call(handler, name, token)).status, 200, name);
});

test('a legacy session belongs to its caller: another principal gets 404; the same caller with a refreshed token continues', async () => {
  const first = await provider.token({ scope: 'files:read' });
  const session = await openSession(fixture.handler, first);
  // Another principal (another client) with a valid token on that session id: it does not exist.
  const other = await provider.token({ scope: 'files:read', alg: 'ES256' });
  const stolen = await legacy(fixture.handler, session, 'tools/call', { name: 'whoami', arguments: {} }, { token: other });
  assert.equal(stolen.status, 404);
  assert.match((await stolen.json()).error.message, /no such session/);
  const stream = await fixture.handler(new Request(AUDIENCE, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, authorization: `Bearer ${other}` } }));
  assert.equal(stream.status, 404);
  const del = await fixture.handler(new Request(AUDIENCE, { method: 'DELETE', headers: { 'mcp-session-id': session, authorization: `Bearer ${other}` } }));
  assert.equal(del.status, 404);
  // The same principal with a new token (a refresh): the session goes on.
  const refreshed = await provider.token({ scope: 'files:read' });
  assert.notEqual(refreshed, first);
  const ok = await legacy(fixture.handler, session, 'tools/call', { name: 'whoami', arguments: {} }, { token: refreshed });
  assert.equal(ok.status, 200);
  assert.equal(JSON.parse((await ok.json()).result.content[0].text).subject, 'mcp-client');
  const mine = await fixture.handler(new Request(AUDIENCE, { method: 'DELETE', headers: { 'mcp-session-id': session, authorization: `Bearer ${refreshed}` } }));
  assert.equal(mine.status, 204);
});

test('a 2026-07-28 requestState is bound to its caller: another principal cannot resume it', async () => {
  const token = await provider.token({ scope: 'files:read' });
  const first = await (await modern(fixture.handler, 'tools/call', { name: 'ask', arguments: {} }, { token })).json();
  assert.equal(first.result.resultType, 'input_required');
  const [key] = Object.keys(first.result.inputRequests);
  const retry = (bearer) =>
    modern(fixture.handler, 'tools/call', {
      name: 'ask',
      arguments: {},
      requestState: first.result.requestState,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
    }, { token: bearer });
  const other = await provider.token({ scope: 'files:read', alg: 'PS256' });
  const refused = await (await retry(other)).json();
  assert.equal(refused.error.code, -32602);
  assert.match(refused.error.message, /requestState refused: it belongs to another request/);
  const same = await (await retry(await provider.token({ scope: 'files:read' }))).json();
  assert.equal(same.result.content[0].text, 'Hello, Ada!');
});

test('without authorization nothing changes: scoped tools run for anyone (no principal), lists are whole', async () => {
  const { server, runs } = scopedServer();
  const handler = createFetchHandler(server, { path: '/mcp', keepAliveMs: 0 });
  handlers.push(handler);
  assert.equal((await call(handler, 'admin_reset', undefined)).status, 200);
  assert.equal(runs[0].principal, undefined);
  const list = await (await modern(handler, 'tools/list', {})).json();
  assert.equal(list.result.tools.length, 5);
});

test('the pipeline refuses a scoped target for a principal without the scope, whatever the transport', async () => {
  const { server, runs } = scopedServer();
  const connection = server.connect();
  const principal = { subject: 'u', scopes: ['files:read'], claims: {} };
  const reply = await connection.handle(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_file', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } },
    { kind: 'custom', principal },
  );
  assert.equal(reply.error.code, -32600);
  assert.equal(reply.error.message, 'Forbidden: tools/call of tool "write_file" needs scope files:write (missing: files:write)');
  assert.deepEqual(reply.error.data, { requiredScopes: ['files:write'] });
  assert.equal(runs.length, 0);
  const allowed = await connection.handle(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } },
    { kind: 'custom', principal },
  );
  assert.equal(allowed.result.content[0].text, 'read_file');
});

test('tool and prompt scopes must be OAuth scope tokens', async () => {
  const { createServer } = await import('../../dist/index.js');
  const tool = { name: 't', description: 'T.', inputSchema: { type: 'object' }, run: () => 'x' };
  assert.throws(() => createServer({ info: { name: 's', version: '1' }, tools: [{ ...tool, scopes: ['has space'] }] }), {
    name: 'ToolDefinitionError',
    message: 'tool "t": scopes must be an array of OAuth scope names (printable ASCII without spaces, quotes or backslashes; RFC 6749 §3.3)',
  });
  assert.throws(() => createServer({ info: { name: 's', version: '1' }, tools: [{ ...tool, scopes: 'files:read' }] }), /tool "t": scopes must be an array/);
  assert.throws(
    () => createServer({ info: { name: 's', version: '1' }, prompts: [{ name: 'p', scopes: ['a"b'], get: () => 'x' }] }),
    { name: 'PromptDefinitionError', message: /prompt "p": scopes must be an array of OAuth scope names/ },
  );
});

test('the authorization server down: 503 with Retry-After, not 401 (the token may be fine)', async () => {
  const auth = createResourceServer({ issuer: 'http://127.0.0.1:9', audience: AUDIENCE, fetchTimeoutMs: 2000 });
  const lines = [];
  const { server, runs } = scopedServer({ report: (line) => lines.push(line) });
  const handler = createFetchHandler(server, { path: '/mcp', auth });
  handlers.push(handler);
  const token = await provider.sign();
  const response = await call(handler, 'whoami', token);
  assert.equal(response.status, 503);
  assert.equal(response.headers.get('retry-after'), '10');
  assert.equal(response.headers.get('www-authenticate'), null);
  assert.match((await response.json()).error.message, /authorization server cannot be reached/);
  assert.match(lines.find((l) => l.startsWith('authorization unavailable')) ?? lines.join('\n'), /^authorization unavailable: no usable authorization server metadata for http:\/\/127\.0\.0\.1:9: cannot fetch http:\/\/127\.0\.0\.1:9\/\.well-known\/oauth-authorization-server/);
  assert.equal(runs.length, 0);
});

test('every scope the provider knows is one a tool or prompt declares (the table covers them)', () => {
  assert.deepEqual([...SCOPES].sort(), ['admin', 'files:read', 'files:write', 'notes:read']);
});
