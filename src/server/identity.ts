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
import { isObject } from '../protocol/messages.js';
import { META } from '../protocol/meta.js';
import type { TransportRequestInfo } from './request-info.js';

/** The resolved identity of the client behind one request; every field may be unknown. */
export interface ClientIdentity {
  clientName?: string;
  clientVersion?: string;
  protocolVersion?: string;
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
