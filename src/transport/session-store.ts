/**
 * Where legacy sessions (2025-03-26 to 2025-11-25) live, so that any replica can serve any request
 * of a session: the {@link SessionStore} interface over plain JSON {@link SessionRecord}s, with a
 * sliding time-to-live, and {@link MemorySessionStore}, the bounded in-process default (one
 * replica). A shared store (`RedisSessionStore` of `baremcp/redis`) lets replicas behind a plain
 * round-robin balancer share them. What a session holds that is not data (its requests in flight,
 * the server's questions waiting for the client's answer, its open streams) stays with the replica
 * that serves it; the event bus reaches it there.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Session Management": the server MUST answer `404` to
 * an ended session's id), Basic / Lifecycle, Basic / Security Best Practices ("Session
 * Hijacking": bind the session to the user).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';

/**
 * A legacy session as a store keeps it: plain JSON, everything the handshake and later requests
 * recorded that the next request, on any replica, needs.
 */
export interface SessionRecord {
  /** The caller that opened it (`principalKey`; `''` without authorization). */
  owner: string;
  /** The revision `initialize` negotiated. */
  protocolVersion: string;
  /** The client's `clientInfo` name and version and its `capabilities`. */
  client: { name?: string; version?: string; capabilities: JsonObject };
  /** The level of `logging/setLevel`; absent: no log notifications. */
  logLevel?: string;
  /** True once `notifications/initialized` arrived. */
  initialized: boolean;
  /** URIs of `resources/subscribe`. */
  resourceSubscriptions: string[];
}

/**
 * The storage of legacy sessions. Every method is async and every value JSON, so that an
 * implementation can keep sessions outside the process. A session lives `ttlMs` from its last
 * use (`get` and `update` renew it), and is gone after `delete`.
 */
export interface SessionStore {
  /** Stores a new session; resolves false when the store holds as many as it may. */
  create(id: string, record: SessionRecord, ttlMs: number): Promise<boolean>;
  /** The session (its time-to-live renewed to `ttlMs`), or undefined for an unknown or expired id. */
  get(id: string, ttlMs: number): Promise<SessionRecord | undefined>;
  /**
   * Replaces the session with `mutate(current)`, atomically (a shared store may run the pure
   * `mutate` again when another writer won), and renews it. Resolves to the session as stored;
   * undefined for an unknown or expired id.
   */
  update(id: string, mutate: (record: SessionRecord) => SessionRecord, ttlMs: number): Promise<SessionRecord | undefined>;
  /** Ends the session; resolves false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * The most sessions held at once; `create` beyond it (after dropping expired ones) resolves false.
   * @default 10000
   */
  maxSessions?: number;
  /** The clock, in milliseconds since the epoch (tests pass their own). @default Date.now */
  now?: () => number;
}

interface Entry {
  json: string;
  expiresAt: number;
}

/**
 * The in-process session store: at most `maxSessions` sessions, each gone `ttlMs` after its last
 * use (checked when touched, and swept when full). Records are kept as JSON text, as a shared
 * store would keep them, so every read is a copy.
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  readonly #max: number;
  readonly #now: () => number;

  /** @throws {TypeError} when `maxSessions` is not a positive integer. */
  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxSessions ?? 10_000;
    if (!Number.isSafeInteger(max) || max < 1) throw new TypeError('MemorySessionStore: maxSessions must be a positive integer');
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** Number of sessions held (expired ones not yet swept included). */
  get size(): number {
    return this.#sessions.size;
  }

  async create(id: string, record: SessionRecord, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    if (this.#sessions.size >= this.#max) {
      for (const [key, entry] of this.#sessions) if (now >= entry.expiresAt) this.#sessions.delete(key);
    }
    if (this.#sessions.size >= this.#max) return false;
    this.#sessions.set(id, { json: JSON.stringify(record), expiresAt: now + ttlMs });
    return true;
  }

  async get(id: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const entry = this.#live(id, ttlMs);
    return entry === undefined ? undefined : (JSON.parse(entry.json) as SessionRecord);
  }

  async update(id: string, mutate: (record: SessionRecord) => SessionRecord, ttlMs: number): Promise<SessionRecord | undefined> {
    const entry = this.#live(id, ttlMs);
    if (entry === undefined) return undefined;
    entry.json = JSON.stringify(mutate(JSON.parse(entry.json) as SessionRecord));
    return JSON.parse(entry.json) as SessionRecord;
  }

  async delete(id: string): Promise<boolean> {
    const entry = this.#sessions.get(id);
    this.#sessions.delete(id);
    return entry !== undefined && this.#now() < entry.expiresAt;
  }

  /** The entry of a session whose time has not run out, renewed; an expired one is dropped. */
  #live(id: string, ttlMs: number): Entry | undefined {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return undefined;
    const now = this.#now();
    if (now >= entry.expiresAt) {
      this.#sessions.delete(id);
      return undefined;
    }
    entry.expiresAt = now + ttlMs;
    return entry;
  }
}
