// tmcp over Streamable HTTP: McpServer with the zod adapter (`@tmcp/adapter-zod`) and
// HttpTransport (`@tmcp/transport-http`) with its defaults (in-memory sessions for legacy clients,
// sessionless 2026-07-28 on the same endpoint, SSE replies), on node:http through hono's node
// adapter (`serve({ fetch })`, a plain fetch-to-node:http bridge). bench/http.js measures it as a
// legacy session and as stateless 2026-07-28. `allowedOrigins: []`: cross-origin requests refused.
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { serve } from '@hono/node-server';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { McpServer } from 'tmcp';
import { z } from 'zod';
import { description, shape, echoResult } from '../echo-zod.js';

const server = new McpServer(
  { name: 'bench-tmcp', version: '1.0.0', description: 'bench' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  {
    name: 'echo',
    description,
    schema: z.object(shape),
  },
  async (args) => echoResult(args),
);
const transport = new HttpTransport(server, { path: '/mcp', allowedOrigins: [] });
serve(
  {
    fetch: async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
    port: Number(process.env.BENCH_PORT ?? 0),
    hostname: '127.0.0.1',
  },
  (info) => process.stdout.write(JSON.stringify({ listening: info.port }) + '\n'),
);
