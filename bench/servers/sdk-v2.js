// The official TypeScript SDK v2 (`@modelcontextprotocol/server`): McpServer with a zod object.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { description, shape, echoResult } from './echo-zod.js';

const server = new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description,
    inputSchema: z.object(shape),
  },
  async (args) => echoResult(args),
);
await server.connect(new StdioServerTransport());
