// The HTTP floor: the least CPU a node:http server can spend on the bench's job (issue 21). One
// POST, one JSON-RPC message: the body's chunks kept as Buffers and decoded once, one JSON.parse,
// the message checked (JSON-RPC 2.0, a method, `tools/call` of `echo` with a string `text`), one
// JSON.stringify, and the reply written at once: `writeHead` with a flat array of raw headers and
// its Content-Length (no chunked encoding, no header object), then one `end`. No sessions, no Host
// or Origin check, no schema validation, no SSE. `tools/list` and `initialize` (no session id)
// are answered too, for the checks and the sessions baseline of bench/http.js. The shapes tried
// against it are in floor-candidates/ (`node bench/http.js --floors`); they import `reply`.
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const tool = {
  name: 'echo',
  description: 'Echo the text back, optionally upper-cased and repeated.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      count: { type: 'integer', minimum: 1, maximum: 100 },
      loud: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['text'],
  },
};

function answer(method, params) {
  if (method === 'tools/call') {
    if (params?.name !== 'echo' || typeof params.arguments?.text !== 'string') return undefined;
    const { text, count = 1, loud = false } = params.arguments;
    const word = loud ? text.toUpperCase() : text;
    return { content: [{ type: 'text', text: count === 1 ? word : Array(count).fill(word).join(' ') }] };
  }
  if (method === 'tools/list') return { tools: [tool] };
  if (method === 'initialize') {
    return { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench-floor', version: '1.0.0' } };
  }
  return undefined;
}

/** The HTTP status and JSON text answering one POST body (a string); text '' for 202. */
export function reply(body) {
  let message;
  try {
    message = JSON.parse(body);
  } catch {
    return { status: 400, text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' };
  }
  if (message === null || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return { status: 400, text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}' };
  }
  if (message.id === undefined) return { status: 202, text: '' };
  const result = answer(message.method, message.params);
  if (result === undefined) {
    return { status: 400, text: JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Invalid params' } }) };
  }
  return { status: 200, text: JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) };
}

/** Listens on 127.0.0.1:$BENCH_PORT and prints the port. */
export function listen(server) {
  server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ listening: server.address().port }) + '\n');
  });
}

// Started as a script (node floor.js); floor-candidates/ import `reply` and `listen` only.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  listen(
    createServer((req, res) => {
      if (req.method !== 'POST' || req.url !== '/mcp') {
        res.writeHead(404, ['content-length', '0']).end();
        return;
      }
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const { status, text } = reply((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString());
        res.writeHead(status, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))]);
        res.end(text);
      });
    }),
  );
}
