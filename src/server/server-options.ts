/**
 * The options of `createServer`, and the types of custom methods.
 *
 * Spec: MCP 2025-11-25, Server / Overview; MCP 2026-07-28, Server / Utilities / Caching, Basic /
 * Versioning ("Extension Negotiation").
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import type { Era } from './era.js';
import type { EventBus } from './event-bus.js';
import type { ExtensionDefinition } from './extensions.js';
import type { ParamType } from './methods.js';
import type { Middleware } from './middleware.js';
import type { PromptDefinition } from './prompt.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from './resource.js';
import type { CacheHints } from './result.js';
import type { ToolHook } from './tool-call.js';
import type { ToolDefinition } from './tool.js';

/**
 * A handler of a custom or extension method: `params` in, `result` out. Throw an `RpcError` for a
 * protocol error; anything else thrown becomes `-32603`.
 */
export type MethodHandler = (params: JsonObject | undefined, ctx: RequestContext) => JsonObject | Promise<JsonObject>;

/** Options of a custom method (see {@link Server.method}). */
export interface MethodOptions {
  /**
   * The eras the method exists in.
   * @default ['legacy', 'modern']
   */
  eras?: readonly Era[];
  /**
   * The extension the method belongs to: a client that did not declare it gets `-32021` under
   * 2026-07-28 and `-32601` under the legacy revisions.
   */
  extension?: string;
  /** The `cacheScope` of its complete 2026-07-28 results, when they are cacheable. */
  cacheScope?: 'public' | 'private';
  /**
   * Params the method requires, by JSON type (`{ taskId: 'string' }`): a request without them gets
   * `-32602` before any middleware runs.
   */
  required?: Readonly<Record<string, ParamType>>;
  /**
   * The param a 2026-07-28 HTTP request mirrors in its `Mcp-Name` header, checked against the body
   * like the core methods' (MCP 2026-07-28, Basic / Transports / Streamable HTTP, "Request Metadata").
   */
  nameParam?: string;
}

/** The methods whose 2026-07-28 results are cacheable, with their default `cacheScope`. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** Options for {@link createServer}. */
export interface ServerOptions {
  /** `serverInfo`: the server's name and version (and, from 2025-06-18, title etc.). */
  info: Implementation;
  /** The tools to serve; checked when the server is created. */
  tools?: readonly ToolDefinition<never>[];
  /**
   * Static resources, and resource templates (objects with a `uriTemplate`), to serve.
   * @see ResourceDefinition, ResourceTemplateDefinition
   */
  resources?: readonly (ResourceDefinition | ResourceTemplateDefinition)[];
  /** More resource templates (may also be given in `resources`). */
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  /** The prompts to serve. */
  prompts?: readonly PromptDefinition[];
  /** Sent as `instructions` in the `initialize` result. */
  instructions?: string;
  /**
   * Middleware around every request, outermost first (see {@link Middleware}); more can be added
   * with {@link Server.use}.
   */
  middleware?: readonly Middleware[];
  /** Hooks around every tool call, after its arguments are checked (see {@link ToolHook}). */
  toolHooks?: readonly ToolHook[];
  /**
   * Extensions the server supports: each is announced in `capabilities.extensions` and may add
   * methods that only clients declaring it can call (MCP 2026-07-28, Basic / Versioning).
   */
  extensions?: readonly ExtensionDefinition[];
  /**
   * Items per page in list results.
   * @default 100
   */
  pageSize?: number;
  /**
   * The secret that signs 2026-07-28 `requestState` (HMAC-SHA-256). Replicas that must resume each
   * other's multi round-trip requests share it. A string is taken as UTF-8.
   * @default 32 random bytes per server
   */
  stateSecret?: Uint8Array | string;
  /**
   * The event bus shared by the server's replicas: list changes, resource updates and task status
   * reach listeners on every replica, and a legacy session's answers and cancels reach the replica
   * that waits for them. Without one, each process is a replica of its own.
   * @default none
   * @see EventBus, MemoryEventBus, RedisEventBus (`baremcp/redis`)
   */
  bus?: EventBus;
  /**
   * How long a `requestState` stays valid, in milliseconds.
   * @default 600000 (10 minutes)
   */
  requestStateTtlMs?: number;
  /**
   * Time-out for a request to a legacy client (elicitation, sampling, roots), in milliseconds.
   * @default 120000
   */
  inputTimeoutMs?: number;
  /**
   * `ttlMs` on cacheable 2026-07-28 results (lists, `resources/read`, `server/discover`) whose
   * method has no hints of its own in `cache`.
   * @default 0 (immediately stale)
   */
  cacheTtlMs?: number;
  /**
   * Caching hints per cacheable method, e.g. `{ 'tools/list': { ttlMs: 60000, cacheScope:
   * 'public' } }`; a handler's own `ttlMs`/`cacheScope` on a result win.
   * (MCP 2026-07-28, Server / Utilities / Caching.)
   */
  cache?: { readonly [M in CacheableMethod]?: CacheHints };
  /**
   * Coerce loosely typed tool arguments (`"5"` to `5` where the schema says integer, and its
   * kin), reporting each coercion on stderr. A tool's own `coerce` wins.
   * @default true
   */
  coerce?: boolean;
  /**
   * Also report coercions in each result's `_meta["dev.baremcp/coercions"]` (a client can ask for
   * that per call by sending `_meta: { "dev.baremcp/coercions": true }`).
   * @default false
   */
  reportCoercions?: boolean;
  /**
   * Assert `format` keywords (date-time, email, uri, ...) when validating arguments.
   * @default false (formats are annotations, as JSON Schema 2020-12 says)
   */
  formatAssertion?: boolean;
  /**
   * Validate arguments and `structuredContent` with JavaScript generated from each schema
   * (`new Function`) where the platform allows it (not in Cloudflare Workers or under a strict
   * CSP, where the interpreter runs instead); `false` always interprets. Same verdicts either way.
   * @default generated at a schema's 4th validation
   */
  codegen?: boolean;
  /**
   * Largest nesting depth of a request's `params`; deeper requests get `-32602`.
   * @default 100
   */
  maxDepth?: number;
  /**
   * Most messages in one 2025-03-26 batch; each request past it gets its own `-32600` error in
   * the batch reply (notifications past it are dropped and reported).
   * @default 100
   */
  maxBatchItems?: number;
  /**
   * Largest batch reply, in bytes of JSON: a reply that would take the batch past it is replaced
   * by a `-32603` error for that request (about 150 bytes each), so every request still gets
   * exactly one reply and a batch reply stays under this plus 150 bytes per replaced reply.
   * @default 16777216 (16 MiB)
   */
  maxBatchReplyBytes?: number;
  /**
   * Server-wide tool time-out in milliseconds (a tool's own `timeoutMs` wins); 0 for none. A tool
   * that runs out of time gets its signal aborted and the call an `isError` result.
   * @default 0
   */
  toolTimeoutMs?: number;
  /**
   * Largest tool result, in characters of text and base64 data; a larger one becomes an `isError`
   * result (the model can ask for less).
   * @default 16777216 (16 Mi)
   */
  maxResultSize?: number;
  /**
   * Where diagnostics go (one line each). Never stdout.
   * @default `[baremcp] <line>` on stderr (`process.stderr.write`, else `console.error`)
   */
  report?: (line: string) => void;
}

export const DEFAULT_CACHE_SCOPE: Readonly<Record<CacheableMethod, 'public' | 'private'>> = {
  'server/discover': 'public',
  'tools/list': 'public',
  'prompts/list': 'public',
  'resources/list': 'public',
  'resources/templates/list': 'public',
  'resources/read': 'private',
};
