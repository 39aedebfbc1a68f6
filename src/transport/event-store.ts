/**
 * Where the events of legacy SSE streams are kept for resumption: the {@link EventStore}
 * interface, and {@link MemoryEventStore}, the bounded in-process default. Every event a legacy
 * session's stream carries (a POST's stream, or the standalone GET stream) has an id
 * `<streamId>.<seq>`: unique within the session, and naming its stream. A client whose stream
 * dropped sends a GET with `Last-Event-ID`; the replica it reaches replays the events of that
 * stream after the id, then follows the stream until its reply (see `resume.ts`). The node that
 * serves a stream beats a heart in the store, so that a replica can tell a stream whose server
 * died (its reply will never come: the client gets an error it can retry) from one still going.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Resumability and Redelivery": ids globally unique
 * within the session, encoding the stream; replay only that stream's events after the id),
 * ("Sending Messages to the Server": disconnection is not cancellation).
 * @module
 */
import type { JsonRpcMessage, RequestId } from '../protocol/messages.js';

/** What a stream is: whose, served where, ended by which reply. */
export interface StreamInfo {
  /** The session the stream belongs to. */
  sessionId: string;
  /** The node id of the replica serving it. */
  node: string;
  /** The request whose reply ends the stream; absent for the standalone GET stream. */
  requestId?: RequestId;
}

/** One stored event: its place in the stream (1, 2, ...) and its message. */
export interface StoredEvent {
  seq: number;
  message: JsonRpcMessage;
}

/** What {@link EventStore.read} finds of a stream. */
export interface StreamRead {
  info: StreamInfo;
  /** The events after the given one that the store still holds, in order. */
  events: StoredEvent[];
  /** True once the stream's last event (its reply) was stored. */
  ended: boolean;
}

/**
 * The storage of stream events. Every method is async and every value JSON, so that replicas can
 * share one (`RedisEventStore` of `baremcp/redis`). A store keeps each stream for a bounded time
 * and a bounded number of events; what it dropped is not replayed.
 */
