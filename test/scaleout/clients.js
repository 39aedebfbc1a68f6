// The clients of the scale-out test: the official SDK v1 client for legacy sessions (2025-11-25),
// and plain fetch for 2026-07-28 requests (stateless: a dropped stream cancels the call, and the
// client sends it again). Each call names a token; what comes back is counted per token.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'scale-out', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A connected SDK v1 client (a legacy session through the balancer). */
export async function legacyClient(url) {
  const client = new Client({ name: 'scale-out', version: '1' });
  client.onerror = () => {};
  const transport = new StreamableHTTPClientTransport(new URL(url));
  transport.onerror = () => {};
  await client.connect(transport);
  return client;
}

/** Calls `name` through a legacy client; resolves to the text of its result (rejects on any error). */
export async function legacyCall(client, name, args) {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 60_000,
    resetTimeoutOnProgress: true,
    onprogress: () => {},
  });
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.content[0].text;
}

/**
 * Calls `name` once as a 2026-07-28 request with a progress token (so the reply streams); resolves
 * to the result's text. Rejects when the stream drops before the reply, or on an error reply.
 */
export async function modernCall(url, name, args, id = 1) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { ...META, progressToken: `p${id}` } } }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const text = await response.text();
  const messages = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)))
    : [JSON.parse(text)];
  const reply = messages.find((m) => m.id === id);
  if (reply === undefined) throw new Error('the stream ended without a reply');
  if (reply.error !== undefined) throw new Error(`error ${reply.error.code}: ${reply.error.message}`);
  return reply.result.content[0].text;
}

/** Opens a 2026-07-28 subscriptions/listen for tool list changes; returns { received(), close() }. */
export async function listen(url) {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } }),
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const methods = [];
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (const line of buffer.split('\n')) if (line.startsWith('data: ')) methods.push(JSON.parse(line.slice(6)).method);
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      }
    } catch {
      // aborted
    }
  })();
  return {
    received: () => methods,
    async close() {
      controller.abort();
      await pump;
    },
  };
}
