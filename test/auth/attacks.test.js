// Attacks on authorization found by the security review, each a test that failed before its fix:
// a scoped prompt's completer reached through completion/complete. The issuer is a real
// oidc-provider, as in the other auth tests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AUDIENCE, authHandler, challengeOf, legacy, modern, openSession } from './fixture.js';
import { startProvider } from './provider.js';

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
