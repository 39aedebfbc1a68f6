/**
 * The two eras, chosen per request: a request whose `_meta` carries
 * `io.modelcontextprotocol/protocolVersion` is served statelessly under 2026-07-28; any other
 * request is served under the revision its connection negotiated with `initialize`.
 *
 * Spec: MCP 2026-07-28, Basic / Versioning ("Backward Compatibility", dual-era servers),
 * Basic / Overview (`_meta`, `resultType`), Server / Utilities / Caching.
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS, SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import { LOGGING_LEVELS, type ClientInfo, type LoggingLevel } from './context.js';
import { META } from './identity.js';

/** How one request is served. */
export interface RequestScope {
  /** True for a 2026-07-28 request (per-request `_meta`, no handshake). */
  modern: boolean;
  /** The revision the reply is shaped for. */
  protocolVersion: string;
  client: ClientInfo;
  /** The minimum level for `notifications/message`, or undefined for none. */
  logLevel: LoggingLevel | undefined;
}

/** Methods whose complete results carry `ttlMs`/`cacheScope` at 2026-07-28, with their scope. */
const CACHEABLE: ReadonlyMap<string, 'public' | 'private'> = new Map([
  ['server/discover', 'public'],
  ['tools/list', 'public'],
  ['prompts/list', 'public'],
  ['resources/list', 'public'],
  ['resources/templates/list', 'public'],
  ['resources/read', 'private'],
]);

/** Methods that 2026-07-28 removed (SEP-2575): a modern request for them is `-32601`. */
export const REMOVED_IN_MODERN: ReadonlySet<string> = new Set([
  'ping',
  'logging/setLevel',
  'initialize',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** True when the request's `_meta` names a protocol version (the modern form). */
export function isModernRequest(params: JsonObject | undefined): boolean {
  const meta = params?._meta;
  return isObject(meta) && Object.prototype.hasOwnProperty.call(meta, META.protocolVersion);
}

/**
 * Reads the per-request protocol fields of a 2026-07-28 request.
 * @throws {RpcError} `-32022` with `data: { supported, requested }` for an unsupported version;
 *   `-32602` when a required field is missing or malformed, or the log level is not one of
 *   `LOGGING_LEVELS` (an unknown level is refused, not taken as "no log messages").
 */
export function modernScope(params: JsonObject | undefined): RequestScope {
  const meta = (params?._meta ?? {}) as JsonObject;
  const requested = meta[META.protocolVersion];
  if (typeof requested !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, `_meta["${META.protocolVersion}"] must be a string`);
  }
  if (!MODERN_REVISIONS.includes(requested)) {
    throw new RpcError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...SUPPORTED_REVISIONS],
      requested,
    });
  }
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `missing required _meta["${META.clientCapabilities}"] (an object; {} for none)`,
    );
  }
  const client: ClientInfo = { capabilities: capabilities as JsonObject };
  const info = meta[META.clientInfo];
  if (isObject(info)) {
    if (typeof info.name === 'string') client.name = info.name;
    if (typeof info.version === 'string') client.version = info.version;
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !isOneOf(logLevel, LOGGING_LEVELS)) {
    throw new RpcError(ErrorCode.InvalidParams, `_meta["${META.logLevel}"]: ${notOneOf('logging level', logLevel, LOGGING_LEVELS)}`);
  }
  return { modern: true, protocolVersion: requested, client, logLevel };
}

/** True when `revision` is a legacy (handshake) revision. */
export function isLegacyRevision(revision: string | undefined): revision is string {
  return revision !== undefined && LEGACY_REVISIONS.includes(revision);
}

/** Options for {@link shapeModernResult}. */
export interface ModernShape {
  serverInfo: JsonObject;
  /** `ttlMs` for cacheable results. */
  ttlMs: number;
}

/**
 * Shapes a complete 2026-07-28 result: `resultType: "complete"` unless set, `serverInfo` in
 * `_meta`, and `ttlMs`/`cacheScope` on cacheable methods (unless the handler set them).
 */
export function shapeModernResult(method: string, result: JsonObject, shape: ModernShape): JsonObject {
  const shaped: JsonObject = { ...result };
  if (shaped.resultType === undefined) shaped.resultType = 'complete';
  const meta: JsonObject = isObject(result._meta) ? { ...(result._meta as JsonObject) } : {};
  meta[META.serverInfo] = shape.serverInfo;
  shaped._meta = meta;
  const scope = CACHEABLE.get(method);
  if (scope !== undefined && shaped.resultType === 'complete') {
    if (shaped.ttlMs === undefined) shaped.ttlMs = shape.ttlMs;
    if (shaped.cacheScope === undefined) shaped.cacheScope = scope;
  }
  return shaped;
}

/** The salient params of a request (all but `_meta`, `inputResponses`, `requestState`). */
export function salientParams(params: JsonObject | undefined): JsonValue {
  if (params === undefined) return null;
  const { _meta, inputResponses, requestState, ...rest } = params;
  void _meta;
  void inputResponses;
  void requestState;
  return rest;
}
