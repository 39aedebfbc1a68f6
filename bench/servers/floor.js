// The floor: the least a stdio MCP server can do. readline over stdin, one echo tool, no
// validation, no backpressure, no error handling beyond "method not found".
import { createInterface } from 'node:readline';

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

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  const result = answer(method, params);
  const reply = result ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  process.stdout.write(JSON.stringify(reply) + '\n');
});
