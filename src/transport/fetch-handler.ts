/**
 * Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`, for every
 * runtime with the Fetch API (Node, Deno, Bun, Cloudflare Workers and other serverless hosts).
 * Both eras on one endpoint: 2026-07-28 requests are stateless (a fresh connection per POST, no
 * session, no GET stream), so replicas behind a load balancer need to share only the server's
 * `stateSecret`; legacy revisions get `Mcp-Session-Id` sessions, a GET stream and DELETE.
 * Imports no `node:` module.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP.
 * @module
 */
import { ErrorCode } from '../protocol/errors.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { SseStream } from './sse.js';
import type { ResourceServer } from '../auth/resource-server.js';
import type { Connection } from '../server/connection.js';
import { principalKey } from '../server/principal.js';
import type { Principal } from '../server/request-info.js';
import type { Server } from '../server/server.js';
import { admissionRefusal } from './admission.js';
import { authenticate, metadataResponse } from './authorize.js';
import { HttpReply, webRequest, type HttpRequest } from './http-request.js';
import { healthResponse, reportMissingStateSecret } from './deployment.js';
import {
  acceptsAll,
  corsHeaders,
  emptyResponse,
  errorReply,
  HEADER,
  requestHostAllowed,
  isJsonContentType,
  forbiddenText,
  LOCALHOST_NAMES,
  mergeHeaders,
  originAllowed,
  preflightResponse,
  type AllowList,
} from './http-rules.js';
import { InFlight } from './in-flight.js';
import { isModernPost, postLegacy, postModern, type PostContext } from './post.js';
import { MemoryEventStore, type EventStore } from './event-store.js';
import { getStream, type GetContext } from './get.js';
import { MemorySessionStore, type SessionStore } from './session-store.js';
import { LiveSessions } from './sessions.js';
import { DEFAULT_KEEP_ALIVE_MS, type SseOptions } from './sse.js';

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

/** A Streamable HTTP handler: call it with each request to the MCP endpoint. */
export interface FetchHandler {
  /**
   * Answers `request`. `execution` is the runtime's per-request context where it has one (the
   * third argument of a Cloudflare Workers `fetch`): its `waitUntil` keeps work that outlives the
   * response (a task's run) alive.
   */
  (request: Request, execution?: ExecutionContext): Promise<Response>;
  /**
   * Graceful close: new requests get `503`, subscriptions end with their result, requests in
   * flight finish (up to `closeTimeoutMs`, then are aborted), then every session and stream ends.
   */
  close(): Promise<void>;
}

const ALLOW = 'GET, POST, DELETE, OPTIONS';

/** What the `Accept` of a POST must admit: a reply may come as JSON or as an SSE stream. */
const POST_ACCEPT: readonly string[] = ['application/json', 'text/event-stream'];

/** How often a handler tells the event store it is alive, in milliseconds (the beat lasts 3 times that). */
const HEARTBEAT_MS = 2000;

/**
 * Beats the heart of this replica in the event store, so that a replica resuming one of its
 * streams can tell whether it is alive (see `resume.ts`).
 */
