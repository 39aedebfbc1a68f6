// The floor: the least CPU a stdio MCP server can spend on the bench's job (issue 21). Each input
// chunk is decoded once (stdin in utf8 mode), scanned once for newlines, and every reply it
// completes goes out in one write; per line, one JSON.parse and one JSON.stringify. No readline
// (an event and a string per line), no write per reply (a stream call per reply), no validation,
// no backpressure, no concurrency, no error handling beyond "method not found". The shapes tried
// against it are in floor-candidates/ (`node bench/run.js --floors`); bench/RESULTS.md says why
// this one is the fastest.

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
  if (method === 'initialize') {
    return {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'bench-floor', version: '1.0.0' },
    };
  }
  if (method === 'ping') return {};
  if (method === 'tools/list') return { tools: [tool] };
  if (method === 'tools/call') {
    const { text, count = 1, loud = false } = params.arguments;
    const word = loud ? text.toUpperCase() : text;
    return { content: [{ type: 'text', text: count === 1 ? word : Array(count).fill(word).join(' ') }] };
  }
  return undefined;
}

/** The reply line (with its newline) to one request line; '' for a notification. */
export function reply(line) {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return '';
  const result = answer(method, params);
  const message = result ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  return JSON.stringify(message) + '\n';
}

// Started as a script (node floor.js); bench/servers/floor-candidates/ import `reply` only.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let rest = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const text = rest === '' ? chunk : rest + chunk;
    let out = '';
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      if (newline > start) out += reply(text.slice(start, newline));
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    rest = start < text.length ? text.slice(start) : '';
    if (out !== '') process.stdout.write(out);
  });
}
