// The resource server alone: its options (every mistake a clear TypeError), each algorithm of the
// closed set against tokens from a real oidc-provider, HS256 with an explicit secret, clock skew,
// the verified-token cache, RFC 7662 introspection against the provider, the custom verify hook,
// and the documents it fetches (discovery, JWKS, their failures) from a small loopback server
// that serves exactly what each case needs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { AuthUnavailableError, createResourceServer, InvalidTokenError, JWS_ALGORITHMS } from '../../dist/auth/index.js';
import { bearerChallenge, quoted, readBearer } from '../../dist/auth/bearer.js';
import { cacheLifetime, isLoopbackHost } from '../../dist/auth/fetch-json.js';
import { metadataUrls } from '../../dist/auth/discovery.js';
import { canonicalResource, metadataUrlOf, sameResource } from '../../dist/auth/resource.js';
import { TokenCache } from '../../dist/auth/token-cache.js';
import { Refresher } from '../../dist/auth/refresher.js';
import { AUDIENCE } from './fixture.js';
import { INTROSPECTOR, startProvider } from './provider.js';

let provider;
before(async () => {
  provider = await startProvider({ audience: AUDIENCE });
});
after(() => provider.close());

const now = () => Math.floor(Date.now() / 1000);
const requestWith = (token, url = AUDIENCE) => new Request(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
const make = (options = {}) => createResourceServer({ issuer: provider.issuer, audience: AUDIENCE, ...options });
const SECRET = 'a shared secret of at least 32 bytes, for HS256';

async function outcome(auth, token) {
  return auth.authenticate(requestWith(token));
}

test('options: an unknown algorithm (none included) is an error listing the known ones', () => {
  assert.deepEqual(JWS_ALGORITHMS, ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519', 'HS256']);
  for (const alg of ['none', 'RS512', 'rs256', 42]) {
    assert.throws(() => make({ algorithms: [alg] }), {
      name: 'TypeError',
      message: `createResourceServer: unknown JWS algorithm ${JSON.stringify(alg)}; the known algorithms are RS256, PS256, ES256, EdDSA, Ed25519, HS256`,
    });
  }
  assert.throws(() => make({ algorithms: [] }), /algorithms must be a non-empty array of RS256, PS256, ES256, EdDSA, Ed25519, HS256/);
});

test('options: every other mistake is a TypeError that names the option and the fix', () => {
  const cases = [
    [{ issuer: undefined }, /issuer is required/],
    [{ issuer: 'not a url' }, /issuer "not a url" is not an absolute URL/],
    [{ issuer: 'http://auth.example.com' }, /issuer: http:\/\/auth\.example\.com\/ is not https \(http is allowed only for loopback hosts\)/],
    [{ issuer: 'https://auth.example.com/?tenant=1' }, /must not have a query or fragment/],
    [{ audience: undefined }, /audience is required \(this server's canonical URI/],
    [{ audience: 'mcp.example.com' }, /audience: "mcp\.example\.com" is not an absolute URI/],
    [{ audience: 'https://mcp.example.com/mcp#frag' }, /must not have a fragment \(RFC 8707 §2\)/],
    [{ audience: 'ftp://mcp.example.com' }, /must be an https URI/],
    [{ audience: 'https://user:pw@mcp.example.com' }, /must not carry credentials/],
    [{ audiance: 'typo' }, /unknown option "audiance" \(known: issuer, audience,/],
    [{ algorithms: ['HS256'] }, /HS256 needs a secret/],
    [{ secret: 'short' }, /at least 32 bytes for HS256/],
    [{ secret: 42 }, /secret must be a string or a Uint8Array/],
    [{ secret: SECRET, algorithms: ['RS256'] }, /a secret is given but HS256 is not among the algorithms/],
    [{ introspection: { clientId: 'x' } }, /introspection needs clientId and clientSecret/],
    [{ introspection: { clientId: 'x', clientSecret: 'y', endpoint: 'http://auth.example.com/i' } }, /introspection\.endpoint: .* is not https/],
    [{ jwksUri: 'http://keys.example.com/jwks' }, /jwksUri: .* is not https/],
    [{ listing: 'some' }, /listing must be 'permitted' or 'all'/],
    [{ verify: 'yes' }, /verify must be a function/],
    [{ scopes: ['a b'] }, /scopes must be an array of scope names/],
    [{ impliedScopes: { 'a b': ['c'] } }, /impliedScopes: "a b" is not a scope name/],
    [{ impliedScopes: { a: 'c' } }, /impliedScopes\["a"\] must be an array of scope names/],
    [{ clockSkewSec: -1 }, /clockSkewSec must be a number >= 0/],
    [{ authorizationServers: ['http://as.example.com'] }, /authorizationServers\[0\]: .* is not https/],
    [{ fetch: null }, /no fetch available/],
  ];
  for (const [options, message] of cases) assert.throws(() => make(options), { name: 'TypeError', message }, JSON.stringify(options));
  assert.throws(() => createResourceServer(null), /options must be an object/);
});

for (const alg of ['RS256', 'PS256', 'ES256', 'EdDSA']) {
  test(`${alg}: a token from the provider verifies (kid looked up in the discovered JWKS)`, async () => {
    const auth = make();
    const token = await provider.token({ alg, scope: 'files:read' });
    const result = await outcome(auth, token);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(result.principal.scopes, ['files:read']);
    assert.equal(auth.jwksFetches, 1);
  });
}

test('the allow-list: a token whose algorithm is not configured is refused', async () => {
  const auth = make({ algorithms: ['ES256'] });
  const result = await outcome(auth, await provider.token({ alg: 'RS256' }));
  assert.deepEqual(result, { ok: false, status: 401, error: 'invalid_token', description: 'the token\'s algorithm "RS256" is not accepted (accepted: ES256)' });
  assert.equal((await outcome(auth, await provider.token({ alg: 'ES256' }))).ok, true);
});

test('Ed25519 (RFC 9864) verifies with an OKP key like EdDSA', async () => {
  const token = await provider.sign({}, { alg: 'EdDSA' });
  const [, payload, signature] = token.split('.');
  const header = Buffer.from(JSON.stringify({ alg: 'Ed25519', kid: provider.keys.EdDSA.jwk.kid })).toString('base64url');
  const relabelled = `${header}.${payload}.${signature}`;
  // Same key, same signature scheme; the signature covers the header, so it must be re-signed.
  const { privateKey } = provider.keys.EdDSA;
  const data = new TextEncoder().encode(`${header}.${payload}`);
  const resigned = `${header}.${payload}.${Buffer.from(await crypto.subtle.sign('Ed25519', privateKey, data)).toString('base64url')}`;
  assert.equal((await outcome(make(), relabelled)).description, 'the token signature does not verify');
  assert.equal((await outcome(make(), resigned)).ok, true);
});

test('HS256 with an explicit secret: its tokens verify; one signed with the RSA public key does not', async () => {
  const auth = make({ secret: SECRET });
  const claims = { iss: provider.issuer, aud: AUDIENCE, sub: 'svc', scope: 'files:read', exp: now() + 60 };
  const good = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
  const result = await outcome(auth, good);
  assert.equal(result.ok, true);
  assert.equal(result.principal.subject, 'svc');
  const pem = createPublicKey({ key: provider.keys.RS256.jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
  const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: provider.keys.RS256.jwk.kid }).sign(new TextEncoder().encode(pem));
  assert.equal((await outcome(auth, confused)).description, 'the token signature does not verify');
  // The asymmetric algorithms stay available beside HS256.
  assert.equal((await outcome(auth, await provider.token())).ok, true);
});

test('exp and nbf are honoured within the clock skew (default 60 s; configurable)', async () => {
  const lately = await provider.sign({ exp: now() - 30 });
  const soon = await provider.sign({ nbf: now() + 30 });
  assert.equal((await outcome(make(), lately)).ok, true);
  assert.equal((await outcome(make(), soon)).ok, true);
  assert.equal((await outcome(make({ clockSkewSec: 0 }), lately)).description, 'the token expired');
  assert.equal((await outcome(make({ clockSkewSec: 0 }), soon)).description, 'the token is not valid yet (nbf)');
  assert.equal((await outcome(make(), await provider.sign({ exp: 'tomorrow' }))).description, "the token's exp is not a number");
  assert.equal((await outcome(make(), await provider.sign({ iat: 'x' }))).description, "the token's iat is not a number");
});

test('aud: a list containing this server, and the canonical forms of its URI, are accepted', async () => {
  const auth = make();
  assert.equal((await outcome(auth, await provider.sign({ aud: ['https://other.example', AUDIENCE] }))).ok, true);
  assert.equal((await outcome(auth, await provider.sign({ aud: 'HTTP://LOCALHOST:80/mcp' }))).ok, true);
  assert.equal((await outcome(auth, await provider.sign({ aud: 'http://localhost/mcp/' }))).ok, false);
  assert.equal((await outcome(auth, await provider.sign({ aud: [42] }))).ok, false);
});

test('scopes from scp (a list) and scope hierarchies; a repeat of a token is answered from memory', async () => {
  const auth = make({ impliedScopes: { admin: ['files:write'], 'files:write': ['files:read'] } });
  const token = await provider.sign({ scope: undefined, scp: ['admin', 7] });
  const first = await outcome(auth, token);
  assert.deepEqual(first.principal.scopes, ['admin', 'files:write', 'files:read']);
  assert.ok(Object.isFrozen(first.principal));
  const second = await outcome(auth, token);
  assert.equal(second.principal, first.principal, 'the same principal object: no second verification');
});

test('the token cache is bounded and keeps nothing past its expiry', () => {
  let clock = 1000;
  const cache = new TokenCache(2, () => clock);
  cache.set('a', 1, 2000);
  cache.set('b', 2, 2000);
  cache.set('c', 3, 2000);
  assert.equal(cache.size, 2);
  assert.equal(cache.get('a'), undefined, 'the oldest is dropped');
  assert.equal(cache.get('c'), 3);
  cache.set('old', 4, 500);
  assert.equal(cache.get('old'), undefined, 'an expired entry is never stored');
  clock = 2000;
  assert.equal(cache.get('c'), undefined);
  assert.equal(cache.size, 1);
  const off = new TokenCache(0);
  off.set('a', 1, Date.now() + 1000);
  assert.equal(off.get('a'), undefined);
});

test('introspection (RFC 7662) of opaque tokens, against the provider: scopes, audience, cache', async () => {
  const auth = make({ introspection: { clientId: INTROSPECTOR.id, clientSecret: INTROSPECTOR.secret } });
  const token = await provider.token({ alg: 'opaque', scope: 'files:read notes:read' });
  assert.equal(token.split('.').length, 1);
  const before = provider.requests.introspection;
  const result = await outcome(auth, token);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(result.principal.scopes, ['files:read', 'notes:read']);
  assert.equal(result.principal.clientId, 'mcp-client-opaque');
  assert.equal(result.principal.issuer, provider.issuer);
  await outcome(auth, token);
  assert.equal(provider.requests.introspection - before, 1, 'the answer is cached');
  // A token for another resource is refused: the audience check holds for introspection too.
  const elsewhere = await provider.token({ alg: 'opaque', resource: 'https://other.example/mcp' });
  assert.match((await outcome(auth, elsewhere)).description, /not for this server/);
  // Unknown to the provider: not active.
  assert.equal((await outcome(auth, 'made-up-token')).description, 'the token is not active (introspection)');
  // Without introspection an opaque token is refused outright.
  assert.equal((await outcome(make(), token)).description, 'the token is not a JWT, and this server does not introspect tokens');
});

test('introspection with the wrong client secret: 503, the operator is told why', async () => {
  const auth = make({ introspection: { clientId: INTROSPECTOR.id, clientSecret: 'wrong', endpoint: `${provider.issuer}/token/introspection` } });
  const result = await outcome(auth, await provider.token({ alg: 'opaque' }));
  assert.equal(result.status, 503);
  assert.match(result.detail, /token\/introspection answered HTTP 401/);
});

test('a custom verify hook replaces the built-in checks', async () => {
  const seen = [];
  const auth = make({
    verify: (token, request) => {
      seen.push(request.url);
      if (token === 'good') return { subject: 'alice', scopes: ['files:read'], claims: {} };
      if (token === 'sloppy') return { subject: 'bob', scopes: 'files:read' };
      if (token === 'bad') throw new InvalidTokenError('revoked by policy');
      if (token === 'down') throw new AuthUnavailableError('policy store down');
      if (token === 'bug') throw new Error('boom');
      return null;
    },
  });
  assert.equal((await outcome(auth, 'good')).principal.subject, 'alice');
  assert.deepEqual(seen, [AUDIENCE]);
  const sloppy = (await outcome(auth, 'sloppy')).principal;
  assert.deepEqual([sloppy.scopes, sloppy.claims, Object.isFrozen(sloppy)], [[], {}, true]);
  assert.deepEqual(await outcome(auth, 'nope'), { ok: false, status: 401, error: 'invalid_token', description: 'the token was refused' });
  assert.deepEqual(await outcome(auth, 'bad'), { ok: false, status: 401, error: 'invalid_token', description: 'revoked by policy' });
  assert.equal((await outcome(auth, 'down')).status, 503);
  const bug = await outcome(auth, 'bug');
  assert.equal(bug.status, 500);
  assert.match(bug.detail, /^token verification failed: Error: boom/);
});

test('a request read without a web Request (AuthenticatedRequest) makes its Request only when a token is verified afresh', async () => {
  let made = 0;
  const lean = (token) => ({
    headers: new Headers({ authorization: `Bearer ${token}` }),
    url: AUDIENCE,
    toRequest: () => (made++, new Request(AUDIENCE, { headers: { authorization: `Bearer ${token}`, 'x-caller': 'node' } })),
  });
  const seen = [];
  const hooked = make({ verify: (token, request) => (seen.push(request.headers.get('x-caller')), { subject: token, scopes: [], claims: {} }) });
  assert.equal((await hooked.authenticate(lean('carol'))).principal.subject, 'carol');
  assert.deepEqual([made, seen], [1, ['node']]);
  // A JWT verified before and not expired is known from the headers alone.
  const auth = make({ secret: SECRET });
  const claims = { iss: provider.issuer, aud: AUDIENCE, sub: 'svc', exp: now() + 60 };
  const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
  made = 0;
  assert.equal((await auth.authenticate(lean(token))).principal.subject, 'svc');
  assert.equal((await auth.authenticate(lean(token))).principal.subject, 'svc');
  assert.equal(made, 1);
  assert.deepEqual(await auth.authenticate({ headers: new Headers(), url: AUDIENCE, toRequest: () => assert.fail('no token, no Request') }), { ok: false, status: 401 });
});

test('Bearer parsing and challenges: case-insensitive scheme, quoted-string escaping', () => {
  const url = AUDIENCE;
  assert.deepEqual(readBearer('Bearer abc', 'http://[bad?access_token=x'), { kind: 'token', token: 'abc' });
  assert.deepEqual(readBearer('BEARER abc.def-_~+/=', url), { kind: 'token', token: 'abc.def-_~+/=' });
  assert.deepEqual(readBearer(null, url), { kind: 'none' });
  assert.deepEqual(readBearer('Digest x', url), { kind: 'none' });
  assert.equal(readBearer('"quoted"', url).kind, 'malformed');
  assert.equal(quoted('a "b" \\ c é\r\n'), '"a \\"b\\" \\\\ c "');
  assert.equal(
    bearerChallenge({ error: 'insufficient_scope', description: 'needs "x"', scope: 'a b', resourceMetadata: 'https://m/.well-known/oauth-protected-resource' }),
    'Bearer error="insufficient_scope", error_description="needs \\"x\\"", scope="a b", resource_metadata="https://m/.well-known/oauth-protected-resource"',
  );
});

test('canonical resource URIs and the well-known metadata URL (RFC 9728 §3.1)', () => {
  assert.equal(canonicalResource('HTTPS://MCP.Example.com:443/', 'x'), 'https://mcp.example.com');
  assert.equal(canonicalResource('https://mcp.example.com/mcp', 'x'), 'https://mcp.example.com/mcp');
  assert.equal(metadataUrlOf('https://mcp.example.com'), 'https://mcp.example.com/.well-known/oauth-protected-resource');
  assert.equal(metadataUrlOf('https://mcp.example.com/a/mcp'), 'https://mcp.example.com/.well-known/oauth-protected-resource/a/mcp');
  assert.equal(sameResource('https://mcp.example.com/', 'https://mcp.example.com'), true);
  assert.equal(sameResource('https://mcp.example.com#x', 'https://mcp.example.com'), false);
  assert.equal(sameResource('not a uri', 'https://mcp.example.com'), false);
  assert.deepEqual(metadataUrls('https://auth.example.com/tenant1'), [
    'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
    'https://auth.example.com/.well-known/openid-configuration/tenant1',
    'https://auth.example.com/tenant1/.well-known/openid-configuration',
  ]);
  assert.equal(isLoopbackHost('127.0.0.5'), true);
  assert.equal(isLoopbackHost('127.0.0.1.example.com'), false);
  assert.equal(cacheLifetime('public, max-age=600'), 600_000);
  assert.equal(cacheLifetime('no-store'), 0);
  assert.equal(cacheLifetime('max-age=abc'), undefined);
  assert.equal(cacheLifetime(null), undefined);
});

test('a refresher shares one fetch, keeps a stale value when a refresh fails, and waits before retrying', async () => {
  let clock = 0;
  let calls = 0;
  let fail = false;
  const refresher = new Refresher(async () => {
    calls++;
    if (fail) throw new Error('down');
    return { value: calls, maxAgeMs: 100 };
  }, { minTtlMs: 50, maxTtlMs: 1000, retryMs: 30 }, () => clock);
  assert.deepEqual(await Promise.all([refresher.get(), refresher.get()]), [1, 1]);
  clock = 150;
  fail = true;
  assert.equal(await refresher.get(), 1, 'stale value on failure');
  assert.equal(await refresher.get(), 1);
  assert.equal(calls, 2, 'no retry within retryMs');
  clock = 200;
  fail = false;
  assert.equal(await refresher.get(), 3);
  const empty = new Refresher(async () => {
    throw new Error('never');
  }, { minTtlMs: 0, maxTtlMs: 0, retryMs: 1000 });
  await assert.rejects(empty.get(), /never/);
  await assert.rejects(empty.get(), /never/);
});

// A loopback server that serves exactly the documents a case needs.
async function documents(routes) {
  const hits = {};
  const http = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const route = routes[path];
    if (route === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const { status = 200, headers = { 'content-type': 'application/json' }, body } = typeof route === 'function' ? route() : route;
    res.writeHead(status, headers);
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${http.address().port}`;
  return { origin, hits, close: () => new Promise((resolve) => { http.close(resolve); http.closeAllConnections(); }) };
}

async function keyPair(alg, options) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...options });
  return { privateKey, jwk: await exportJWK(publicKey) };
}

test('discovery: RFC 8414 path insertion first; a document naming another issuer is not used', async () => {
  const rs = await keyPair('RS256');
  let origin;
  const docs = await documents({
    '/.well-known/oauth-authorization-server/tenant': () => ({ body: { issuer: 'https://honest.example/tenant', jwks_uri: 'https://evil.example/jwks' } }),
    '/.well-known/openid-configuration/tenant': () => ({ body: { issuer: `${origin}/tenant`, jwks_uri: `${origin}/jwks` } }),
    '/jwks': () => ({ body: { keys: [{ ...rs.jwk, kid: 'k1' }] }, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=300' } }),
  });
  origin = docs.origin;
  try {
    const issuer = `${origin}/tenant`;
    const auth = createResourceServer({ issuer, audience: AUDIENCE });
    const token = await new SignJWT({ iss: issuer, aud: AUDIENCE, sub: 's', exp: now() + 60 }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(rs.privateKey);
    assert.equal((await outcome(auth, token)).ok, true);
    assert.equal(docs.hits['/.well-known/oauth-authorization-server/tenant'], 1);
    assert.equal(docs.hits['/jwks'], 1);
  } finally {
    await docs.close();
  }
});

test('JWKS rules: a single key serves a token without kid; unfit keys are refused with the reason', async () => {
  const rs = await keyPair('RS256');
  const es = await keyPair('ES256');
  const small = { jwk: generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }) };
  const docs = await documents({
    '/jwks': {
      body: {
        keys: [
          { ...rs.jwk, kid: 'rsa' },
          { ...es.jwk, kid: 'enc', use: 'enc' },
          { ...small.jwk, kid: 'small' },
          { ...rs.jwk, kid: 'ops', key_ops: ['encrypt'] },
          { ...rs.jwk, kid: 'ps-only', alg: 'PS256' },
          { kty: 'oct', k: 'c2VjcmV0', kid: 'oct' },
          'not a key',
        ],
      },
    },
  });
  try {
    const auth = createResourceServer({ issuer: docs.origin, audience: AUDIENCE, jwksUri: `${docs.origin}/jwks` });
    const sign = (key, alg, kid) => {
      const header = kid === undefined ? { alg } : { alg, kid };
      return new SignJWT({ iss: docs.origin, aud: AUDIENCE, sub: 's', exp: now() + 60 }).setProtectedHeader(header).sign(key);
    };
    assert.equal((await outcome(auth, await sign(rs.privateKey, 'RS256', 'rsa'))).ok, true);
    assert.equal((await outcome(auth, await sign(es.privateKey, 'ES256', undefined))).description, "the token has no kid and the issuer's JWKS has no single key for ES256");
    assert.equal((await outcome(auth, await sign(es.privateKey, 'ES256', 'enc'))).description, 'the key "enc" cannot verify ES256: the key is not a signing key (use)');
    assert.equal((await outcome(auth, await sign(rs.privateKey, 'RS256', 'small'))).description, 'the key "small" cannot verify RS256: the RSA key is shorter than 2048 bits');
    assert.equal((await outcome(auth, await sign(rs.privateKey, 'RS256', 'ops'))).description, 'the key "ops" cannot verify RS256: the key may not verify (key_ops)');
    assert.equal((await outcome(auth, await sign(rs.privateKey, 'RS256', 'ps-only'))).description, 'the key "ps-only" cannot verify RS256: the key is for PS256, not RS256');
    const hs = await new SignJWT({ iss: docs.origin, aud: AUDIENCE, exp: now() + 60 }).setProtectedHeader({ alg: 'HS256', kid: 'oct' }).sign(new TextEncoder().encode('secret'));
    assert.match((await outcome(auth, hs)).description, /"HS256" is not accepted/);
    assert.equal(docs.hits['/.well-known/oauth-authorization-server'], undefined, 'a configured jwksUri needs no discovery');
  } finally {
    await docs.close();
  }
});

test('fetched documents must be JSON objects from 200 responses, not redirects, not too large', async () => {
  const docs = await documents({
    '/.well-known/oauth-authorization-server/redirect': { status: 302, headers: { location: 'https://evil.example/' }, body: '' },
    '/.well-known/oauth-authorization-server/text': { body: 'hello' },
    '/.well-known/oauth-authorization-server/array': { body: [1] },
    '/.well-known/oauth-authorization-server/big': { body: 'x'.repeat(2 * 1024 * 1024) },
    '/.well-known/oauth-authorization-server/nokeys': () => ({ body: { issuer: `${docs.origin}/nokeys` } }),
    '/.well-known/oauth-authorization-server/badjwks': () => ({ body: { issuer: `${docs.origin}/badjwks`, jwks_uri: 'http://keys.example.com/jwks' } }),
  });
  try {
    const token = await provider.sign();
    const cases = [
      ['redirect', /answered HTTP 302 \(redirects are not followed\)/],
      ['text', /did not answer a JSON object/],
      ['array', /did not answer a JSON object/],
      ['big', /exceeds 1048576 bytes/],
      ['nokeys', /has no jwks_uri/],
      ['badjwks', /http:\/\/keys\.example\.com\/jwks is not https/],
    ];
    for (const [path, detail] of cases) {
      const auth = createResourceServer({ issuer: `${docs.origin}/${path}`, audience: AUDIENCE });
      const result = await outcome(auth, token);
      assert.equal(result.status, 503, path);
      assert.match(result.detail, detail, path);
    }
  } finally {
    await docs.close();
  }
});

test('the metadata document and isMetadataPath', () => {
  const auth = createResourceServer({ issuer: provider.issuer, audience: 'https://mcp.example.com/mcp', authorizationServers: [provider.issuer, 'https://backup.example.com'] });
  assert.equal(auth.metadataUrl, 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
  assert.deepEqual(auth.metadata([]), { resource: 'https://mcp.example.com/mcp', authorization_servers: [provider.issuer, 'https://backup.example.com'], bearer_methods_supported: ['header'] });
  assert.equal(auth.isMetadataPath('/.well-known/oauth-protected-resource/mcp'), true);
  assert.equal(auth.isMetadataPath('/.well-known/oauth-protected-resource/'), true);
  assert.equal(auth.isMetadataPath('/.well-known/oauth-protected-resource/x', '/x'), true);
  assert.equal(auth.isMetadataPath('/.well-known/oauth-protected-resource/x'), false);
  assert.equal(auth.isMetadataPath('/mcp'), false);
});
