/**
 * The method table: every method the server answers, in one map. Each entry says in which eras
 * and revisions the method exists, which server capability or client-declared extension it
 * needs, which params it requires, whether its 2026-07-28 results are cacheable, what a
 * transport may learn of a request before running it (its target, for routing headers and
 * scopes), and its handler. The lookup that refuses a method a request cannot call lives here
 * too, so that every refusal reads the same in both eras.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle, Server / Tools, Resources, Prompts, Utilities;
 * MCP 2026-07-28, Basic / Versioning ("Extension Negotiation"), Basic / Overview (`-32021`),
 * Server / Utilities / Caching; SEP-2133 (Extensions).
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, isObject, type JsonObject, type RequestId } from '../protocol/messages.js';
import type { JsonRpcNotification } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';
import type { RequestContext } from './context.js';
import type { Era, RequestScope } from './era.js';
import type { SubscriptionOffer } from './subscriptions.js';

/** A JSON type a required param must have. */
export type ParamType = 'string' | 'object';

/** What a request addresses, known before it runs: a tool, a prompt or a resource. */
export interface RequestTarget {
  /** The kind of thing addressed. */
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** Its name (a tool or prompt name, a resource URI): the `Mcp-Name` header carries it. */
  readonly name: string;
  /** A tool's `inputSchema` (its `x-mcp-header` annotations name the `Mcp-Param-*` headers). */
  readonly inputSchema?: JsonObject;
  /** OAuth scopes the target declares it needs (every one is required). */
  readonly scopes?: readonly string[];
}

/**
 * What a built-in handler may do to the connection that carries its request: record the
 * handshake, set the log level, hold a subscription. User methods never see it.
 */
export interface SessionControl {
  /** A name for the connection, unique in the process. */
  readonly id: string;
  /** Records the `initialize` handshake (legacy era). */
  handshake(protocolVersion: string, client: RequestScope['client']): void;
  /** Records the level of `logging/setLevel` (legacy era). */
  setLogLevel(level: NonNullable<RequestScope['logLevel']>): void;
  /**
   * Records a legacy `resources/subscribe` (`on`) or `resources/unsubscribe` (`!on`).
   * @throws {RpcError} `-32602` when the connection holds as many subscriptions as it may.
   */
  subscribe(uri: string, on: boolean): void;
  /**
   * Serves `subscriptions/listen` on this connection until it is cancelled or ended; resolves to
   * the subscription's result. `offer` is what the server can announce; `notify` sends on the
   * request's own stream.
   */
  listen(
    id: RequestId,
    params: JsonObject | undefined,
    signal: AbortSignal,
    offer: SubscriptionOffer,
    notify: (notification: JsonRpcNotification) => void,
  ): Promise<JsonObject>;
}

/** What a handler receives besides params and context. */
export interface MethodRequest {
  /** The connection's state, for the lifecycle and subscription methods. */
  readonly session: SessionControl;
  /** The scope the request is served in. */
  readonly scope: RequestScope;
  /** Sends a notification related to this request (on its stream, if it has one). */
  notify(notification: JsonRpcNotification): void;
}

/** One entry of the method table. */
export interface MethodEntry {
  /** The method name, e.g. `tools/call`. */
  readonly method: string;
  /** The eras the method exists in. */
  readonly eras: readonly Era[];
  /** The first legacy revision that has the method; undefined: every one. */
  readonly since?: string;
  /**
   * The server capability the method belongs to (`tools`, `resources`, ...): a server that does
   * not announce it answers `-32601`.
   */
  readonly capability?: string;
  /** The extension the client must have declared to call the method. */
  readonly extension?: string;
  /** Params the method requires, by JSON type; checked before any middleware runs. */
  readonly required?: Readonly<Record<string, ParamType>>;
  /** The `cacheScope` of the method's complete 2026-07-28 results; undefined: not cacheable. */
  readonly cacheScope?: 'public' | 'private';
  /**
   * True for a list whose items may declare scopes: under authorization it shows each caller only
   * what it may use, so its 2026-07-28 results are `cacheScope: "private"`.
   */
  readonly scoped?: boolean;
  /** The refusal for a request of the other era (default: `-32601` naming the era). */
  readonly wrongEra?: (scope: RequestScope) => RpcError;
  /**
   * The param a 2026-07-28 HTTP request mirrors in its `Mcp-Name` header (`name` for `tools/call`,
   * `uri` for `resources/read`, `taskId` for the tasks extension's methods); undefined: none.
   */
  readonly nameParam?: string;
  /** What the request addresses (read by transports for routing headers and scopes). */
  target?(params: JsonObject | undefined): RequestTarget | undefined;
  /**
   * Serves the request.
   * @throws {RpcError} for a protocol error; anything else thrown becomes `-32603`.
   */
  run(
    params: JsonObject | undefined,
    ctx: RequestContext,
    request: MethodRequest,
  ): JsonObject | Promise<JsonObject>;
}

