// FastMCP (`fastmcp`): addTool with a zod object, stdio transport.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

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
await server.start({ transportType: 'stdio' });
