/**
 * Sessions of the legacy revisions (2025-03-26 to 2025-11-25) over Streamable HTTP, as one replica
 * serves them. A session's data (its handshake, log level, subscriptions, owner) lives in the
 * {@link SessionStore}, so that any replica sharing the store can serve it; each replica keeps a
 * live copy of the sessions it serves (a {@link Connection}, restored from the record on every
 * request) with what cannot be stored: requests in flight, the server's questions waiting for the
 * client, the standalone GET stream. The event bus links the copies: a stray answer or cancel goes
 * to the replica that waits for it, an ended session ends everywhere, and a newly opened GET
 * stream closes the one another replica held (each message goes on one stream only).
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Session Management": cryptographically secure ids of
 * visible ASCII, 404 after termination; "Listening for Messages from the Server": a message goes
 * on one stream only), Basic / Security Best Practices ("Session Hijacking": bind the session to
 * the user).
 * @module
 */
import type { JsonRpcMessage } from '../protocol/messages.js';
import type { Connection, SessionChange, SessionSnapshot } from '../server/connection.js';
import type { LoggingLevel } from '../server/context.js';
import type { BusMessage } from '../server/event-bus.js';
import type { JsonValue } from '../protocol/messages.js';
import type { Server } from '../server/server.js';
import type { EventStore } from './event-store.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import { SseStream, type SseOptions } from './sse.js';
import { StreamJournal } from './stream-journal.js';

/** One legacy session as this replica serves it. */
export interface Session {
  /** The `Mcp-Session-Id`: 32 characters of base64url (192 random bits). */
  readonly id: string;
  /** The live connection: the session's state, restored from the store, and its requests. */
  readonly connection: Connection;
  /** Time of the last request here, in milliseconds since the epoch. */
  lastSeen: number;
  /** The standalone GET stream, while one is open here. */
  stream: SseStream | undefined;
  /** The journal of the standalone stream (its events are resumable). */
  journal: StreamJournal | undefined;
  /** POST requests of this session being served here now; a busy session never expires. */
  busy: number;
  /**
   * The caller that opened the session (`principalKey`; `''` without authorization): only that
   * caller may use it, with any of its tokens.
   */
  readonly owner: string;
  /** Writes to the store (state changes, relayed messages) still under way. */
  writes: Promise<void>;
  pending: number;
}

/** Options for {@link LiveSessions}. */
export interface LiveSessionsOptions {
  /** Where sessions live (shared by the replicas). */
  store: SessionStore;
  /** Where stream events live, for resumption. */
  events: EventStore;
  /** A session unused this long (no request, no open stream), in milliseconds, is gone. */
  idleMs: number;
  /**
   * A session that has not sent `notifications/initialized` is gone this long after its last
   * use, in milliseconds (at most `idleMs`): half-open sessions do not hold their place for long.
   */
  uninitializedMs: number;
  /** Most live copies kept here; beyond it idle ones are dropped (their records stay). */
  maxLive: number;
  /** Options of the standalone GET streams. */
  sse: SseOptions;
  /**
   * Called before a stream of this replica is first recorded in `events` (the endpoint starts
   * its heartbeat then: only a replica with streams in the store must be seen alive).
   */
  recording?: () => void;
}

/** A new session id: 24 bytes from `crypto.getRandomValues`, base64url (visible ASCII only). */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * The record of a session, from its connection's state.
 * @param address the socket address it is opened from, when it is to count (see `SessionRecord`).
 */
export function toRecord(owner: string, state: SessionSnapshot, address?: string): SessionRecord {
  const record: SessionRecord = {
    owner,
    protocolVersion: state.protocolVersion ?? '',
    client: state.client,
    initialized: state.initialized,
    resourceSubscriptions: state.resourceSubscriptions,
  };
  if (state.logLevel !== undefined) record.logLevel = state.logLevel;
  if (address !== undefined) record.address = address;
  return record;
}

/** The connection's state, from a session's record. */
function toSnapshot(record: SessionRecord): SessionSnapshot {
  return {
    protocolVersion: record.protocolVersion === '' ? undefined : record.protocolVersion,
    client: record.client,
    logLevel: record.logLevel as LoggingLevel | undefined,
    initialized: record.initialized,
    resourceSubscriptions: record.resourceSubscriptions,
  };
}

