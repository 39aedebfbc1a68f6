/**
 * baremcp: Model Context Protocol servers with zero runtime dependencies.
 *
 * This entry point is the pure core: it imports no `node:` module, so it runs on Node, Deno, Bun,
 * browsers and edge workers. Node transports live on subpaths (`baremcp/stdio`).
 * Every line here is public API.
 * @module
 */
export { handle } from './server/handle.js';
export { createServer, Server } from './server/server.js';
export type { MethodHandler, ServerOptions } from './server/server.js';
export { Connection } from './server/connection.js';
export type { ConnectOptions, Reply } from './server/connection.js';
export { LOGGING_LEVELS } from './server/context.js';
export type { ClientInfo, LoggingLevel, RequestContext } from './server/context.js';
export { ToolDefinitionError } from './server/tool.js';
export type { ToolDefinition, ToolReturn } from './server/tool.js';
export { ErrorCode, RpcError } from './protocol/errors.js';
export type { ErrorCodeValue } from './protocol/errors.js';
export { LATEST_LEGACY_REVISION, LEGACY_REVISIONS } from './protocol/revisions.js';
export { isNotification, isRequest, isResponse } from './protocol/messages.js';
export type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonValue,
  RequestId,
} from './protocol/messages.js';
export type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
  Implementation,
  JsonSchema,
  ResourceContents,
  ResourceLink,
  TextContent,
  Tool,
  ToolAnnotations,
} from './protocol/types.js';
