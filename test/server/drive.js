// Drives a server the way clients do, for the policy tests: over a real stdio stream pair, over
// the web-standard HTTP handler (both eras), or directly on a connection.
import { PassThrough } from 'node:stream';
import { createFetchHandler } from '../../dist/transport/http.js';
import { serve } from '../../dist/transport/stdio.js';

export const MODERN = '2026-07-28';

/** The `_meta` of a 2026-07-28 request from client `name`, plus `extra`. */
export const modernMeta = (name = 'modern-client', extra = {}, capabilities = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name, version: '2' },
  ...extra,
});

/** An `initialize` request of `protocolVersion` from client `name`. */
export const initialize = (protocolVersion = '2025-11-25', name = 'legacy-client', id = 'init') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name, version: '1' } },
});

export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/**
 * Serves `server` over a real stdio stream pair: writes each message as a line, one after the
 * other (each waits for the replies so far, so the order of counting is the order given), ends
 * the input, and resolves to every line written to the output, parsed.
 */
export async function overStdio(server, messages) {
  const input = new PassThrough();
  const output = new PassThrough();
  const replies = [];
  let waiting;
  output.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) replies.push(JSON.parse(line));
    waiting?.();
  });
  const session = serve(input, output, server);
  for (const message of messages) {
    const before = replies.length;
    const expectsReply = Array.isArray(message) || 'id' in message;
    input.write(JSON.stringify(message) + '\n');
    while (expectsReply && replies.length === before) await new Promise((resolve) => (waiting = resolve));
  }
  input.end();
  await session.closed;
  return replies;
}

/** A web-standard HTTP handler for `server`, and a `post(body, headers)` to it. */
export function overHttp(server, options = {}) {
  const handler = createFetchHandler(server, { keepAliveMs: 0, ...options });
  const post = (body, headers = {}) =>
    handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body),
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      }),
    );
  return { handler, post };
}

/** The headers a 2026-07-28 POST of `method` (addressing `name`) needs. */
export const modernHeaders = (method, name, extra = {}) => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
  ...extra,
});
