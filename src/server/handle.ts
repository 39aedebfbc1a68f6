/**
 * The simplest form of the dispatcher: `handle(message, tools, info)` for a tools-only server,
 * with no server object to create first.
 *
 * What it keeps between calls, exactly: one server (and so one connection: the revision
 * `initialize` negotiated, the log level) per distinct pair of tool list and `info`. Two calls
 * share that server when their `tools` arrays hold the same definition objects in the same order
 * (the array itself may be a new literal each time) and their `info` objects are equal field by
 * field (a new literal each time is fine). At most {@link HANDLE_SERVERS} such servers are kept;
 * the least recently used is dropped first, and a dropped pair starts over (a new handshake).
 *
 * Spec: MCP 2025-11-25, Server / Tools; Basic / Lifecycle.
 * @module
 */
import type { Implementation } from '../protocol/types.js';
import type { Reply } from './connection.js';
import { Server } from './server.js';
import type { ToolDefinition } from './tool.js';

/** Most servers `handle` keeps at once (one per distinct tool list and `info`). */
export const HANDLE_SERVERS = 16;

interface Kept {
  readonly tools: readonly ToolDefinition<never>[];
  readonly info: string;
  readonly server: Server;
}

/** Most recently used last. */
const kept: Kept[] = [];

/** `value` with the keys of every object in it sorted, so that equal values write equal JSON. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * `info` by value: as JSON with the keys sorted at every depth (nested fields such as `icons`
 * count); a value that cannot be written never matches.
 */
function infoKey(info: Implementation): string {
  try {
    return JSON.stringify(sortedKeys(info));
  } catch {
    return `unserialisable:${Math.random()}`;
  }
}

function sameTools(a: readonly ToolDefinition<never>[], b: readonly ToolDefinition<never>[]): boolean {
  return a === b || (a.length === b.length && a.every((tool, i) => tool === b[i]));
}

/**
 * Handles one decoded JSON-RPC message for a tools-only server and resolves to the reply
 * (`null` for a notification or a response). See the module comment for the state it keeps:
 * equal inputs give equal replies whether `info` and `tools` are the same objects or equal
 * literals. Never rejects for bad input; rejects with `ToolDefinitionError` when a tool is
 * unusable, and `TypeError` when `info` is missing.
 * @example
 * const reply = await handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, [echo], { name: 'demo', version: '1.0.0' });
 */
export async function handle(
  message: unknown,
  tools: readonly ToolDefinition<never>[],
  info: Implementation,
): Promise<Reply> {
  const key = infoKey(info);
  const index = kept.findIndex((k) => k.info === key && sameTools(k.tools, tools));
  let entry: Kept;
  if (index === -1) {
    entry = { tools: [...tools], info: key, server: new Server({ info, tools }) };
    if (kept.length >= HANDLE_SERVERS) kept.shift();
  } else {
    entry = kept.splice(index, 1)[0] as Kept;
  }
  kept.push(entry);
  return entry.server.handle(message);
}
