/**
 * The Streamable HTTP endpoint: every check (Host and Origin, limits, authorization, sessions,
 * resumption) and every answer, made once whichever way a request came ({@link HttpRequest}: a
 * web `Request` for the fetch handler, a node:http request read directly for the node:http
 * handler). Routes by path and method; POST goes to `post.ts`, GET to `get.ts`. Imports no
 * `node:` module.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP.
 * @module
 */
import { ErrorCode } from '../protocol/errors.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Connection } from '../server/connection.js';
import { LiveList } from '../server/live-list.js';
import { principalKey } from '../server/principal.js';
import type { Principal } from '../server/request-info.js';
import type { Server } from '../server/server.js';
import { authenticate, metadataResponse } from './authorize.js';
import { healthResponse, reportMissingStateSecret } from './deployment.js';
import type { ExecutionContext, FetchHandlerOptions } from './endpoint-options.js';
import { MemoryEventStore, type EventStore } from './event-store.js';
import { getStream, type GetContext } from './get.js';
import { HttpReply, type HttpRequest, type ReplyHeaders } from './http-request.js';
import {
  corsHeaders,
  emptyResponse,
  errorReply,
  forbiddenText,
  HEADER,
  LOCALHOST_NAMES,
  mergeHeaders,
  originAllowed,
  preflightResponse,
  refuse,
  requestHostAllowed,
} from './http-rules.js';
import { InFlight } from './in-flight.js';
import { servePost } from './post.js';
import type { PostContext } from './post-context.js';
import { MemorySessionStore } from './session-store.js';
import { LiveSessions } from './sessions.js';
import { DEFAULT_KEEP_ALIVE_MS, type SseOptions, type SseStream } from './sse.js';

const ALLOW = 'GET, POST, DELETE, OPTIONS';

/** How often a handler tells the event store it is alive, in milliseconds (the beat lasts 3 times that). */
const HEARTBEAT_MS = 2000;

/**
 * Beats the heart of this replica in the event store, so that a replica resuming one of its
 * streams can tell whether it is alive (see `resume.ts`).
 */
function startHeartbeat(server: Server, events: EventStore): ReturnType<typeof setInterval> {
  let failing = false;
  const beat = (): void => {
    // It starts inside a request (the first legacy stream) and runs on a timer: a store that
    // throws synchronously, or returns no promise, fails here like one whose promise rejects.
    let pending: Promise<void>;
    try {
      pending = Promise.resolve(events.heartbeat(server.nodeId, 3 * HEARTBEAT_MS));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
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
  // The heartbeat starts with the first legacy request, before this replica records any stream in
  // the event store (a stream's replica is the only thing another replica asks about): a server
  // that answers 2026-07-28 POSTs only never draws its node id (no Web Crypto on its cold start).
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const sessions = new LiveSessions(server, {
    store,
    events,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    uninitializedMs: options.uninitializedSessionMs ?? 60_000,
    maxLive: maxSessions,
    sse,
    recording: () => {
      if (heartbeat === undefined && !closed) heartbeat = startHeartbeat(server, events);
    },
  });
  const followers = new Set<SseStream>();
  const streams: GetContext = { server, sessions, events, sse, followers };
  const running = new InFlight(options.maxInFlight, options.maxInFlightTotal);
  // Lists, not Sets: every request adds and removes (see live-list.ts).
  const inFlight = new LiveList<Promise<unknown>>();
  const live = new LiveList<Connection>();
  const auth = options.auth;
  const context: PostContext = {
    server,
    maxBodyBytes,
    behindProxy: options.behindProxy === true,
    ...(auth === undefined ? {} : { auth }),
    sessions,
    events,
    sse,
    live,
    inFlight: running,
    track(work) {
      const entry = inFlight.add(work);
      work.then(
        () => entry.remove(),
        (error: unknown) => {
          entry.remove();
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

  async function remove(request: HttpRequest, cors: ReplyHeaders, owner: string): Promise<HttpReply> {
    const version = request.headers.get(HEADER.protocolVersion);
    if (version !== null && MODERN_REVISIONS.includes(version)) {
      return emptyResponse(405, mergeHeaders({ allow: 'POST' }, cors));
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
      return refuse(403, forbiddenText(url, request.headers.get('host'), origin, allowedHosts), {});
    }
    const cors = corsHeaders(origin);
    if (closing !== undefined) {
      const text = 'Service Unavailable: the server is shutting down';
      return errorReply(503, ErrorCode.InternalError, text, { headers: cors });
    }
    const method = request.method;
    if (method === 'OPTIONS') return preflightResponse(origin, request);
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return emptyResponse(405, mergeHeaders({ allow: ALLOW }, cors));
    }
    // With authorization, nothing of a request is read before its token is verified.
    let principal: Principal | undefined;
    if (auth !== undefined) {
      const outcome = await authenticate(auth, server, request, cors);
      if (outcome instanceof HttpReply) return outcome;
      principal = outcome;
    }
    // `return await`: a promise returned as it is costs one more promise and turn.
    if (method === 'POST') return await servePost(context, request, cors, principal, execution);
    return method === 'GET'
      ? getStream(streams, request, cors, principalKey(principal))
      : remove(request, cors, principalKey(principal));
  }

  async function close(): Promise<void> {
    for (const connection of live.values()) connection.endSubscriptions();
    sessions.endSubscriptions();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)));
    await Promise.race([Promise.allSettled(inFlight.values()), timeout]);
    clearTimeout(timer);
    for (const connection of live.values()) connection.close();
    sessions.closeAll();
    // Followers of resumed streams end: their clients resume on another replica.
    for (const stream of followers) stream.close();
    closed = true;
    clearInterval(heartbeat);
    // Work aborted above settles on the next turns; let its replies go out.
    await Promise.race([
      Promise.allSettled(inFlight.values()),
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