function startHeartbeat(server: Server, events: EventStore): ReturnType<typeof setInterval> {
  let failing = false;
  const beat = (): void => {
    events.heartbeat(server.nodeId, 3 * HEARTBEAT_MS).then(
      () => (failing = false),
      (error: unknown) => {
        if (!failing) server.report(`event store: heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
        failing = true;
      },
    );
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** A transport-level refusal: `status` with a JSON-RPC `-32600` error body. */
function refuse(status: number, text: string, headers: Headers): HttpReply {
  return errorReply(status, ErrorCode.InvalidRequest, text, { headers });
}

/**
 * The Streamable HTTP endpoint both handlers call: every check (Host and Origin, limits,
 * authorization, sessions, resumption) and every answer is made here, once, whichever way the
 * request came ({@link HttpRequest}: a web `Request`, or a node:http request read directly); its
 * {@link HttpReply} becomes a web `Response` or is written to the node:http response.
 */
export interface Endpoint {
  /** Answers one request; never rejects for a client's fault. */
  serve(request: HttpRequest, execution?: ExecutionContext): Promise<HttpReply>;
  /** Graceful close (see {@link FetchHandler.close}); safe to call twice. */
  close(): Promise<void>;
}

/**
 * Creates the Streamable HTTP endpoint of `server` (see {@link createFetchHandler}, and
 * `createHttpHandler` in `http.ts`).
 *
 * Status codes: `202` for notifications and responses; `400` for a malformed request, a missing
 * session id (legacy), an unsupported `MCP-Protocol-Version`, or a header that does not match the
 * body (`-32020`); `403` for a `Host` or `Origin` not on the allow-lists; `404` for an unknown
 * session or path (and, at 2026-07-28, `-32601`); `405` for GET/DELETE at 2026-07-28 or GET
 * without a session; `406` when `Accept` lacks `application/json` and `text/event-stream` (GET:
 * the latter); `409` for a second GET stream on a session; `413` for a body over `maxBodyBytes`;
 * `415` for a body that is not `application/json`; `429` with `Retry-After` for a request a rate
 * limit refuses (before the body is read when the middleware's admission check can tell from the
 * headers, see `admission.ts`) or that finds its caller at `maxInFlight`; `503` with `Retry-After`
 * for a request past `maxInFlightTotal`, and for an `initialize` when every session kept here is
 * busy (see `maxSessions`); `503` while closing. A batch is refused whole only when none of its
 * requests finds a place (see `in-flight.ts`).
 * @throws {TypeError} for a `healthPath` that is not a path or is `path` itself.
 */
export function createEndpoint(server: Server, options: FetchHandlerOptions = {}): Endpoint {
  const allowedHosts = options.allowedHosts ?? LOCALHOST_NAMES;
  const allowedOrigins = options.allowedOrigins ?? LOCALHOST_NAMES;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const sse: SseOptions = { keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS };
  if (options.maxBufferedBytes !== undefined) sse.maxBufferedBytes = options.maxBufferedBytes;
  const maxSessions = options.maxSessions ?? 10_000;
  const events = options.eventStore ?? new MemoryEventStore();
  const store =
    options.sessionStore ??
    new MemorySessionStore({
      maxSessions,
      ...(options.maxSessionsPerOwner === undefined ? {} : { maxSessionsPerOwner: options.maxSessionsPerOwner }),
      ...(options.maxSessionsPerAddress === undefined ? {} : { maxSessionsPerAddress: options.maxSessionsPerAddress }),
    });
  const sessions = new LiveSessions(server, {
    store,
    events,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    uninitializedMs: options.uninitializedSessionMs ?? 60_000,
    maxLive: maxSessions,
    sse,
  });
  const followers = new Set<SseStream>();
  const streams: GetContext = { server, sessions, events, sse, followers };
  const heartbeat = startHeartbeat(server, events);
  const running = new InFlight(options.maxInFlight, options.maxInFlightTotal);
  const inFlight = new Set<Promise<unknown>>();
  const live = new Set<Connection>();
  const auth = options.auth;
  const context: PostContext = {
    server,
    ...(auth === undefined ? {} : { auth }),
    sessions,
    events,
    sse,
    live,
    inFlight: running,
    track(work) {
      inFlight.add(work);
      work.then(
        () => inFlight.delete(work),
        (error: unknown) => {
          inFlight.delete(work);
          server.report(`HTTP request failed: ${error instanceof Error ? error.stack : error}`);
        },
      );
    },
  };
  let closing: Promise<void> | undefined;
  const healthPath = options.healthPath;
  if (healthPath !== undefined && (!healthPath.startsWith('/') || healthPath === options.path)) {
    throw new TypeError(`createFetchHandler: healthPath ${JSON.stringify(healthPath)} must be a path of its own, e.g. '/healthz'`);
  }
  reportMissingStateSecret(server);

  async function post(
    request: HttpRequest,
    cors: Headers,
    principal: Principal | undefined,
    execution: ExecutionContext | undefined,
  ): Promise<HttpReply> {
    // Deno and Bun pass objects of their own as the second argument (connection info, the
    // server): only a waitUntil function is taken.
    const keep: unknown = execution?.waitUntil;
    const waitUntil =
      typeof keep === 'function' ? (work: Promise<unknown>) => void keep.call(execution, work) : undefined;
    // A refusal before the body is read says `Connection: close`: the unread body must not be
    // taken for the next request on a kept-alive connection.
    if (!isJsonContentType(request.headers.get('content-type'))) {
      const headers = mergeHeaders(new Headers({ connection: 'close' }), cors);
      return refuse(415, 'Unsupported Media Type: Content-Type must be application/json', headers);
    }
    if (!acceptsAll(request.headers.get('accept'), POST_ACCEPT)) {
      const text = 'Not Acceptable: Accept must list application/json and text/event-stream';
      return refuse(406, text, mergeHeaders(new Headers({ connection: 'close' }), cors));
    }
    const refused = admissionRefusal(server, request, cors, principal);
    if (refused !== undefined) return refused;
    const body = await request.readBody(maxBodyBytes);
    if (body.kind === 'too-large') {
      const headers = mergeHeaders(new Headers({ connection: 'close' }), cors);
      return refuse(413, `Content Too Large: the body exceeds ${maxBodyBytes} bytes`, headers);
    }
    if (body.kind === 'aborted') return emptyResponse(400, cors);
    let message: unknown;
    try {
      if (body.kind === 'invalid-utf8') throw new SyntaxError('not UTF-8');
      message = JSON.parse(body.text);
    } catch {
      return errorReply(400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON', {
        headers: cors,
      });
    }
    const version = request.headers.get(HEADER.protocolVersion);
    if (!isModernPost(message, version)) {
      const sessionId = request.headers.get(HEADER.sessionId);
      // Behind a proxy every client has the proxy's address: it tells nothing about the client.
      const given: unknown = execution?.remoteAddress;
      const address = options.behindProxy === true || typeof given !== 'string' ? undefined : given;
      return postLegacy(context, message, version, cors, sessionId, request.headers, principal, waitUntil, address);
    }
    if (Array.isArray(message)) {
      return refuse(400, 'Invalid Request: 2026-07-28 has no batches', cors);
    }
    return postModern(context, request, message, version, cors, principal, waitUntil);
  }

  async function remove(request: HttpRequest, cors: Headers, owner: string): Promise<HttpReply> {
    const version = request.headers.get(HEADER.protocolVersion);
    if (version !== null && MODERN_REVISIONS.includes(version)) {
      return emptyResponse(405, mergeHeaders(new Headers({ allow: 'POST' }), cors));
    }
    const sessionId = request.headers.get(HEADER.sessionId);
    if (sessionId === null)
      return refuse(400, 'Bad Request: Mcp-Session-Id header is required', cors);
    return (await sessions.get(sessionId, owner)) !== undefined && (await sessions.delete(sessionId))
      ? emptyResponse(204, cors)
      : refuse(404, 'Not Found: no such session', cors);
  }

  async function serve(request: HttpRequest, execution?: ExecutionContext): Promise<HttpReply> {
    const url = request.url;
    if (healthPath !== undefined && url.pathname === healthPath) {
      return healthResponse(request.method, closing !== undefined);
    }
    if (auth !== undefined && requestHostAllowed(url, request.headers.get('host'), allowedHosts)) {
      const metadata = metadataResponse(auth, server, request, url, options.path);
      if (metadata !== undefined) return metadata;
    }
    if (options.path !== undefined && url.pathname !== options.path) return emptyResponse(404);
    const origin = request.headers.get('origin');
    if (
      !requestHostAllowed(url, request.headers.get('host'), allowedHosts) ||
      !originAllowed(origin, allowedOrigins)
    ) {
      return refuse(403, forbiddenText(url, request.headers.get('host'), origin, allowedHosts), new Headers());
    }
    const cors = corsHeaders(origin);
    if (closing !== undefined) {
      const text = 'Service Unavailable: the server is shutting down';
      return errorReply(503, ErrorCode.InternalError, text, { headers: cors });
    }
    const method = request.method;
    if (method === 'OPTIONS') return preflightResponse(origin, request);
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return emptyResponse(405, mergeHeaders(new Headers({ allow: ALLOW }), cors));
    }
    // With authorization, nothing of a request is read before its token is verified.
    let principal: Principal | undefined;
    if (auth !== undefined) {
      const outcome = await authenticate(auth, server, request, cors);
      if (outcome instanceof HttpReply) return outcome;
      principal = outcome;
    }
    if (method === 'POST') return post(request, cors, principal, execution);
    return method === 'GET'
      ? getStream(streams, request, cors, principalKey(principal))
      : remove(request, cors, principalKey(principal));
  }

  async function close(): Promise<void> {
    for (const connection of live) connection.endSubscriptions();
    sessions.endSubscriptions();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)));
    await Promise.race([Promise.allSettled([...inFlight]), timeout]);
    clearTimeout(timer);
    for (const connection of live) connection.close();
    sessions.closeAll();
    // Followers of resumed streams end: their clients resume on another replica.
    for (const stream of followers) stream.close();
    clearInterval(heartbeat);
    // Work aborted above settles on the next turns; let its replies go out.
    await Promise.race([
      Promise.allSettled([...inFlight]),
      new Promise((resolve) => setTimeout(resolve, 50)),
    ]);
  }

  return {
    serve,
    close(): Promise<void> {
      closing ??= close();
      return closing;
    },
  };
}

/**
 * Creates the Streamable HTTP handler of `server`: the `Endpoint` of
 * `createEndpoint` (internal), called with web `Request`s.
 * @throws {TypeError} for a `healthPath` that is not a path or is `path` itself.
 * @example
 * const handler = createFetchHandler(server, { path: '/mcp' });
 * Deno.serve((request) => handler(request));
 */
export function createFetchHandler(
  server: Server,
  options: FetchHandlerOptions = {},
): FetchHandler {
  return fetchHandlerOf(createEndpoint(server, options));
}

/** The {@link FetchHandler} that serves web `Request`s on `endpoint`. */
export function fetchHandlerOf(endpoint: Endpoint): FetchHandler {
  const handler = async (request: Request, execution?: ExecutionContext): Promise<Response> =>
    (await endpoint.serve(webRequest(request), execution)).toResponse();
  return Object.assign(handler, { close: endpoint.close });
}
