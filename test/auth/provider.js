// A real OpenID provider for the auth tests: oidc-provider on loopback (port 0), with signing keys
// for RS256, PS256, ES256 and EdDSA whose private halves the tests also hold (so a test can sign
// a token exactly as the issuer would, with claims the provider would never issue: expired, for
// another audience, ...). It issues client-credentials tokens, JWTs signed with the algorithm the
// client is registered for (mcp-client: RS256, mcp-client-es256: ES256, ...) or opaque ones
// (mcp-client-opaque), and introspects them.
//
// oidc-provider's relevant defaults, read before use (lib/helpers/defaults.js): clientCredentials
// and introspection are off (turned on here), resourceIndicators is on and needs
// getResourceServerInfo (given here: any resource under the test's audience, with the scopes the
// test names), tokens are opaque unless that function says `jwt`; its NOTICE/WARNING lines about
// development defaults (and about Node 20 not being an LTS it supports) are printed with
// console.info/warn and silenced here.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const SCOPES = ['files:read', 'files:write', 'admin', 'notes:read'];
export const CLIENT = { id: 'mcp-client', secret: 'mcp-client-secret-that-is-long-enough-0123456789' };
/** A client whose tokens are signed with `alg` (or are opaque, for `opaque`). */
export const clientFor = (alg) => (alg === 'RS256' ? CLIENT : { id: `mcp-client-${alg.toLowerCase()}`, secret: CLIENT.secret });
export const INTROSPECTOR = { id: 'mcp-server', secret: 'mcp-server-secret-that-is-long-enough-0123456789' };

const ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/** Generates one signing key per algorithm: { alg: { privateKey, jwk (private, with kid) } }. */
async function signingKeys() {
  const keys = {};
  for (const alg of ALGS) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, crv: alg === 'EdDSA' ? 'Ed25519' : undefined });
    const jwk = { ...(await exportJWK(privateKey)), kid: `test-${alg.toLowerCase()}`, alg, use: 'sig' };
    keys[alg] = { privateKey, jwk };
  }
  return keys;
}

/**
 * Starts the provider. `audience` is the resource the tokens are for (the MCP server's canonical
 * URI); it may be set later with `provider.setAudience()` when the MCP server's port is not yet
 * known. Resolves to { issuer, token(options), sign(claims, options), keys, jwksRequests, close }.
 */
export async function startProvider({ audience } = {}) {
  const keys = await signingKeys();
  let resource = audience;
  const requests = { jwks: 0, introspection: 0, metadata: 0 };
  const http = createServer();
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  const quiet = { info: console.info, warn: console.warn };
  console.info = () => {};
  console.warn = () => {};
  let provider;
  const client = (id) => ({ client_id: id, client_secret: CLIENT.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: SCOPES.join(' ') });
  try {
    const { default: Provider } = await import('oidc-provider');
    provider = new Provider(issuer, {
      jwks: { keys: ALGS.map((alg) => keys[alg].jwk) },
      clients: [
        ...[...ALGS, 'opaque'].map((alg) => client(clientFor(alg).id)),
        { client_id: INTROSPECTOR.id, client_secret: INTROSPECTOR.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      ],
      scopes: SCOPES,
      ttl: { ClientCredentials: 300 },
      features: {
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: async () => true },
        devInteractions: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator, client) => {
            const alg = client.clientId.replace(/^mcp-client-?/, '').toUpperCase() || 'RS256';
            return {
              scope: SCOPES.join(' '),
              audience: indicator,
              accessTokenTTL: 300,
              accessTokenFormat: alg === 'OPAQUE' ? 'opaque' : 'jwt',
              ...(alg === 'OPAQUE' ? {} : { jwt: { sign: { alg: alg === 'EDDSA' ? 'EdDSA' : alg } } }),
            };
          },
        },
      },
      enabledJWA: { idTokenSigningAlgValues: ALGS },
    });
  } finally {
    console.info = quiet.info;
    console.warn = quiet.warn;
  }
  const callback = provider.callback();
  http.on('request', (req, res) => {
    if (req.url.startsWith('/jwks')) requests.jwks++;
    if (req.url.startsWith('/token/introspection')) requests.introspection++;
    if (req.url.startsWith('/.well-known/')) requests.metadata++;
    callback(req, res);
  });
  return {
    issuer,
    keys,
    requests,
    setAudience(value) {
      resource = value;
    },
    /**
     * A client-credentials token from the provider's token endpoint.
     * @param {{ scope?: string, alg?: 'RS256'|'PS256'|'ES256'|'EdDSA'|'opaque', resource?: string, client?: {id, secret} }} options
     */
    async token({ scope = SCOPES.join(' '), alg = 'RS256', resource: forResource = resource, client = clientFor(alg) } = {}) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', scope, resource: forResource });
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      const json = await response.json();
      if (response.status !== 200) throw new Error(`token endpoint: ${response.status} ${JSON.stringify(json)}`);
      return json.access_token;
    },
    /** Signs `claims` with the issuer's own key for `alg` (defaults: this issuer, this audience, 5 minutes). */
    async sign(claims = {}, { alg = 'RS256', header = {} } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: issuer, aud: resource, sub: 'user-1', client_id: CLIENT.id, scope: 'files:read', iat: now, exp: now + 300, ...claims };
      for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
      return new SignJWT(payload).setProtectedHeader({ alg, kid: keys[alg].jwk.kid, typ: 'at+jwt', ...header }).sign(keys[alg].privateKey);
    },
    close() {
      return new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