/** Applies one change of a session's state to its record. */
function applyChange(record: SessionRecord, change: SessionChange): SessionRecord {
  if (change.kind === 'logLevel') return { ...record, logLevel: change.level };
  if (change.kind === 'initialized') return { ...record, initialized: true };
  const others = record.resourceSubscriptions.filter((uri) => uri !== change.uri);
  return { ...record, resourceSubscriptions: change.on ? [...others, change.uri] : others };
}

/** The bus messages between the replicas' copies of a session. */
const RELAY = 'session/message';
const ENDED = 'session/ended';
const STREAM = 'session/stream';

/** The legacy sessions one handler serves. */
export class LiveSessions {
  readonly #server: Server;
  readonly #options: LiveSessionsOptions;
  readonly #live = new Map<string, Session>();
  readonly #unsubscribe: Array<() => void>;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(server: Server, options: LiveSessionsOptions) {
    this.#server = server;
    this.#options = options;
    const local = (message: BusMessage): Session | undefined =>
      typeof message.session === 'string' ? this.#live.get(message.session) : undefined;
    this.#unsubscribe = [
      server.onBroadcast(RELAY, (m) => void local(m)?.connection.deliver(m.message)),
      server.onBroadcast(ENDED, (m) => {
        const session = local(m);
        if (session !== undefined) this.#drop(session);
      }),
      server.onBroadcast(STREAM, (m) => {
        const session = local(m);
        session?.stream?.close();
        if (session !== undefined) session.stream = undefined;
      }),
    ];
  }

  /** Number of live copies here. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * Opens a session for an `initialize` whose handshake `record` describes: stored first (every
   * replica finds it once the reply leaves), then kept here.
   * @returns the session, or undefined when the store or this replica holds as many as it may.
   */
  async create(record: SessionRecord): Promise<Session | undefined> {
    if (!this.#makeRoom()) return undefined;
    const id = newSessionId();
    if (!(await this.#options.store.create(id, record, this.#ttl(record.initialized)))) return undefined;
    if (!this.#makeRoom()) {
      await this.#options.store.delete(id);
      return undefined;
    }
    return this.#materialize(id, record);
  }

  /**
   * The session with this id (marked as seen, its state as stored now), or undefined (unknown,
   * ended, expired, or opened by another caller than `owner`: to that caller it does not exist).
   */
  async get(id: string | null, owner = ''): Promise<Session | undefined> {
    if (id === null) return undefined;
    const record = await this.#options.store.get(id, this.#options.idleMs);
    let session = this.#live.get(id);
    if (record === undefined) {
      if (session !== undefined) this.#drop(session);
      return undefined;
    }
    if (record.owner !== owner) return undefined;
    // The read renewed it for idleMs; a half-open session gets no more than uninitializedMs.
    if (!record.initialized && this.#ttl(false) < this.#options.idleMs) {
      await this.#options.store.update(id, (r) => r, this.#ttl(false));
    }
    if (session === undefined) {
      if (!this.#makeRoom()) return undefined;
      session = this.#materialize(id, record);
    } else if (session.pending === 0) {
      // Another replica may have changed it (log level, subscriptions).
      session.connection.restore(toSnapshot(record));
    }
    session.lastSeen = Date.now();
    return session;
  }

  /** Resolves once the session's state changes and relayed messages were handed over. */
  settled(session: Session): Promise<void> {
    return session.writes;
  }

  /**
   * Opens the standalone GET stream of a session here, and closes the one another replica held.
   * @returns the stream, or undefined when one is already open here (one per session, so that no
   *   message is sent twice).
   */
  openStream(session: Session): SseStream | undefined {
    if (session.stream?.open === true) return undefined;
    const stream: SseStream = new SseStream({
      ...this.#options.sse,
      startWithComment: true,
      onabort: () => {
        if (session.stream === stream) session.stream = undefined;
        session.lastSeen = Date.now();
      },
    });
    session.stream = stream;
    this.recording();
    session.journal = new StreamJournal(this.#options.events, { sessionId: session.id, node: this.#server.nodeId }, (line) =>
      this.#server.report(line),
    );
    this.#queue(session, this.#server.broadcast({ type: STREAM, session: session.id }));
    return stream;
  }

  /**
   * Says that a stream of this replica is about to be recorded in the event store (see
   * `LiveSessionsOptions.recording`).
   */
  recording(): void {
    this.#options.recording?.();
  }

  /** Ends a session everywhere: gone from the store, its copies ended on every replica. */
  async delete(id: string): Promise<boolean> {
    const existed = await this.#options.store.delete(id);
    const session = this.#live.get(id);
    if (session !== undefined) this.#drop(session);
    await this.#server.broadcast({ type: ENDED, session: id });
    return existed;
  }

  /** Ends subscriptions gracefully on every session (the first step of a graceful close). */
  endSubscriptions(): void {
    for (const session of this.#live.values()) session.connection.endSubscriptions();
  }

  /** Ends every live copy here (the sessions stay in the store for the other replicas). */
  closeAll(): void {
    for (const session of this.#live.values()) this.#end(session);
    this.#live.clear();
    this.#stopSweeper();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
  }

  /**
   * Drops the live copies unused here for a while (not busy, no open stream): their records stay,
   * and a later request restores them. Renews the sessions that are busy or streaming here.
   */
  sweep(now: number = Date.now()): void {
    const idle = Math.min(this.#options.idleMs, 60_000);
    for (const session of this.#live.values()) {
      if (session.stream?.open === true || session.busy > 0) {
        session.lastSeen = now;
        const ttl = this.#ttl(session.connection.snapshot().initialized);
        // A session gone from the store (ended elsewhere, or made room for another) ends here.
        const renewed = this.#options.store.get(session.id, ttl).then((record) => {
          if (record === undefined) this.#drop(session);
        });
        this.#queue(session, renewed);
      } else if (session.pending === 0 && now - session.lastSeen > idle) {
        this.#drop(session);
      }
    }
  }

  /** The time-to-live of a session, by whether it went past `initialize`. */
  #ttl(initialized: boolean): number {
    return initialized ? this.#options.idleMs : Math.min(this.#options.uninitializedMs, this.#options.idleMs);
  }

  #materialize(id: string, record: SessionRecord): Session {
    const server = this.#server;
    let current: Session | undefined;
    const connection = server.connect({
      // Unsolicited messages (list changes, resource updates) go on the open GET stream, if any.
      send: (message: JsonRpcMessage) => {
        const stream = current?.stream;
        if (stream?.open === true) stream.send(message, current?.journal?.record(message));
      },
      onchange: (change) => {
        if (current === undefined) return;
        const store = this.#options.store;
        this.#queue(current, store.update(id, (r) => applyChange(r, change), this.#options.idleMs).then(() => undefined));
      },
      onstray: (message) => {
        if (current !== undefined) this.#queue(current, server.broadcast({ type: RELAY, session: id, message: message as unknown as JsonValue }));
      },
      requestIdPrefix: `baremcp-${server.nodeId}-`,
    });
    connection.restore(toSnapshot(record));
    const session: Session = {
      id,
      connection,
      lastSeen: Date.now(),
      stream: undefined,
      journal: undefined,
      busy: 0,
      owner: record.owner,
      writes: Promise.resolve(),
      pending: 0,
    };
    current = session;
    this.#live.set(id, session);
    this.#startSweeper();
    return session;
  }

  /** Adds a write to the session's queue (a failure is reported, never thrown). */
  #queue(session: Session, write: Promise<void>): void {
    session.pending++;
    const done = write.then(
      () => undefined,
      (error: unknown) => this.#server.report(`session store: ${error instanceof Error ? error.message : String(error)}`),
    );
    session.writes = Promise.all([session.writes, done]).then(() => {
      session.pending--;
    });
  }

  /** True when there is room for one more live copy (an idle one dropped if need be). */
  #makeRoom(): boolean {
    if (this.#live.size < this.#options.maxLive) return true;
    let oldest: Session | undefined;
    for (const session of this.#live.values()) {
      if (session.busy > 0 || session.stream?.open === true || session.pending > 0) continue;
      if (oldest === undefined || session.lastSeen < oldest.lastSeen) oldest = session;
    }
    if (oldest === undefined) return false;
    this.#drop(oldest);
    return true;
  }

  #drop(session: Session): void {
    this.#live.delete(session.id);
    this.#end(session);
    if (this.#live.size === 0) this.#stopSweeper();
  }

  #end(session: Session): void {
    session.stream?.close();
    session.stream = undefined;
    session.connection.close();
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    const every = Math.max(1000, Math.min(this.#options.idleMs, 60_000) / 2);
    this.#sweeper = setInterval(() => this.sweep(), every);
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  #stopSweeper(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
