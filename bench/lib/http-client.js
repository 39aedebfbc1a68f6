// A keep-alive MCP client over Streamable HTTP, built for measuring (bench/http.js): an undici
// Pool (one keep-alive connection per request in flight, no pipelining), request bodies built
// from a template, and every reply checked: the HTTP status, the body parsed (JSON, or the `data`
// of each server-sent event), the JSON-RPC id and the echoed text. A wrong reply throws, with the
// status and the body in the message. Three ways to call the echo tool:
//   stateless  POST `tools/call` with `MCP-Protocol-Version: 2025-11-25`, no session (SDK v1 stateless, the floor)
//   session    `initialize` (2025-11-25), `notifications/initialized`, then calls with
//              `Mcp-Session-Id` and the negotiated `MCP-Protocol-Version`
//   modern     2026-07-28: `_meta` with the protocol version, client info and capabilities, and the
//              `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';
export const ARGS = { text: 'hello world', count: 2, loud: true, tags: ['a', 'b'] };
export const EXPECTED = 'HELLO WORLD HELLO WORLD';
const CLIENT_INFO = { name: 'baremcp-bench', version: '1.0.0' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = 'application/json, text/event-stream';
const SHOWN = 400;

/** The JSON-RPC messages of a reply body: the JSON body, or the `data` of each SSE event. */
export function messagesOf(contentType, text) {
  if (!(contentType ?? '').startsWith('text/event-stream')) return text === '' ? [] : [JSON.parse(text)];
  const messages = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = [];
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
    const joined = data.join('\n');
    // A priming event (an id and an empty `data`, for resumption) carries no message.
    if (joined.trim() !== '') messages.push(JSON.parse(joined));
  }
  return messages;
}

/** Throws unless `reply` answers request `id` of `method` as the server should. */
function check(label, method, id, reply, validate) {
  const { status, body } = reply;
  const fail = (what) => {
    throw new Error(`${label}: ${what} for ${method} id ${id}: HTTP ${status} ${body.slice(0, SHOWN)}`);
  };
  let messages;
  try {
    messages = messagesOf(reply.contentType, body);
  } catch (error) {
    fail(`unparsable reply (${error.message})`);
  }
  const message = messages.find((m) => m.id === id && m.method === undefined);
  if (status !== 200) fail('wrong status');
  if (message === undefined) fail('no reply with this id');
  if (message.jsonrpc !== '2.0') fail('not JSON-RPC 2.0');
  if (message.error !== undefined) fail('an error');
  if (!validate(message.result)) fail('a wrong result');
  return message;
}

const echoed = (result) => result?.isError !== true && result?.content?.[0]?.type === 'text' && result.content[0].text === EXPECTED;

