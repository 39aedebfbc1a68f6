/**
 * The HTTP rules of the Streamable HTTP transport that do not depend on the session or the era:
 * content negotiation (`Accept`, `Content-Type`: `media-types.ts`), the `Origin`/`Host` allow-list against DNS
 * rebinding, CORS headers, the HTTP status a JSON-RPC error gets, and small response builders.
 * Pure: no `node:` module; replies are {@link HttpReply}s.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP", "Security Warning", "Sending
 * Messages to the Server"); MCP 2026-07-28, Basic / Transports / Streamable HTTP ("Security &
 * Endpoint", "Request Metadata"), Basic / Overview ("Per-request protocol fields": `-32602` and
 * `-32021` are `400`); RFC 9110 §12.5.1 (Accept), §15.5 (4xx status codes).
 * @module
 */
import { ErrorCode, errorResponse, RATE_LIMITED } from '../protocol/errors.js';
import type {
  JsonRpcMessage,
  JsonRpcResponse,
  JsonValue,
  RequestId,
} from '../protocol/messages.js';
import { HttpReply, type ReplyHeaders } from './http-request.js';
import type { HeaderReader } from '../server/request-info.js';
import { memo } from './media-types.js';

export { accepts, acceptsAll, isJsonContentType } from './media-types.js';

/** Header names, lower case (HTTP field names are case-insensitive). */
export const HEADER: {
  readonly sessionId: 'mcp-session-id';
  readonly protocolVersion: 'mcp-protocol-version';
  readonly method: 'mcp-method';
  readonly name: 'mcp-name';
  readonly paramPrefix: 'mcp-param-';
} = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
} as const;

/** The host names a local server answers to by default (`URL.hostname` form). */
export const LOCALHOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** An allow-list: `'*'` allows everything. */
export type AllowList = readonly string[] | '*';

/** True when `hostname` (and its `host` with port) is on `allowed`; compared case-insensitively. */
export function hostAllowed(hostname: string, host: string, allowed: AllowList): boolean {
  if (allowed === '*') return true;
  const name = hostname.toLowerCase();
  const full = host.toLowerCase();
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    return e === name || e === full;
  });
}

/**
 * True when every host a request names is on `allowed`: the authority of its URL (the `Host`
 * header for an origin-form target, the target's own for an absolute-form one) and, when present,
 * the `Host` header itself. A `Host` that is not a valid `host[:port]` is refused. (RFC 9112
 * §3.2: a server uses the absolute-form's authority; both must pass here so that neither can
 * smuggle a name past the allow-list, against DNS rebinding.)
 */
export function requestHostAllowed(url: URL, hostHeader: string | null, allowed: AllowList): boolean {
  if (allowed === '*') return true;
  if (!hostAllowed(url.hostname, url.host, allowed)) return false;
  if (hostHeader === null) return true;
  const named = hostOf(hostHeader);
  return named !== undefined && hostAllowed(named.hostname, named.host, allowed);
}

/**
 * The host name and `host[:port]` a `Host` header value names, or undefined when it is not a
 * valid `host[:port]` (user info, a path, a query or a fragment, or no host at all).
 */
const hostOf = memo((hostHeader: string): Readonly<{ hostname: string; host: string }> | undefined => {
  let named: URL;
  try {
    named = new URL(`http://${hostHeader.trim()}`);
  } catch {
    return undefined;
  }
  if (named.username !== '' || named.password !== '' || named.pathname !== '/' || named.search !== '' || named.hash !== '') {
    return undefined;
  }
  return Object.freeze({ hostname: named.hostname, host: named.host });
});

/**
 * The text of a `403` for a request whose host or origin is not allowed: the refused value, and
 * how to allow it (the option, the CLI flag, or the proxy setting that passes the client's own
 * `Host`).
 */
export function forbiddenText(
  url: URL,
  hostHeader: string | null,
  origin: string | null,
  allowedHosts: AllowList,
): string {
  const host = hostHeader ?? url.host;
  if (!requestHostAllowed(url, hostHeader, allowedHosts)) {
    const target = url.host.toLowerCase() === host.trim().toLowerCase() ? '' : ` (target ${url.host})`;
    return (
      `Forbidden: Host ${JSON.stringify(host)}${target} is not allowed; allow it with allowedHosts ` +
      '(baremcp serve --allowed-host), or have the proxy pass the client\'s Host ' +
      '(nginx: proxy_set_header Host $host)'
    );
  }
  return `Forbidden: Origin ${JSON.stringify(origin)} is not allowed; allow it with allowedOrigins`;
}

/**
 * True when an `Origin` header value may call the server: absent (not a browser), or its origin
 * (`scheme://host[:port]`) or its host name is on `allowed`. `Origin: null` is refused unless
 * `allowed` is `'*'` or lists `null`.
 */
