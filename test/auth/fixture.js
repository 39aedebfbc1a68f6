// Shared parts of the auth tests: an MCP server whose tools need scopes and record every run, the
// fetch handler with authorization in front of it (issuer: a real oidc-provider), and request
// helpers for both eras that carry a bearer token.
import assert from 'node:assert/strict';
import { createResourceServer } from '../../dist/auth/index.js';
import { createServer } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/fetch-handler.js';

export const AUDIENCE = 'http://localhost/mcp';
export const MODERN = '2026-07-28';
export const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

/** A server with scoped tools and a prompt; `runs` lists the tools that ran, with their caller. */
export function scopedServer(options = {}) {
  const runs = [];
  const tool = (name, scopes, run = () => name) => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object' },
    ...(scopes === undefined ? {} : { scopes }),
    run: (args, ctx) => {
      runs.push({ name, principal: ctx.principal });
      return run(args, ctx);
    },
  });
  const server = createServer({
    info: { name: 'auth-test', version: '1.0.0' },
    tools: [
      tool('whoami', undefined, (_args, ctx) => JSON.stringify(ctx.principal ?? null)),
      tool('read_file', ['files:read']),
      tool('write_file', ['files:write']),
      tool('admin_reset', ['admin', 'files:write']),
      tool('ask', undefined, async (_args, ctx) => {
        const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
        return `Hello, ${answer.content?.name}!`;
      }),
    ],
    prompts: [
      { name: 'notes', description: 'Notes.', scopes: ['notes:read'], get: () => 'the notes' },
      { name: 'open', description: 'Open to all.', get: () => 'open' },
    ],
    report: () => {},
    ...options,
  });
  return { server, runs };
}

/** The fetch handler of a scoped server behind a resource server for `issuer`. */
export function authHandler(issuer, { auth = {}, handler = {}, server: serverOptions = {} } = {}) {
  const { server, runs } = scopedServer(serverOptions);
  const resourceServer = createResourceServer({ issuer, audience: AUDIENCE, ...auth });
  const fetchHandler = createFetchHandler(server, { path: '/mcp', keepAliveMs: 0, auth: resourceServer, ...handler });
  return { server, runs, auth: resourceServer, handler: fetchHandler };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A POST of `body` with `token` (unless null) and extra headers. */
export function post(handler, body, { token, headers = {}, url = AUDIENCE } = {}) {
  const all = { ...JSON_HEADERS, ...headers };
  if (token !== undefined && token !== null) all.authorization = `Bearer ${token}`;
  return handler(new Request(url, { method: 'POST', headers: all, body: typeof body === 'string' ? body : JSON.stringify(body) }));
}

/** A 2026-07-28 request with conformant headers. */
export function modern(handler, method, params = {}, options = {}) {
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...options.headers };
  if (method === 'tools/call' || method === 'prompts/get') headers['mcp-name'] = params.name;
  const body = { jsonrpc: '2.0', id: options.id ?? 7, method, params: { ...params, _meta: { ...META, ...params._meta } } };
  return post(handler, body, { ...options, headers });
}

/** Opens a legacy session with `token`; resolves to its id. */
export async function openSession(handler, token) {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
  const response = await post(handler, init, { token });
  assert.equal(response.status, 200, await response.clone().text());
  const id = response.headers.get('mcp-session-id');
  await response.json();
  const done = await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, { token, headers: { 'mcp-session-id': id } });
  assert.equal(done.status, 202);
  return id;
}

/** A legacy request on session `session`. */
export function legacy(handler, session, method, params, { token, id = 2 } = {}) {
  return post(handler, { jsonrpc: '2.0', id, method, params }, { token, headers: { 'mcp-session-id': session } });
}

/** The parameters of a `WWW-Authenticate: Bearer k="v", ...` value (as a client parses it). */
export function challengeOf(response) {
  const value = response.headers.get('www-authenticate');
  if (value === null) return null;
  assert.match(value, /^Bearer /);
  const params = {};
  for (const m of value.slice(7).matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) params[m[1]] = m[2].replace(/\\(.)/g, '$1');
  return params;
}
