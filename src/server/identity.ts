/**
 * Client identity resolution: who is calling and in which revision, for one request, through a
 * fallback chain: the request's own `_meta`, then the transport's per-request metadata (e.g. the
 * HTTP `MCP-Protocol-Version` header), then what the `initialize` handshake recorded.
 *
 * Spec: MCP 2026-07-28, Basic / Overview (`_meta` per-request protocol fields);
 * MCP 2025-11-25, Basic / Lifecycle (`clientInfo`); Basic / Transports / Streamable HTTP
 * ("Protocol Version Header").
 * @module
 */
import { isObject, type JsonRpcMessage } from '../protocol/messages.js';

/** Reserved `_meta` keys of MCP 2026-07-28 (Basic / Overview, "`_meta`"). */
export const META: {
  readonly protocolVersion: 'io.modelcontextprotocol/protocolVersion';
  readonly clientInfo: 'io.modelcontextprotocol/clientInfo';
  readonly clientCapabilities: 'io.modelcontextprotocol/clientCapabilities';
  readonly logLevel: 'io.modelcontextprotocol/logLevel';
  readonly serverInfo: 'io.modelcontextprotocol/serverInfo';
  readonly subscriptionId: 'io.modelcontextprotocol/subscriptionId';
} = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The resolved identity of the client behind one request; every field may be unknown. */
export interface ClientIdentity {
  clientName?: string;
  clientVersion?: string;
  protocolVersion?: string;
}

/** Per-request metadata a transport supplies (e.g. from HTTP headers); stdio supplies none. */
export interface TransportRequestInfo {
  /** The `MCP-Protocol-Version` header, when the transport has one. */
  protocolVersion?: string;
  /** The client's name, when the transport knows it some other way. */
  clientName?: string;
  /** The client's version, likewise. */
  clientVersion?: string;
  /**
   * Where messages related to this one request go (progress, log messages, and on legacy
   * connections the server's own requests), e.g. the SSE stream of an HTTP POST. Default: the
   * connection's `send`.
   */
  send?: (message: JsonRpcMessage) => void;
}

/** What the `initialize` handshake recorded for this connection, if it happened. */
export interface SessionIdentity {
  protocolVersion?: string;
  clientName?: string;
  clientVersion?: string;
}

/** Input of {@link resolveClientIdentity}. */
export interface IdentitySources {
  /** The request (its `params._meta` is read); any value is accepted. */
  request?: unknown;
  transport?: TransportRequestInfo;
  session?: SessionIdentity;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Resolves `{ clientName, clientVersion, protocolVersion }` field by field: request `_meta`, then
 * transport, then session. Fields no source knows are left out. Never throws, whatever it is given.
 */
export function resolveClientIdentity(sources: IdentitySources): ClientIdentity {
  let meta: { [key: string]: unknown } = {};
  try {
    const params = isObject(sources?.request) ? sources.request.params : undefined;
    if (isObject(params) && isObject(params._meta)) meta = params._meta;
  } catch {
    meta = {};
  }
  const info = isObject(meta[META.clientInfo]) ? (meta[META.clientInfo] as { [key: string]: unknown }) : {};
  const transport = isObject(sources?.transport) ? sources.transport : {};
  const session = isObject(sources?.session) ? sources.session : {};
  const identity: ClientIdentity = {};
  const clientName = text(info.name) ?? text(transport.clientName) ?? text(session.clientName);
  const clientVersion = text(info.version) ?? text(transport.clientVersion) ?? text(session.clientVersion);
  const protocolVersion =
    text(meta[META.protocolVersion]) ?? text(transport.protocolVersion) ?? text(session.protocolVersion);
  if (clientName !== undefined) identity.clientName = clientName;
  if (clientVersion !== undefined) identity.clientVersion = clientVersion;
  if (protocolVersion !== undefined) identity.protocolVersion = protocolVersion;
  return identity;
}
