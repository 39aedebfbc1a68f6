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
import {
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  negotiateRevision,
  SUPPORTED_REVISIONS,
} from '../protocol/revisions.js';
import { META } from '../protocol/meta.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { LOGGING_LEVELS, type ClientInfo, type LoggingLevel } from './context.js';
import { resolveClientIdentity } from './identity.js';
import { initializeClient } from './lifecycle.js';
import type { TransportRequestInfo } from './request-info.js';

/** The two eras: `legacy` (the `initialize` handshake revisions) and `modern` (2026-07-28 on). */
export type Era = 'legacy' | 'modern';

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

/** The salient params of a request (all but `_meta`, `inputResponses`, `requestState`). */
export function salientParams(params: JsonObject | undefined): JsonValue {
  if (params === undefined) return null;
  const { _meta, inputResponses, requestState, ...rest } = params;
  void _meta;
  void inputResponses;
  void requestState;
  return rest;
}

/** What a connection knows of its client from the handshake (legacy era). */
export interface SessionState {
  /** The revision `initialize` negotiated; undefined before it. */
  readonly protocolVersion: string | undefined;
  /** The client's identity and capabilities from `initialize`. */
  readonly client: ClientInfo;
  /** The level set by `logging/setLevel`; undefined: no log notifications. */
  readonly logLevel: LoggingLevel | undefined;
}

/**
 * Decides the era, revision, client and log level of one request: the one place where this is
 * decided. A request (other than `initialize`) whose `_meta` names a protocol version is served
 * statelessly from its own `_meta`; any other is served in the connection's negotiated revision,
 * with identity fields the request or its transport carry taking precedence (see
 * `resolveClientIdentity`). `plain.plainScope()` supplies the connection's cached scope for the
 * common case of a request that carries no identity of its own (an object, not a closure: no
 * function is made per request).
 * @throws {RpcError} as {@link modernScope} for a malformed 2026-07-28 request.
 */
export function requestScope(
  method: string,
  params: JsonObject | undefined,
  transport: TransportRequestInfo | undefined,
  session: SessionState,
  plain: { plainScope(): RequestScope },
): RequestScope {
  if (method === 'initialize') return initializeScope(params, session);
  if (isModernRequest(params)) return modernScope(params);
  const meta = params?._meta;
  if (
    transport?.protocolVersion === undefined &&
    transport?.clientName === undefined &&
    transport?.clientVersion === undefined &&
    (meta === undefined || !Object.prototype.hasOwnProperty.call(meta, META.clientInfo))
  ) {
    return plain.plainScope();
  }
  const identity = resolveClientIdentity({
    request: { params },
    transport,
    session: {
      protocolVersion: session.protocolVersion,
      clientName: session.client.name,
      clientVersion: session.client.version,
    },
  });
  const protocolVersion = isLegacyRevision(identity.protocolVersion)
    ? identity.protocolVersion
    : (session.protocolVersion ?? LATEST_LEGACY_REVISION);
  const client: ClientInfo = { capabilities: session.client.capabilities };
  if (identity.clientName !== undefined) client.name = identity.clientName;
  if (identity.clientVersion !== undefined) client.version = identity.clientVersion;
  return { modern: false, protocolVersion, client, logLevel: session.logLevel };
}

/**
 * The scope of an `initialize` request: the revision it will negotiate and the client it names
 * (malformed params keep the connection's; the handler refuses them).
 */
function initializeScope(params: JsonObject | undefined, session: SessionState): RequestScope {
  const requested = params?.protocolVersion;
  const protocolVersion = typeof requested === 'string' ? negotiateRevision(requested) : (session.protocolVersion ?? LATEST_LEGACY_REVISION);
  return { modern: false, protocolVersion, client: initializeClient(params), logLevel: session.logLevel };
}

/** The scope of a plain legacy request on a connection in `session`'s state. */
export function sessionScope(session: SessionState): RequestScope {
  return {
    modern: false,
    protocolVersion: session.protocolVersion ?? LATEST_LEGACY_REVISION,
    client: session.client,
    logLevel: session.logLevel,
  };
}
