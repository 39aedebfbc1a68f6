// The official TypeScript SDK v1 (`@modelcontextprotocol/sdk`) over Streamable HTTP, wired as its
// own examples wire it (dist/esm/examples/server/simpleStatelessStreamableHttp.js and
// standaloneSseWithGetStreamableHttp.js): createMcpExpressApp (express, JSON body parser, Host
// check for 127.0.0.1) and a StreamableHTTPServerTransport with its defaults (POST replies as SSE).
//   node sdk-v1.js stateless   a new McpServer and transport per POST (`sessionIdGenerator: undefined`)
//   node sdk-v1.js sessions    one McpServer and transport per session, found by `Mcp-Session-Id`
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { description, shape, echoResult } from '../echo-zod.js';

const mode = process.argv[2];
if (mode !== 'stateless' && mode !== 'sessions') throw new Error('usage: node sdk-v1.js stateless|sessions');

function getServer() {
  const server = new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description,
      inputSchema: shape,
    },
    async (args) => echoResult(args),
  );
  return server;
}

const rpcError = (res, status, message) => res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
const app = createMcpExpressApp({ host: '127.0.0.1' });

if (mode === 'stateless') {
  app.post('/mcp', async (req, res) => {
    const server = getServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
} else {
  const transports = new Map();
  app.post('/mcp', async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = sessionId === undefined ? undefined : transports.get(sessionId);
    if (transport === undefined) {
      if (sessionId !== undefined || !isInitializeRequest(req.body)) return rpcError(res, 400, 'Bad Request: No valid session ID provided');
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await getServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const onSession = async (req, res) => {
    const transport = transports.get(req.headers['mcp-session-id']);
    if (transport === undefined) return rpcError(res, 400, 'Invalid or missing session ID');
    await transport.handleRequest(req, res);
  };
  app.get('/mcp', onSession);
  app.delete('/mcp', onSession);
}

const listener = app.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ listening: listener.address().port }) + '\n');
});
