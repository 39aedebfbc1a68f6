// The official TypeScript SDK v1 (`@modelcontextprotocol/sdk`): McpServer with a zod shape.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { description, shape, echoResult } from './echo-zod.js';

const server = new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description,
    inputSchema: shape,
  },
  async (args) => echoResult(args),
);
await server.connect(new StdioServerTransport());