export class McpHttpClient {
  /**
   * @param {string} label the server's name, for error messages
   * @param {string} origin `http://127.0.0.1:port`
   * @param {'stateless' | 'session' | 'modern'} mode
   * @param {number} connections most connections (and requests in flight)
   * @param {object} [poolOptions] more undici Pool options (bench/http-counts.js: a larger
   *   keepAliveTimeoutThreshold, so that a connection idle near the server's keep-alive timeout
   *   is not reused while a slow server under valgrind closes it)
   */
  constructor(label, origin, mode, connections = 1, poolOptions = {}) {
    this.label = label;
    this.mode = mode;
    this.pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000, ...poolOptions });
    this.nextId = 1;
    this.sessionId = undefined;
    this.version = mode === 'modern' ? MODERN : LEGACY;
  }

  /** POSTs one message (a string or an object); resolves to `{ status, contentType, headers, body }`. */
  async post(message, headers = {}) {
    const response = await this.pool.request({
      path: '/mcp',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: typeof message === 'string' ? message : JSON.stringify(message),
    });
    const body = await response.body.text();
    return { status: response.statusCode, contentType: response.headers['content-type'], headers: response.headers, body };
  }

  /** The headers of a `tools/call` in this client's mode. */
  callHeaders() {
    if (this.mode === 'modern') return { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    const headers = { 'mcp-protocol-version': this.version };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  /** Opens the session (session mode; nothing in the others). Resolves to the `initialize` reply. */
  async open() {
    if (this.mode !== 'session') return undefined;
    const opened = await this.initialize();
    this.sessionId = opened.sessionId;
    this.version = opened.version;
    if (this.sessionId === undefined) throw new Error(`${this.label}: initialize answered without Mcp-Session-Id`);
    return opened;
  }

  /**
   * One legacy handshake (`initialize`, then `notifications/initialized` on the new session):
   * `{ sessionId, version, at }` (`at`: performance.now() when the initialize reply arrived).
   */
  async initialize() {
    const id = this.nextId++;
    const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo: CLIENT_INFO };
    const reply = await this.post({ jsonrpc: '2.0', id, method: 'initialize', params }, { 'mcp-protocol-version': LEGACY });
    const at = performance.now();
    const message = check(this.label, 'initialize', id, reply, (r) => typeof r?.protocolVersion === 'string');
    const sessionId = reply.headers['mcp-session-id'];
    const version = message.result.protocolVersion;
    const headers = { 'mcp-protocol-version': version, ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }) };
    const ack = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    if (ack.status !== 202 && ack.status !== 200) {
      throw new Error(`${this.label}: notifications/initialized got HTTP ${ack.status} ${ack.body.slice(0, SHOWN)}`);
    }
    return { sessionId, version, at };
  }

  /** The body of `tools/call` echo with `args`, as a string. */
  callBody(id, args = ARGS) {
    const params = { name: 'echo', arguments: args };
    if (this.mode === 'modern') params._meta = MODERN_META;
    return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  }

  /** One checked echo call; resolves to the reply message. */
  async call() {
    const id = this.nextId++;
    const reply = await this.post(this.callBody(id), this.callHeaders());
    return check(this.label, 'tools/call', id, reply, echoed);
  }

  /** True when the server refuses a call without the required `text` (an error or `isError`). */
  async refusesBadArguments() {
    const id = this.nextId++;
    const reply = await this.post(this.callBody(id, { count: 2 }), this.callHeaders());
    const message = messagesOf(reply.contentType, reply.body).find((m) => m.id === id);
    return message?.error !== undefined || message?.result?.isError === true;
  }

  /** The `tools/list` reply's tools (the echo tool must be there). */
  async listTools() {
    const id = this.nextId++;
    const params = this.mode === 'modern' ? { _meta: MODERN_META } : {};
    const headers = this.mode === 'modern' ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' } : this.callHeaders();
    const reply = await this.post({ jsonrpc: '2.0', id, method: 'tools/list', params }, headers);
    return check(this.label, 'tools/list', id, reply, (r) => r?.tools?.some((t) => t.name === 'echo' && t.inputSchema?.properties?.text !== undefined)).result.tools;
  }

  /**
   * `n` checked echo calls keeping `concurrency` in flight. Resolves to `{ ms, latencies }`
   * (latencies in µs when `timed`); rejects on the first wrong reply, after the calls in flight end.
   */
  async load(n, concurrency, timed = false) {
    const latencies = timed ? [] : undefined;
    const headers = this.callHeaders();
    const prefix = '{"jsonrpc":"2.0","id":';
    const suffix = this.callBody(0).slice(prefix.length + 1);
    let started = 0;
    let failure;
    const worker = async () => {
      while (started < n && failure === undefined) {
        started++;
        const id = this.nextId++;
        const t = timed ? performance.now() : 0;
        try {
          const reply = await this.post(prefix + id + suffix, headers);
          check(this.label, 'tools/call', id, reply, echoed);
        } catch (error) {
          failure ??= error;
          return;
        }
        if (timed) latencies.push((performance.now() - t) * 1000);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    const ms = performance.now() - t0;
    if (failure !== undefined) throw failure;
    return { ms, latencies };
  }

  /**
   * Opens `n` sessions with `concurrency` handshakes in flight; resolves to their ids (undefined
   * for a server without sessions, like the floor).
   */
  async openSessions(n, concurrency) {
    const ids = [];
    let started = 0;
    const worker = async () => {
      while (started < n) {
        started++;
        ids.push((await this.initialize()).sessionId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    return ids;
  }

  close() {
    return this.pool.destroy();
  }
}