export function originAllowed(origin: string | null, allowed: AllowList): boolean {
  if (origin === null || allowed === '*') return true;
  const value = origin.trim().toLowerCase();
  if (allowed.some((entry) => entry.toLowerCase() === value)) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return allowed.some((entry) => entry.toLowerCase() === url.hostname);
}

/**
 * The HTTP status for a JSON-RPC error sent as a plain JSON reply.
 * Both eras: `RATE_LIMITED` is `429` (RFC 6585 §4; see {@link setRetryAfter}).
 * 2026-07-28 requests: `-32601` is `404`; `-32700`, `-32600`, `-32602`, `-32020`, `-32021`,
 * `-32022` are `400`; anything else (a handler's own error) is `200`. Legacy requests: `-32700`
 * and `-32600` (unusable messages) are `400`, every other error `200`, since legacy clients read
 * JSON-RPC errors only from successful responses.
 */
export function statusForError(code: number, modern: boolean): number {
  if (code === RATE_LIMITED) return 429;
  if (code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest) return 400;
  if (!modern) return 200;
  if (code === ErrorCode.MethodNotFound) return 404;
  switch (code) {
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/** The HTTP status for a whole reply: the error status of a lone error response, else 200. */
export function statusForReply(
  reply: JsonRpcResponse | JsonRpcResponse[],
  modern: boolean,
): number {
  if (Array.isArray(reply) || !('error' in reply)) return 200;
  return statusForError(reply.error.code, modern);
}

/**
 * Sets `Retry-After` (RFC 9110 §10.2.3: whole seconds, rounded up) on `headers` when an error's
 * `data.retryAfterMs` says how long to wait; returns `headers`.
 */
export function setRetryAfter(headers: ReplyHeaders, data: JsonValue | undefined): ReplyHeaders {
  const wait = typeof data === 'object' && data !== null && !Array.isArray(data) ? data.retryAfterMs : undefined;
  if (typeof wait === 'number' && wait >= 0) headers['retry-after'] = String(Math.ceil(wait / 1000));
  return headers;
}

/** `Cache-Control` for every MCP response: replies are per request and never cached by HTTP. */
const NO_STORE = 'no-store';

/** A JSON response: `body` serialised, `Content-Type: application/json`. */
export function jsonResponse(
  status: number,
  body: JsonRpcMessage | JsonRpcMessage[],
  headers: ReplyHeaders = {},
): HttpReply {
  headers['content-type'] = 'application/json';
  headers['cache-control'] = NO_STORE;
  return new HttpReply(status, headers, JSON.stringify(body));
}

/**
 * An HTTP error whose body is a JSON-RPC error response (`id` when the request's id is known).
 * @param status the HTTP status (4xx/5xx).
 */
export function errorReply(
  status: number,
  code: number,
  message: string,
  options: { id?: RequestId; data?: JsonValue; headers?: ReplyHeaders } = {},
): HttpReply {
  return jsonResponse(
    status,
    errorResponse(options.id, code, message, options.data),
    options.headers,
  );
}

/** A transport-level refusal: `status` with a JSON-RPC `-32600` (Invalid Request) error body. */
export function refuse(status: number, text: string, headers: ReplyHeaders): HttpReply {
  return errorReply(status, ErrorCode.InvalidRequest, text, { headers });
}

/** An empty response (`202 Accepted`, `204 No Content`, `405` with `Allow`, ...). */
export function emptyResponse(status: number, headers: ReplyHeaders = {}): HttpReply {
  return new HttpReply(status, headers);
}

/**
 * CORS headers for a browser caller whose origin passed the allow-list: the origin echoed, `Vary`,
 * and the headers a script must read (`Mcp-Session-Id`, and `WWW-Authenticate` for OAuth challenges).
 */
export function corsHeaders(origin: string | null): ReplyHeaders {
  if (origin === null) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate',
    vary: 'Origin',
  };
}

/** The answer to a CORS preflight (`OPTIONS`) from an allowed origin. */
export function preflightResponse(origin: string | null, request: { readonly headers: HeaderReader }): HttpReply {
  const headers = corsHeaders(origin);
  headers['access-control-allow-methods'] = 'GET, POST, DELETE, OPTIONS';
  const asked = request.headers.get('access-control-request-headers');
  headers['access-control-allow-headers'] =
    asked ??
    'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, ' +
      'Mcp-Name, Last-Event-ID';
  headers['access-control-max-age'] = '600';
  return emptyResponse(204, headers);
}

/** Copies every header of `from` onto `to` (later values win); returns `to`. */
export function mergeHeaders(to: ReplyHeaders, from: ReplyHeaders): ReplyHeaders {
  return Object.assign(to, from);
}
