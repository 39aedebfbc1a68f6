/**
 * baremcp: Model Context Protocol servers with zero runtime dependencies.
 *
 * This entry point is the pure core: it imports no `node:` module, so it runs on Node, Deno, Bun,
 * browsers and edge workers. Node transports live on subpaths (`baremcp/stdio`), and the JSON
 * Schema tools beyond validation (vendor strict modes, argument coercion) on `baremcp/schema`.
 * Every line here is public API.
 * @module baremcp
 */

// The server and the dispatcher.
export { handle } from './server/handle.js';
export { HANDLE_SERVERS } from './server/handle.js';
export { createServer, Server } from './server/server.js';
export type { CacheableMethod, MethodHandler, MethodOptions, ServerOptions } from './server/server-options.js';
export type { Connection, ConnectOptions, ListKind, Reply } from './server/connection.js';
export { LOGGING_LEVELS } from './server/context.js';
export type { ClientInfo, JsonData, LoggingLevel, RequestContext, TaskControl } from './server/context.js';
export type { AskOptions } from './server/client-input.js';
export type { Era } from './server/era.js';
export type { RequestTarget } from './server/methods.js';
export type { ParamType } from './server/methods.js';
export { MiddlewareError } from './server/middleware.js';
export type { AdmissionRequest, Middleware, Next } from './server/middleware.js';
export type { ToolCall, ToolHook } from './server/tool-call.js';
export type { ExtensionDefinition, ExtensionMethod, MethodWrapper } from './server/extensions.js';
export { declaresExtension } from './server/methods.js';
export type { SubscriptionTopic } from './server/subscriptions.js';
export type { CacheHints } from './server/result.js';
export type { HeaderReader, Principal, TransportInfo, TransportRequestInfo } from './server/request-info.js';
export type { TraceContext } from './server/trace-context.js';

// Policies live on `baremcp/policies`, the Tasks extension on `baremcp/tasks`, MCP Apps on
// `baremcp/apps`: opt-in, so a server that uses none of them loads none of their code.

export { META } from './protocol/meta.js';
export { resolveClientIdentity } from './server/identity.js';
export type { ClientIdentity, IdentitySources, SessionIdentity } from './server/identity.js';
export { COERCIONS_META_KEY } from './server/tool-call.js';

// The web-standard HTTP handler (Deno, Bun, Workers; baremcp/http adapts it to node:http).
export { createFetchHandler } from './transport/fetch-handler.js';
export type { ExecutionContext, FetchHandler, FetchHandlerOptions } from './transport/fetch-handler.js';
export type { AllowList } from './transport/http-rules.js';

// Scale-out: what replicas share (Redis implementations on `baremcp/redis`).
export { MemoryEventBus } from './server/event-bus.js';
export type { BusHandler, BusListener, BusMessage, EventBus } from './server/event-bus.js';
export { MemorySessionStore } from './transport/session-store.js';
export type { MemorySessionStoreOptions, SessionRecord, SessionStore } from './transport/session-store.js';
export { MemoryEventStore } from './transport/event-store.js';
export type { EventStore, MemoryEventStoreOptions, StoredEvent, StreamInfo, StreamRead } from './transport/event-store.js';
export type { SessionChange, SessionSnapshot } from './server/connection.js';

// Tools, resources, prompts, completion, content.
export { ToolDefinitionError } from './server/tool.js';
export type { ServedSchemas, ServedTool, TaskSupport, ToolDefinition, ToolReturn } from './server/tool.js';
export type { ToolSchema } from './server/tool-schema.js';
export { defineTool, definePrompt, defineResourceTemplate } from './server/define.js';
export type {
  InputSchemaLiteral,
  PromptArguments,
  PromptInput,
  ResourceTemplateInput,
  SchemaLiteral,
  StructuredToolResult,
  ToolArguments,
  ToolInput,
  ToolOutput,
  ToolRunReturn,
} from './server/define.js';
export { ResourceDefinitionError } from './server/resource.js';
export type {
  ResourceContentsReturn,
  ResourceDefinition,
  ResourceReturn,
  ResourceTemplateDefinition,
} from './server/resource.js';
export { PromptDefinitionError } from './server/prompt.js';
export type { PromptArgumentDefinition, PromptDefinition, PromptMessageReturn, PromptReturn } from './server/prompt.js';
export { MAX_COMPLETION_VALUES } from './server/completion.js';
export type { Completer, CompletionReturn } from './server/completion.js';
export { audio, embeddedResource, image, json, resourceLink, text, toBase64 } from './server/content.js';
export type { BinaryData, ContentOptions } from './server/content.js';
export { compileUriTemplate, UriTemplateError } from './server/uri-template.js';
export type { UriTemplate } from './server/uri-template.js';
export type { UriTemplateCheck, UriTemplateParams } from './server/uri-template-params.js';
export { isUri, safeRelativePath } from './server/uri.js';

// JSON Schema: validation and types from schema literals (vendor strict modes and argument
// coercion are on the `baremcp/schema` subpath).
export { compileSchema } from './schema/validate.js';
export { SchemaCompileError } from './schema/types.js';
export type { CompileOptions, SchemaError, ValidationResult, Validator } from './schema/types.js';
export type { FromSchema } from './schema/from-schema.js';
// Schemas from zod, valibot, arktype...: the Standard Schema interfaces, types only.
export type {
  StandardInput,
  StandardIssue,
  StandardJsonSchemaOptions,
  StandardOutput,
  StandardResult,
  StandardSchemaWithJson,
  StandardTypes,
} from './schema/standard-schema.js';

// The protocol: messages, errors, revisions.
export { ErrorCode, RATE_LIMITED, RpcError } from './protocol/errors.js';
export type { ErrorCodeValue } from './protocol/errors.js';
export {
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  SUPPORTED_REVISIONS,
} from './protocol/revisions.js';
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
  Resource,
  ResourceLink,
  ResourceTemplate,
  TextContent,
  Tool,
  ToolAnnotations,
} from './protocol/types.js';
