// Attacks on authorization found by the security review, each a test that failed before its fix:
// a scoped prompt's completer reached through completion/complete, tokens that name no caller
// (so that every such caller shared one key), a flood of made-up opaque tokens turned into a flood
// of introspection requests, and a cached token beside a token in the query string. The issuer is
// a real oidc-provider, as in the other auth tests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createResourceServer } from '../../dist/auth/index.js';
import * as verifier from '../../dist/auth/verifier.js';
import { AUDIENCE, authHandler, challengeOf, legacy, modern, openSession } from './fixture.js';
import { INTROSPECTOR, startProvider } from './provider.js';

let provider;
const handlers = [];
before(async () => {
  provider = await startProvider({ audience: AUDIENCE });
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

/** A server whose scoped prompt has a completer that lists what only its callers may see. */
function completingServer() {
  const completed = [];
  const complete = (value, ctx) => {
    completed.push(ctx.principal?.subject);
    return ['ACME (account 4411)', 'Globex (account 9983)'].filter((v) => v.startsWith(value));
  };
  const made = withAuth({
    server: {
      prompts: [
        { name: 'notes', description: 'Customer notes.', scopes: ['notes:read'], arguments: [{ name: 'customer' }], complete: { customer: complete }, get: () => 'notes' },
        { name: 'open', description: 'Open to all.', arguments: [{ name: 'topic' }], complete: { topic: () => ['weather'] }, get: () => 'open' },
      ],
    },
  });
  return { ...made, completed };
}

const completion = (name, argument) => ({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value: '' } });

test("completion/complete of a scoped prompt needs the prompt's scopes: 403 naming them, and its completer does not run", async () => {
  const { handler, completed } = completingServer();
  const token = await provider.token({ scope: 'files:read' });
  const denied = await modern(handler, 'completion/complete', completion('notes', 'customer'), { token });
  assert.equal(denied.status, 403);
  const challenge = challengeOf(denied);
  assert.equal(challenge.error, 'insufficient_scope');
  assert.equal(challenge.scope, 'notes:read');
  assert.match(challenge.error_description, /prompt "notes" needs scope notes:read/);
  assert.deepEqual((await denied.json()).error.data, { requiredScopes: ['notes:read'] });
  // The legacy era, on a session: the same.
  const session = await openSession(handler, token);
  const legacyDenied = await legacy(handler, session, 'completion/complete', completion('notes', 'customer'), { token });
  assert.equal(legacyDenied.status, 403);
  assert.equal(challengeOf(legacyDenied).scope, 'notes:read');
  assert.deepEqual(completed, [], 'the completer never ran');
  // An unscoped prompt completes for anyone; the scoped one for a caller with its scope.
  const open = await (await modern(handler, 'completion/complete', completion('open', 'topic'), { token })).json();
  assert.deepEqual(open.result.completion.values, ['weather']);
  const allowed = await provider.token({ scope: 'notes:read' });
  const granted = await (await modern(handler, 'completion/complete', completion('notes', 'customer'), { token: allowed })).json();
  assert.equal(granted.result.completion.total, 2);
  assert.deepEqual(completed, ['mcp-client']);
});

test('the pipeline refuses a completion of a scoped prompt for a principal without its scope, whatever the transport', async () => {
  const { server, completed } = completingServer();
  const connection = server.connect();
  const principal = { subject: 'alice', issuer: provider.issuer, scopes: ['files:read'], claims: {} };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const reply = await connection.handle(
    { jsonrpc: '2.0', id: 1, method: 'completion/complete', params: { ...completion('notes', 'customer'), _meta: meta } },
    { principal },
  );
  assert.deepEqual(reply.error, {
    code: -32600,
    message: 'Forbidden: completion/complete of prompt "notes" needs scope notes:read (missing: notes:read)',
    data: { requiredScopes: ['notes:read'] },
  });
  assert.deepEqual(completed, []);
  connection.close();
});

test('a JWT that names neither sub nor client_id is refused: every such caller would share one session, requestState and task key', async () => {
  const { handler, runs } = withAuth();
  const anonymous = await provider.sign({ sub: undefined, client_id: undefined, scope: 'files:read' });
  const response = await modern(handler, 'tools/call', { name: 'whoami', arguments: {} }, { token: anonymous });
  assert.equal(response.status, 401);
  const challenge = challengeOf(response);
  assert.equal(challenge.error, 'invalid_token');
  assert.equal(challenge.error_description, 'the token names neither a subject (sub) nor a client (client_id), so it cannot be bound to a caller');
  assert.equal(runs.length, 0);
  // Either one is enough: azp stands for client_id, as in OpenID Connect.
  for (const claims of [{ client_id: undefined }, { sub: undefined }, { sub: undefined, client_id: undefined, azp: 'app-1' }]) {
    const token = await provider.sign({ ...claims, scope: 'files:read' });
    assert.equal((await modern(handler, 'tools/call', { name: 'whoami', arguments: {} }, { token })).status, 200, JSON.stringify(claims));
  }
});

test('a verify hook that returns a caller with neither subject nor clientId is a 500 the operator is told about', async () => {
  const reported = [];
  const { handler, runs } = withAuth({
    auth: { verify: (token) => (token === 'ok' ? { clientId: 'svc', scopes: [], claims: {} } : { scopes: ['files:read'], claims: {} }) },
    server: { report: (line) => reported.push(line) },
  });
  const response = await modern(handler, 'tools/call', { name: 'whoami', arguments: {} }, { token: 'tenant-a-key' });
  assert.equal(response.status, 500);
  assert.equal(runs.length, 0);
  assert.match(reported.join('\n'), /the verify hook returned a caller with neither subject nor clientId/);
  assert.equal((await modern(handler, 'tools/call', { name: 'whoami', arguments: {} }, { token: 'ok' })).status, 200);
});

test('introspection of made-up opaque tokens is bounded: at most MAX_CONCURRENT_INTROSPECTIONS at once (503 past it), one per token under way', async () => {
  const auth = createResourceServer({
    issuer: provider.issuer,
    audience: AUDIENCE,
    introspection: { clientId: INTROSPECTOR.id, clientSecret: INTROSPECTOR.secret },
  });
  const ask = (token) => auth.authenticate(new Request(AUDIENCE, { headers: { authorization: `Bearer ${token}` } }));
  // Discovery first, so that the flood below measures introspection alone.
  assert.equal((await ask('warm-up')).error, 'invalid_token');
  const before = provider.requests.introspection;
  const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(`made-up-${i}`)));
  const asked = provider.requests.introspection - before;
  assert.ok(asked <= 32, `${asked} introspection requests for 100 made-up tokens`);
  assert.equal(verifier.MAX_CONCURRENT_INTROSPECTIONS, 32);
  assert.equal(outcomes.filter((o) => o.status === 401).length, asked);
  const refused = outcomes.filter((o) => o.status === 503);
  assert.equal(refused.length, 100 - asked);
  assert.match(refused[0].detail, /32 token introspections are under way already/);
  // The same token sent many times at once is introspected once.
  const again = provider.requests.introspection;
  const same = await Promise.all(Array.from({ length: 20 }, () => ask('one-made-up-token')));
  assert.equal(provider.requests.introspection - again, 1);
  assert.ok(same.every((o) => o.status === 401));
  // A real token still gets through once the flood is over.
  const real = await ask(await provider.token({ alg: 'opaque', scope: 'files:read' }));
  assert.equal(real.ok, true);
});

test('a token verified before is refused beside a token in the query string too (the cache does not skip the check)', async () => {
  const { handler } = withAuth();
  const token = await provider.sign();
  const call = (url) => modern(handler, 'tools/call', { name: 'whoami', arguments: {} }, { token, url });
  assert.equal((await call(AUDIENCE)).status, 200, 'verified, and now cached');
  const both = await call(`${AUDIENCE}?access_token=${token}`);
  assert.equal(both.status, 400);
  assert.equal(challengeOf(both).error, 'invalid_request');
});
