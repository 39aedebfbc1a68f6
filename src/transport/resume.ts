/**
 * Resuming a legacy SSE stream: a GET with `Last-Event-ID` on any replica replays the events of
 * that stream after the id, from the {@link EventStore}. A POST's stream is then followed until its
 * reply (the replica that serves it keeps storing its events after the client went away); if that
 * replica died first, the client gets an error for its request that says to send it again, so
 * that every request gets exactly one reply. The standalone GET stream goes on here as the
 * session's new standalone stream.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Resumability and Redelivery": replay the messages
 * after the last event id on the stream that was disconnected, never another stream's;
 * "Listening for Messages from the Server").
 * @module
 */
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import type { Server } from '../server/server.js';
import { eventId, parseEventId, type EventStore, type StreamRead } from './event-store.js';
import type { Session } from './sessions.js';
import { SseStream, type SseOptions } from './sse.js';

/** What resumption needs of the handler. */
export interface ResumeContext {
  server: Server;
  events: EventStore;
  sse: SseOptions;
  /** The resumed streams being followed (a graceful close ends them: the client resumes elsewhere). */
  followers: Set<SseStream>;
}

/** How often a followed stream reads the store for new events, in milliseconds. */
export const FOLLOW_INTERVAL_MS = 100;

/** How often a followed stream checks that its server is alive, in followed reads. */
const ALIVE_EVERY = 10;

/** The message of the error a request gets when the replica serving it died. */
export const SERVER_GONE =
  'Internal error: the server replica serving this request stopped before it answered; send the request again';

/**
 * The stream a GET with `Last-Event-ID` resumes: undefined when the id is not one of this
 * session's (expired, or never ours), so that the GET opens a fresh standalone stream.
 */
export async function findStream(
  events: EventStore,
  session: Session,
  lastEventId: string,
): Promise<{ read: StreamRead; streamId: string; seq: number } | undefined> {
  const parsed = parseEventId(lastEventId);
  if (parsed === undefined) return undefined;
  const read = await events.read(parsed.streamId, parsed.seq);
  if (read === undefined || read.info.sessionId !== session.id) return undefined;
  return { read, ...parsed };
}

/**
 * The body of a resumed POST stream: the events after `seq`, then the rest as it is stored, up to
 * the reply (or, when the serving replica died, an error reply stored and sent in its place).
 */
export function followStream(
  context: ResumeContext,
  streamId: string,
  seq: number,
  first: StreamRead,
): SseStream {
  let cursor = seq;
  let timer: ReturnType<typeof setInterval> | undefined;
  let reads = 0;
  let busy = false;
  const stop = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    context.followers.delete(stream);
  };
  const stream: SseStream = new SseStream({ ...context.sse, startWithComment: true, onabort: stop });
  const emit = (read: StreamRead): boolean => {
    for (const event of read.events) {
      if (event.seq <= cursor) continue;
      cursor = event.seq;
      stream.send(event.message, eventId(streamId, event.seq));
    }
    if (!read.ended) return false;
    stream.close();
    stop();
    return true;
  };
  const poll = async (): Promise<void> => {
    if (!stream.open) {
      stop();
      return;
    }
    if (busy) return;
    busy = true;
    try {
      const read = await context.events.read(streamId, cursor);
      if (read === undefined) {
        stream.close();
        stop();
        return;
      }
      if (emit(read) || ++reads % ALIVE_EVERY !== 0) return;
      const node = read.info.node;
      if (node === context.server.nodeId || (await context.events.alive(node))) return;
      // Its server died: the reply never comes. The error takes its place, for this client and
      // any later resumption.
      const reply = errorResponse(read.info.requestId, ErrorCode.InternalError, SERVER_GONE);
      await context.events.append(streamId, cursor + 1, reply, true);
      const again = await context.events.read(streamId, cursor);
      if (again !== undefined) emit(again);
    } catch (error) {
      context.server.report(`event store: could not follow stream ${streamId}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      busy = false;
    }
  };
  if (!emit(first)) {
    // Not unref'd: a client following a stream holds the process, as its socket would.
    timer = setInterval(() => void poll(), FOLLOW_INTERVAL_MS);
    context.followers.add(stream);
  }
  return stream;
}

/** Writes the standalone stream's missed events (after `seq`) on the session's new stream. */
export function replayStandalone(stream: SseStream, streamId: string, seq: number, read: StreamRead): void {
  for (const event of read.events) {
    if (event.seq > seq) stream.send(event.message, eventId(streamId, event.seq));
  }
}
