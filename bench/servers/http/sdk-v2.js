// The official TypeScript SDK v2 (`@modelcontextprotocol/server`) over Streamable HTTP at
// 2026-07-28: createMcpHandler with a per-request McpServer factory and `legacy: 'reject'` (this
// suite measures its modern path only), on node:http through toNodeHandler from
// `@modelcontextprotocol/node`, behind that package's localhost Host and Origin guards, as its
// README wires plain node:http. Replies are JSON (`responseMode: 'auto'`, the default).
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { description, shape, echoResult } from '../echo-zod.js';

function factory() {
  const server = new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description,
      inputSchema: z.object(shape),
    },
    async (args) => echoResult(args),
  );
  return server;
}

const handler = toNodeHandler(createMcpHandler(factory, { legacy: 'reject' }));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const server = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  void handler(req, res);
});
server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ listening: server.address().port }) + '\n');
});