/** The error for a request of an extension the client did not declare. */
export function extensionNotDeclared(method: string, extension: string, modern: boolean): RpcError {
  if (!modern) {
    return new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (part of the ${extension} extension, which the client did not declare in initialize)`,
    );
  }
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: extension ${extension} (declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions to call ${method})`,
    { requiredCapabilities: { extensions: { [extension]: {} } } },
  );
}

/**
 * True when the client of a request declared `extension` among its capabilities (per request under
 * 2026-07-28, in `initialize` under the legacy revisions). Takes a request scope or a handler's
 * `ctx` (anything with the `client` it saw).
 */
export function declaresExtension(scope: { readonly client: RequestScope['client'] }, extension: string): boolean {
  const declared = scope.client.capabilities.extensions;
  return isObject(declared) && hasOwn(declared, extension);
}

/**
 * Finds the entry for `method` that a request in `scope` may call.
 * @throws {RpcError} `-32601` for a method the table lacks, one of the other era or of a later
 *   revision, or one whose capability the server does not announce; the entry's own refusal
 *   for the other era when it has one; for an undeclared extension, `-32021` (2026-07-28) or
 *   `-32601` (legacy); `-32602` for a missing or mistyped required param.
 */
export function lookup(
  table: ReadonlyMap<string, MethodEntry>,
  method: string,
  params: JsonObject | undefined,
  scope: RequestScope,
  capabilities: JsonObject,
): MethodEntry {
  const entry = table.get(method);
  if (entry === undefined) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  const era: Era = scope.modern ? 'modern' : 'legacy';
  if (!entry.eras.includes(era)) {
    if (entry.wrongEra !== undefined) throw entry.wrongEra(scope);
    const why = scope.modern
      ? `removed in ${scope.protocolVersion}`
      : `a ${entry.since ?? '2026-07-28'} method; this request uses ${scope.protocolVersion}`;
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (${why})`);
  }
  if (!scope.modern && entry.since !== undefined && !atLeast(scope.protocolVersion, entry.since)) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (it came in ${entry.since}; this connection uses ${scope.protocolVersion})`,
    );
  }
  if (entry.capability !== undefined && !hasOwn(capabilities, entry.capability)) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (this server has no ${entry.capability})`,
    );
  }
  if (entry.extension !== undefined && !declaresExtension(scope, entry.extension)) {
    throw extensionNotDeclared(method, entry.extension, scope.modern);
  }
  if (entry.required !== undefined) {
    for (const field in entry.required) {
      const type = entry.required[field];
      const value = params?.[field];
      const ok = type === 'object' ? isObject(value) : typeof value === type;
      if (!ok) {
        throw new RpcError(ErrorCode.InvalidParams, `${method}: params.${field} must be ${type === 'object' ? 'an object' : `a ${type}`}`);
      }
    }
  }
  return entry;
}

/** `com.example/name`: a reverse-DNS prefix, a slash, a name (MCP `_meta` key rules). */
const PREFIXED = /^(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/[A-Za-z0-9](?:[A-Za-z0-9._/-]*[A-Za-z0-9])?$/;

/** True for a method name with a reverse-DNS vendor prefix, e.g. `com.example/search`. */
export function isPrefixedName(name: string): boolean {
  return PREFIXED.test(name);
}
