/**
 * The simplest form of the dispatcher: `handle(message, tools, info)` for a tools-only server,
 * with no server object to create first.
 *
 * Spec: MCP 2025-11-25, Server / Tools.
 * @module
 */
import type { Implementation } from '../protocol/types.js';
import type { Reply } from './connection.js';
import { Server } from './server.js';
import type { ToolDefinition } from './tool.js';

const servers = new WeakMap<readonly ToolDefinition<never>[], Server>();

/**
 * Handles one decoded JSON-RPC message for a tools-only server and resolves to the reply
 * (`null` for a notification or a response). The server for a given `tools` array is created on
 * first use and keeps its connection state (the negotiated revision) across calls.
 * Never rejects for bad input; throws `ToolDefinitionError` (as a rejection) when a tool is unusable.
 * @example
 * const reply = await handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, [echo], { name: 'demo', version: '1.0.0' });
 */
export async function handle(
  message: unknown,
  tools: readonly ToolDefinition<never>[],
  info: Implementation,
): Promise<Reply> {
  let server = servers.get(tools);
  if (server === undefined || server.info !== info) {
    server = new Server({ info, tools });
    servers.set(tools, server);
  }
  return server.handle(message);
}
