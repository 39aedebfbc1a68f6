// The official TypeScript SDK v1 (`@modelcontextprotocol/sdk`): McpServer with a zod shape.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Echo the text back, optionally upper-cased and repeated.',
    inputSchema: {
      text: z.string().describe('The text to echo.'),
      count: z.number().int().min(1).max(100).optional().describe('Repetitions (default 1).'),
      loud: z.boolean().optional().describe('Upper-case the text.'),
      tags: z.array(z.string()).optional().describe('Labels (ignored).'),
    },
  },
  async ({ text, count = 1, loud = false }) => {
    const word = loud ? text.toUpperCase() : text;
    return { content: [{ type: 'text', text: count === 1 ? word : Array(count).fill(word).join(' ') }] };
  },
);
await server.connect(new StdioServerTransport());