export interface EventStore {
  /** Registers a stream before its first event. */
  open(streamId: string, info: StreamInfo): Promise<void>;
  /** Stores event `seq` of the stream (called in order, 1, 2, ...); `last` ends the stream. */
  append(streamId: string, seq: number, message: JsonRpcMessage, last: boolean): Promise<void>;
  /** The stream and its events after `afterSeq`, or undefined for an unknown or expired stream. */
  read(streamId: string, afterSeq: number): Promise<StreamRead | undefined>;
  /** Records that `node` is alive for the next `ttlMs` milliseconds. */
  heartbeat(node: string, ttlMs: number): Promise<void>;
  /** True while the last heartbeat of `node` has not lapsed. */
  alive(node: string): Promise<boolean>;
}

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /**
   * The most streams kept; beyond it the oldest (ended ones first) are dropped.
   * @default 1000
   */
  maxStreams?: number;
  /**
   * The most events kept per stream; beyond it its oldest are dropped.
   * @default 100
   */
  maxEventsPerStream?: number;
  /**
   * The most bytes of JSON kept in all; beyond it the oldest streams are dropped.
   * @default 33554432 (32 MiB)
   */
  maxBytes?: number;
  /**
   * How long a stream is kept after its last event, in milliseconds.
   * @default 300000 (5 minutes)
   */
  retainMs?: number;
  /** The clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

interface Stream {
  info: StreamInfo;
  events: Array<{ seq: number; json: string }>;
  ended: boolean;
  bytes: number;
  expiresAt: number;
}

/**
 * The in-process event store: bounded by streams, events per stream, bytes and time. Replicas in
 * several processes need a shared one; in one process it makes every stream resumable.
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, Stream>();
  readonly #beats = new Map<string, number>();
  readonly #maxStreams: number;
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #retainMs: number;
  readonly #now: () => number;
  #bytes = 0;

  /** @throws {TypeError} for a limit that is not a positive integer. */
  constructor(options: MemoryEventStoreOptions = {}) {
    const limit = (value: number | undefined, fallback: number, name: string): number => {
      const n = value ?? fallback;
      if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`MemoryEventStore: ${name} must be a positive integer`);
      return n;
    };
    this.#maxStreams = limit(options.maxStreams, 1000, 'maxStreams');
    this.#maxEvents = limit(options.maxEventsPerStream, 100, 'maxEventsPerStream');
    this.#maxBytes = limit(options.maxBytes, 32 * 1024 * 1024, 'maxBytes');
    this.#retainMs = limit(options.retainMs, 300_000, 'retainMs');
    this.#now = options.now ?? Date.now;
  }

  /** Number of streams kept. */
  get size(): number {
    return this.#streams.size;
  }

  /** Bytes of JSON kept. */
  get bytes(): number {
    return this.#bytes;
  }

  async open(streamId: string, info: StreamInfo): Promise<void> {
    this.#drop(streamId);
    this.#streams.set(streamId, { info: { ...info }, events: [], ended: false, bytes: 0, expiresAt: this.#now() + this.#retainMs });
    this.#trim();
  }

  async append(streamId: string, seq: number, message: JsonRpcMessage, last: boolean): Promise<void> {
    const stream = this.#live(streamId);
    if (stream === undefined) return;
    const json = JSON.stringify(message);
    stream.events.push({ seq, json });
    stream.bytes += json.length;
    this.#bytes += json.length;
    if (stream.events.length > this.#maxEvents) {
      const dropped = stream.events.shift() as { json: string };
      stream.bytes -= dropped.json.length;
      this.#bytes -= dropped.json.length;
    }
    stream.ended ||= last;
    stream.expiresAt = this.#now() + this.#retainMs;
    // Most recently written last: the oldest are dropped first.
    this.#streams.delete(streamId);
    this.#streams.set(streamId, stream);
    this.#trim();
  }

  async read(streamId: string, afterSeq: number): Promise<StreamRead | undefined> {
    const stream = this.#live(streamId);
    if (stream === undefined) return undefined;
    const events = stream.events
      .filter((event) => event.seq > afterSeq)
      .map((event) => ({ seq: event.seq, message: JSON.parse(event.json) as JsonRpcMessage }));
    return { info: { ...stream.info }, events, ended: stream.ended };
  }

  async heartbeat(node: string, ttlMs: number): Promise<void> {
    this.#beats.set(node, this.#now() + ttlMs);
    if (this.#beats.size > this.#maxStreams) {
      const now = this.#now();
      for (const [key, until] of this.#beats) if (until <= now) this.#beats.delete(key);
    }
  }

  async alive(node: string): Promise<boolean> {
    return (this.#beats.get(node) ?? 0) > this.#now();
  }

  #live(streamId: string): Stream | undefined {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return undefined;
    if (this.#now() < stream.expiresAt) return stream;
    this.#drop(streamId);
    return undefined;
  }

  #drop(streamId: string): void {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    this.#bytes -= stream.bytes;
    this.#streams.delete(streamId);
  }

  /** Drops expired streams, then the oldest (ended ones first) while over a limit. */
  #trim(): void {
    if (this.#streams.size <= this.#maxStreams && this.#bytes <= this.#maxBytes) return;
    const now = this.#now();
    for (const [id, stream] of this.#streams) if (now >= stream.expiresAt) this.#drop(id);
    for (const endedOnly of [true, false]) {
      for (const [id, stream] of this.#streams) {
        if (this.#streams.size <= this.#maxStreams && this.#bytes <= this.#maxBytes) return;
        if (!endedOnly || stream.ended) this.#drop(id);
      }
    }
  }
}

/** The SSE event id of event `seq` of stream `streamId`. */
export function eventId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

/** The stream and place an event id names, or undefined for one this server did not make. */
export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const match = /^([A-Za-z0-9_-]{8,64})\.(\d{1,15})$/.exec(id);
  if (match === null) return undefined;
  return { streamId: match[1] as string, seq: Number(match[2]) };
}

/** A new stream id: 96 random bits, base64url (16 characters). */
export function newStreamId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
