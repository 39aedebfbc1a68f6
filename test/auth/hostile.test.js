// The hostile-token table (issue 16): each row a token or a request an attacker could send, and
// the answer it must get, against the HTTP endpoint with authorization in front of a server whose
// tools record every run; the issuer is a real oidc-provider (its JWKS, its keys). After the
// table, no tool has run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { AUDIENCE, authHandler, challengeOf, modern, post } from './fixture.js';
import { startProvider } from './provider.js';

let provider;
let fixture;
before(async () => {
  provider = await startProvider({ audience: AUDIENCE });
  fixture = authHandler(provider.issuer);
});
after(async () => {
  await fixture.handler.close();
  await provider.close();
});

const now = () => Math.floor(Date.now() / 1000);
const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const call = (token, options = {}) => modern(fixture.handler, 'tools/call', { name: 'whoami', arguments: {} }, { token, ...options });

/** An attacker's own RSA key, with a kid of its choosing. */
async function attackerToken(kid, claims = {}) {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT({ iss: provider.issuer, aud: AUDIENCE, sub: 'mallory', exp: now() + 300, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid })
    .sign(privateKey);
}

const ROWS = [
  ['wrong aud', () => provider.sign({ aud: 'https://other.example/mcp' }), /not for this server/],
  ['aud a prefix of this server (no path match)', () => provider.sign({ aud: 'http://localhost' }), /not for this server/],
  ['no aud', () => provider.sign({ aud: undefined }), /not for this server/],
  ['wrong iss', () => provider.sign({ iss: 'https://evil.example' }), /another issuer/],
  ['iss differing only by a trailing slash', () => provider.sign({ iss: `${provider.issuer}/` }), /another issuer/],
  ['expired', () => provider.sign({ iat: now() - 7200, exp: now() - 3600 }), /expired/],
  ['no exp', () => provider.sign({ exp: undefined }), /no exp/],
  ['nbf in the future', () => provider.sign({ nbf: now() + 3600 }), /not valid yet/],
  ['alg: none', () => new UnsecuredJWT({ iss: provider.issuer, aud: AUDIENCE, sub: 'mallory', exp: now() + 300 }).encode(), /signature is missing/],
  ['alg: none with a signature segment', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: provider.issuer, aud: AUDIENCE, exp: now() + 300 })}.AAAA`, /"none" is not accepted/],
  [
    'HS256 signed with the RSA public key (PEM)',
    async () => {
      const pem = createPublicKey({ key: provider.keys.RS256.jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
      return new SignJWT({ iss: provider.issuer, aud: AUDIENCE, sub: 'mallory', exp: now() + 300 })
        .setProtectedHeader({ alg: 'HS256', kid: provider.keys.RS256.jwk.kid })
        .sign(new TextEncoder().encode(pem));
    },
    /"HS256" is not accepted/,
  ],
  [
    'tampered payload (scope raised, signature kept)',
    async () => {
      const [header, , signature] = (await provider.sign()).split('.');
      const payload = { iss: provider.issuer, aud: AUDIENCE, sub: 'user-1', scope: 'admin files:write', exp: now() + 300 };
      return `${header}.${b64(payload)}.${signature}`;
    },
    /signature does not verify/,
  ],
  ['truncated: signature segment dropped', async () => (await provider.sign()).split('.').slice(0, 2).join('.'), /not a JWT/],
  ['truncated: empty signature', async () => (await provider.sign()).split('.').slice(0, 2).join('.') + '.', /signature is missing/],
  ['truncated: signature cut short', async () => (await provider.sign()).slice(0, -10), /signature does not verify/],
  ['unknown kid', () => attackerToken('no-such-kid'), /no key with kid "no-such-kid"/],
  ["the issuer's kid, signed by another key", () => attackerToken(provider.keys.RS256.jwk.kid), /signature does not verify/],
  [
    'embedded jwk header (the attacker key inside the token)',
    async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      return new SignJWT({ iss: provider.issuer, aud: AUDIENCE, sub: 'mallory', exp: now() + 300 })
        .setProtectedHeader({ alg: 'ES256', jwk: await exportJWK(publicKey) })
        .sign(privateKey);
    },
    /no single key for ES256|signature does not verify/,
  ],
  [
    'jku header pointing at an attacker JWKS',
    async () => {
      const { privateKey } = await generateKeyPair('ES256');
      return new SignJWT({ iss: provider.issuer, aud: AUDIENCE, sub: 'mallory', exp: now() + 300 })
        .setProtectedHeader({ alg: 'ES256', kid: provider.keys.ES256.jwk.kid, jku: 'https://evil.example/jwks' })
        .sign(privateKey);
    },
    /signature does not verify/,
  ],
  ['a critical extension (crit: b64)', () => provider.sign({}, { header: { crit: ['b64'], b64: true } }), /critical extensions/],
  ['an ID token type (typ: id+jwt)', () => provider.sign({}, { header: { typ: 'id+jwt' } }), /not an access token/],
  ['ES256 token presented with the RSA key kid (key confusion)', () => provider.sign({}, { alg: 'ES256', header: { kid: provider.keys.RS256.jwk.kid } }), /does not fit ES256|cannot verify ES256/],
  ['garbage', async () => 'not-a-token', /not a JWT/],
  ['a JSON array payload', async () => `${b64({ alg: 'RS256' })}.${b64([1, 2])}.AAAA`, /not a JSON object/],
];

for (const [name, make, description] of ROWS) {
  test(`hostile token: ${name} → 401 invalid_token, nothing runs`, async () => {
    const before = fixture.runs.length;
    const response = await call(await make());
    assert.equal(response.status, 401);
    const challenge = challengeOf(response);
    assert.equal(challenge.error, 'invalid_token');
    assert.match(challenge.error_description, description);
    assert.equal(challenge.resource_metadata, 'http://localhost/.well-known/oauth-protected-resource/mcp');
    const body = await response.json();
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /^Unauthorized: invalid token: /);
    assert.equal(fixture.runs.length, before);
  });
}

test('hostile: an unknown-kid storm → every one 401 invalid_token, the JWKS fetched a bounded number of times', async () => {
  const fresh = authHandler(provider.issuer);
  const good = await provider.sign();
  assert.equal((await modern(fresh.handler, 'tools/call', { name: 'whoami', arguments: {} }, { token: good })).status, 200);
  const fetchesBefore = fresh.auth.jwksFetches;
  assert.equal(fetchesBefore, 1);
  const tokens = await Promise.all(Array.from({ length: 60 }, (_, i) => attackerToken(`storm-${i}-${Math.random()}`)));
  // Half at once (they could share one fetch anyway), half one after the other: each of those
  // would be a fetch of its own without the minimum interval between refetches.
  const send = (token) => modern(fresh.handler, 'tools/call', { name: 'whoami', arguments: {} }, { token });
  const responses = await Promise.all(tokens.slice(0, 30).map(send));
  for (const token of tokens.slice(30)) responses.push(await send(token));
  for (const response of responses) {
    assert.equal(response.status, 401);
    assert.equal(challengeOf(response).error, 'invalid_token');
  }
  // One refetch for the first unknown kid; the rest wait out jwksMinRefreshMs (30 s).
  assert.ok(fresh.auth.jwksFetches - fetchesBefore <= 1, `JWKS fetched ${fresh.auth.jwksFetches - fetchesBefore} more times`);
  assert.equal(fresh.runs.length, 1);
  await fresh.handler.close();
});

test('hostile: two Authorization headers → 400 invalid_request', async () => {
  const token = await provider.sign();
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  headers.append('authorization', `Bearer ${token}`);
  headers.append('authorization', `Bearer ${token}`);
  const before = fixture.runs.length;
  const response = await fixture.handler(new Request(AUDIENCE, { method: 'POST', headers, body: '{}' }));
  assert.equal(response.status, 400);
  const challenge = challengeOf(response);
  assert.equal(challenge.error, 'invalid_request');
  assert.match(challenge.error_description, /exactly one Authorization header/);
  assert.equal(fixture.runs.length, before);
});

test('hostile: a token only in the query string is ignored → 401 without an error code', async () => {
  const token = await provider.sign();
  const response = await call(undefined, { url: `${AUDIENCE}?access_token=${token}` });
  assert.equal(response.status, 401);
  const challenge = challengeOf(response);
  assert.equal(challenge.error, undefined);
  assert.equal(challenge.resource_metadata, 'http://localhost/.well-known/oauth-protected-resource/mcp');
});

test('hostile: a token in the query string beside the header → 400 invalid_request (one method only)', async () => {
  const token = await provider.sign();
  const response = await call(token, { url: `${AUDIENCE}?access_token=${token}` });
  assert.equal(response.status, 400);
  assert.equal(challengeOf(response).error, 'invalid_request');
});

test('hostile: malformed Bearer credentials → 400 invalid_request', async () => {
  for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer ab"c', `Bearer ${'a'.repeat(9000)}`, 'Bearer\tabc']) {
    const response = await post(fixture.handler, '{}', { headers: { authorization } });
    assert.equal(response.status, 400, authorization.slice(0, 20));
    assert.equal(challengeOf(response).error, 'invalid_request');
  }
});

test('hostile: another scheme (Basic) is no bearer token → 401 without an error code', async () => {
  const response = await post(fixture.handler, '{}', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
  assert.equal(response.status, 401);
  assert.equal(challengeOf(response).error, undefined);
});

test('a valid token with a lower-case "bearer" scheme is accepted (the scheme is case-insensitive)', async () => {
  const token = await provider.token({ scope: 'files:read' });
  const before = fixture.runs.length;
  const response = await call(undefined, { headers: { authorization: `bearer ${token}` } });
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.result.isError, undefined);
  assert.equal(JSON.parse(body.result.content[0].text).subject, 'mcp-client');
  assert.equal(fixture.runs.length, before + 1);
});
