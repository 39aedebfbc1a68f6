// FastMCP (`fastmcp`): addTool with a zod object, stdio transport.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { description, shape, echoText } from './echo-zod.js';

const server = new FastMCP({ name: 'bench-fastmcp', version: '1.0.0' });
server.addTool({
  name: 'echo',
  description,
  parameters: z.object(shape),
  execute: async (args) => echoText(args),
});
await server.start({ transportType: 'stdio' });
