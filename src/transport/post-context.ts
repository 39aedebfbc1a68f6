/**
 * What the POST handlers of the Streamable HTTP endpoint share: the endpoint's parts they use
 * ({@link PostContext}) and the small readings of a decoded message both eras make.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Sending Messages to the Server"); MCP 2026-07-28,
 * Basic / Transports / Streamable HTTP ("Sending Messages").
 * @module
 */
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import { hasOwn, isObject, isRequestId, type RequestId } from '../protocol/messages.js';
import type { ResourceServer } from '../auth/resource-server.js';
import type { Connection, Reply } from '../server/connection.js';
import type { LiveList } from '../server/live-list.js';
import type { Server } from '../server/server.js';
import type { EventStore } from './event-store.js';
import type { InFlight } from './in-flight.js';
import type { LiveSessions } from './sessions.js';
import type { SseOptions } from './sse.js';

/** What the POST handlers share with the endpoint. */
export interface PostContext {
  server: Server;
  /** The resource server, when the endpoint requires authorization. */
  auth?: ResourceServer;
  sessions: LiveSessions;
  /** Where the events of legacy streams are stored, for resumption. */
  events: EventStore;
  sse: SseOptions;
  /** Registers work in flight, so that a graceful close can wait for it. */
  track(work: Promise<unknown>): void;
  /** The 2026-07-28 connections in flight (each serves one POST). */
  live: LiveList<Connection>;
  /** The requests running now, per caller and in all (see `in-flight.ts`). */
  inFlight: InFlight;
  /** Largest request body, in bytes (`maxBodyBytes`). */
  maxBodyBytes: number;
  /** The socket address tells nothing of the client (`behindProxy`). */
  behindProxy: boolean;
}

/** The id of a request-shaped message, when it has a usable one. */
export function idOf(message: unknown): RequestId | undefined {
  return isObject(message) && isRequestId(message.id) ? message.id : undefined;
}

/** True for a message that expects a reply: a `method` and an `id`. */
export function isRequestShaped(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && hasOwn(message, 'id');
}

/** The answer to `message` should `handle` ever reject (it never does): `-32603`. */
function internalError(message: unknown): Reply {
  return errorResponse(idOf(message), ErrorCode.InternalError, 'Internal error');
}

/** `handle` never rejects; should it ever, the request still gets an answer (`-32603`). */
export function settle(reply: Promise<Reply>, message: unknown): Promise<Reply> {
  return reply.catch(() => internalError(message));
}

/**
 * `settle(reply, message).then(then)` in one step (one promise and one turn fewer per request):
 * `then` gets the reply, or the `-32603` answer should `handle` ever reject.
 */
export function settleThen<T>(reply: Promise<Reply>, message: unknown, then: (reply: Reply) => T): Promise<Awaited<T>> {
  return reply.then(then, () => then(internalError(message))) as Promise<Awaited<T>>;
}
