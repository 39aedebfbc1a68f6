/**
 * What a transport knows about one request beyond its JSON-RPC message: its kind, HTTP headers,
 * the `MCP-Protocol-Version` header, the authenticated caller, and where messages related to the
 * request go. Transports fill it in; the dispatcher reads it once per request and hands the parts
 * a handler may see to the request context.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Protocol Version Header"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP ("Request Metadata"), Basic / Authorization; W3C Trace Context.
 * @module
 */
import type { JsonRpcMessage, JsonValue } from '../protocol/messages.js';

/** Read access to request headers by case-insensitive name (a web `Headers` is one). */
export interface HeaderReader {
  /** The value of header `name` (several values joined by `, `), or null when absent. */
  get(name: string): string | null;
}

/**
 * The authenticated caller behind a request: set by authorization on HTTP, absent on stdio (which
 * has no authorization) and on unauthenticated servers.
 */
export interface Principal {
  /** The token's `sub` claim, when it has one. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, or `azp`), when known. */
  readonly clientId?: string;
  /** The token's issuer (`iss`), when known. */
  readonly issuer?: string;
  /** The scopes granted (from `scope` or `scp`); empty when none. */
  readonly scopes: readonly string[];
  /** The claims the server chose to expose (never the raw token unless asked for). */
  readonly claims: Readonly<Record<string, JsonValue>>;
  /**
   * The raw access token: present only when authorization was configured with
   * `exposeToken: true`. Never pass it upstream (MCP 2026-07-28, Basic / Authorization / Security
   * Considerations, "Access Token Privilege Restriction": no token passthrough).
   */
  readonly token?: string;
}

/** The transport facts a handler and a middleware may read (`ctx.transport`). */
export interface TransportInfo {
  /** The transport's kind, e.g. `stdio` or `http`; undefined for a direct `handle()` call. */
  readonly kind?: string;
  /** The request's headers (HTTP only). */
  readonly headers?: HeaderReader;
  /** The peer's address as the socket saw it (HTTP on node:http only; a proxy's when behind one). */
  readonly remoteAddress?: string;
  /** The legacy `Mcp-Session-Id` the request belongs to (HTTP legacy sessions only). */
  readonly sessionId?: string;
  /**
   * The connection that carries the request (`Connection.id`, unique in the process): one per
   * stdio session, per legacy HTTP session, per `server.connect()`; a 2026-07-28 POST gets a fresh
   * one. Set by the server, not the transport.
   */
  readonly connectionId?: string;
  /**
   * Under authorization, what `tools/list` and `prompts/list` show the caller: only what its
   * scopes allow (`permitted`, the default) or everything (`all`).
   */
  readonly listing?: 'permitted' | 'all';
  /**
   * Keeps the runtime alive for `work` that outlives the response (a task's run), where the
   * runtime ends a request's work with its response: Cloudflare Workers' `ctx.waitUntil`, handed
   * to the fetch handler as its second argument. Undefined elsewhere (Node, Deno and Bun keep
   * running what is pending).
   */
  readonly waitUntil?: (work: Promise<unknown>) => void;
}

/** Per-request metadata a transport supplies to `Connection.handle`; every field is optional. */
export interface TransportRequestInfo extends TransportInfo {
  /** The `MCP-Protocol-Version` header, when the transport has one. */
  readonly protocolVersion?: string;
  /** The client's name, when the transport knows it some other way. */
  readonly clientName?: string;
  /** The client's version, likewise. */
  readonly clientVersion?: string;
  /** The authenticated caller, when the transport verified one. */
  readonly principal?: Principal;
  /**
   * Where messages related to this one request go (progress, log messages, and on legacy
   * connections the server's own requests), e.g. the SSE stream of an HTTP POST. Default: the
   * connection's `send`.
   */
  readonly send?: (message: JsonRpcMessage) => void;
}
