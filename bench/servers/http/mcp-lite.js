// mcp-lite over Streamable HTTP on hono's node adapter, as its README wires it: a Hono app whose
// `/mcp` route hands `c.req.raw` to `new StreamableHttpTransport(...).bind(mcp)`, with an
// InMemorySessionAdapter (sessions: it speaks 2025-03-26 and 2025-06-18 only) and `allowedHosts`
// for 127.0.0.1 (its README's advice for local servers). Tool arguments are checked by zod
// (Standard Schema); `schemaAdapter` turns the zod object into JSON Schema for tools/list.
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { InMemorySessionAdapter, McpServer, StreamableHttpTransport } from 'mcp-lite';
import { z } from 'zod';
import { description, shape, echoResult } from '../echo-zod.js';

const port = Number(process.env.BENCH_PORT);
const mcp = new McpServer({ name: 'bench-mcp-lite', version: '1.0.0', schemaAdapter: (schema) => z.toJSONSchema(schema) });
mcp.tool('echo', {
  description,
  inputSchema: z.object(shape),
  handler: echoResult,
});
const transport = new StreamableHttpTransport({
  sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }),
  allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
});
const httpHandler = transport.bind(mcp);
const app = new Hono();
app.all('/mcp', (c) => httpHandler(c.req.raw));
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(JSON.stringify({ listening: info.port }) + '\n');
});
