/**
 * `baremcp/testing`: test an MCP server with `node:test` (or any runner) in a few lines.
 * `connect(server)` talks to a server in the same process; `spawnClient(command, args)` to any
 * stdio server as a child process. Both do the handshake and return the same `TestClient`.
 *
 * Spec: MCP 2025-11-25 (legacy revisions, `initialize`); MCP 2026-07-28 (stateless requests).
 * @module baremcp/testing
 */
export { textOf } from './client.js';
export { connect } from './memory.js';
export type { ServerDefinition } from './memory.js';
export { spawnClient } from './stdio.js';
export type { ProcessClient, SpawnClientOptions } from './stdio.js';
export type {
  ClientOptions,
  ClientRequestHandler,
  Completion,
  CompletionReference,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  RequestOptions,
  Resource,
  ResourceTemplate,
  TestClient,
} from './types.js';
export { RpcError } from '../protocol/errors.js';
export type { CallToolResult, Tool } from '../protocol/types.js';
