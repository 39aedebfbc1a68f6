/**
 * The options of the Streamable HTTP endpoint ({@link FetchHandlerOptions}, shared by the fetch and
 * the node:http handlers) and what a runtime tells it of a request ({@link ExecutionContext}).
 * Types only.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP.
 * @module
 */
import type { ResourceServer } from '../auth/resource-server.js';
import type { EventStore } from './event-store.js';
import type { AllowList } from './http-rules.js';
import type { SessionStore } from './session-store.js';

/** Options for {@link createFetchHandler}. */
export interface FetchHandlerOptions {
  /** Serve only this path (e.g. `/mcp`); other paths get `404`. Default: every path. */
  path?: string;
  /**
   * Host names (or `host:port`) the `Host` of a request may name; others get `403` (DNS
   * rebinding protection). `'*'` allows any, for servers behind a proxy that checks it.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  allowedHosts?: AllowList;
  /**
   * Origins (`https://app.example.com`) or host names a browser's `Origin` may name; others get
   * `403`. Requests without `Origin` (not from a browser) pass. Allowed origins get CORS headers.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  allowedOrigins?: AllowList;
  /**
   * Largest request body, in bytes; larger ones get `413`.
   * @default 4194304 (4 MiB)
   */
  maxBodyBytes?: number;
  /**
   * A legacy session without requests or an open GET stream for this long ends, in milliseconds
   * (its id then gets `404`).
   * @default 1800000 (30 minutes)
   */
  sessionIdleMs?: number;
  /**
   * A legacy session that has not sent `notifications/initialized` ends this long after its last
   * use, in milliseconds (at most `sessionIdleMs`), so half-open sessions do not hold places.
   * @default 60000 (1 minute)
   */
  uninitializedSessionMs?: number;
  /**
   * Most legacy sessions at once. It bounds the default `sessionStore` and the live sessions
   * this handler keeps. A full table does not lock new clients out: an `initialize` takes the
   * place of a half-open session (never past `initialize`, oldest first), else of the least
   * recently used one (whose client gets `404` and starts again). `503` only when every session
   * kept here has a request running or a stream open.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * Most legacy sessions of one authenticated caller (with `auth`) in the default `sessionStore`;
   * its next `initialize` takes the place of one of its own (half-open first, then least recently
   * used), so no caller can fill the table for the others.
   * @default a tenth of maxSessions
   */
  maxSessionsPerOwner?: number;
  /**
   * Most legacy sessions opened from one socket address (`ExecutionContext.remoteAddress`; the
   * node:http handler gives it) in the default `sessionStore`, as `maxSessionsPerOwner`. Not
   * applied when `behindProxy`, where every client has the proxy's address.
   * @default a tenth of maxSessions
   */
  maxSessionsPerAddress?: number;
  /**
   * The endpoint is reached through a reverse proxy or load balancer, so the socket address is
   * the proxy's, not the client's: sessions are not capped per address.
   * @default false
   */
  behindProxy?: boolean;
  /**
   * Where legacy sessions live. Replicas behind a balancer that share one (`RedisSessionStore`
   * of `baremcp/redis`) serve each other's sessions, with no sticky routing.
   * @default a MemorySessionStore of `maxSessions` (this process only)
   */
  sessionStore?: SessionStore;
  /**
   * Where the events of legacy SSE streams are kept, so that a client whose stream dropped
   * resumes it with `Last-Event-ID` and loses nothing. Replicas share one (`RedisEventStore`).
   * @default a MemoryEventStore (bounded; this process only)
   */
  eventStore?: EventStore;
  /**
   * Most requests one caller may have running at once: a legacy session, or under authorization
   * the principal of 2026-07-28 requests (anonymous 2026-07-28 requests count towards
   * `maxInFlightTotal` only). Each request of a batch counts. A request past it is not run: its
   * POST gets `429` with `Retry-After` (`RATE_LIMITED`, `data: { retryAfterMs }`), or, for the
   * requests of a batch past it when others in the batch found a place, an error of its own in the
   * batch reply (`200`). The same name and default as stdio's `maxInFlight`.
   * @default 256
   */
  maxInFlight?: number;
  /**
   * Most requests the whole handler may have running at once, over all callers; a request past
   * it gets `503` with `Retry-After` (in a batch: an error of its own, as for `maxInFlight`).
   * @default 4096
   */
  maxInFlightTotal?: number;
  /**
   * Interval of keep-alive comments on open SSE streams, in milliseconds; 0 for none. Keep it
   * under the idle time-out of the runtime and of every proxy in between (Bun's is 10 s).
   * @default 5000
   */
  keepAliveMs?: number;
  /**
   * Bytes an SSE stream may hold unread before the slow client loses it.
   * @default 16777216 (16 MiB)
   */
  maxBufferedBytes?: number;
  /**
   * Longest wait in {@link FetchHandler.close} for requests in flight, in milliseconds; they are
   * aborted after it.
   * @default 10000
   */
  closeTimeoutMs?: number;
  /**
   * Require an OAuth access token on every request (`createResourceServer` from `baremcp/auth`):
   * the Protected Resource Metadata is served at its well-known URLs, requests without a valid
   * token get `401`, calls of a tool or prompt whose scopes the token lacks get `403`, and each
   * legacy session belongs to the caller that opened it.
   * @see ResourceServer
   */
  auth?: ResourceServer;
  /**
   * Path of an opt-in health endpoint (e.g. `/healthz`) for load balancers and orchestrators:
   * `GET`/`HEAD` answer `200 {"status":"ok"}`, or `503 {"status":"closing"}` once {@link
   * FetchHandler.close} began. Answered before the `Host` check; no session, no body.
   * @default undefined (none)
   */
  healthPath?: string;
}

/**
 * What the runtime knows of a request beyond the `Request` itself: its per-request context where
 * it ends a request's work with its response (Cloudflare Workers), and the peer's address.
 */
export interface ExecutionContext {
  /** Keeps the request's work alive until `work` settles (Cloudflare Workers `ctx.waitUntil`). */
  waitUntil?(work: Promise<unknown>): void;
  /**
   * The peer's address as the socket saw it (node:http `req.socket.remoteAddress`; Deno
   * `info.remoteAddr.hostname`; Bun `server.requestIP(request)?.address`). With it, and unless
   * `behindProxy`, legacy sessions are capped per address (`maxSessionsPerAddress`).
   */
  remoteAddress?: string;
}
