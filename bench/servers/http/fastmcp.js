// FastMCP (`fastmcp`) over Streamable HTTP: addTool with a zod object, `start({ transportType:
// 'httpStream' })` with its defaults (sessions, an in-memory event store per session, SSE replies).
// It serves the legacy revisions only (its README: no 2026-07-28). Cannot listen on port 0, so
// bench/http.js picks the port. Prints `{"listening":port}` on stdout once it listens.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { description, shape, echoText } from '../echo-zod.js';

const port = Number(process.env.BENCH_PORT);
const server = new FastMCP({ name: 'bench-fastmcp', version: '1.0.0' });
server.addTool({
  name: 'echo',
  description,
  parameters: z.object(shape),
  execute: async (args) => echoText(args),
});
await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
process.stdout.write(JSON.stringify({ listening: port }) + '\n');
