// FastMCP (`fastmcp`) over Streamable HTTP: addTool with a zod object, `start({ transportType:
// 'httpStream' })` with its defaults (sessions, an in-memory event store per session, SSE replies).
// It serves the legacy revisions only (its README: no 2026-07-28). Cannot listen on port 0, so
// bench/http.js picks the port. Prints `{"listening":port}` on stdout once it listens.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const port = Number(process.env.BENCH_PORT);
const server = new FastMCP({ name: 'bench-fastmcp', version: '1.0.0' });
server.addTool({
  name: 'echo',
  description: 'Echo the text back, optionally upper-cased and repeated.',
  parameters: z.object({
    text: z.string().describe('The text to echo.'),
    count: z.number().int().min(1).max(100).optional().describe('Repetitions (default 1).'),
    loud: z.boolean().optional().describe('Upper-case the text.'),
    tags: z.array(z.string()).optional().describe('Labels (ignored).'),
  }),
  execute: async ({ text, count = 1, loud = false }) => {
    const word = loud ? text.toUpperCase() : text;
    return count === 1 ? word : Array(count).fill(word).join(' ');
  },
});
await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
process.stdout.write(JSON.stringify({ listening: port }) + '\n');
