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
  /**
   * The socket address the session was opened from; absent behind a proxy (`behindProxy`: every
   * client would have the proxy's) or where the runtime does not tell it.
   */
  address?: string;
}

/**
 * The storage of legacy sessions. Every method is async and every value JSON, so that an
 * implementation can keep sessions outside the process. A session lives `ttlMs` from its last
 * use (`get` and `update` renew it), and is gone after `delete`.
 */
export interface SessionStore {
  /**
   * Stores a new session; resolves false when the store holds as many as it may and cannot make
   * room. A full store should not lock new clients out: {@link MemorySessionStore} makes room by
   * dropping half-open sessions (`initialized: false`) first.
   */
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
   * The most sessions held at once. A full store makes room for a new one (see
   * {@link MemorySessionStore}); `create` resolves false only when it cannot.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * The most sessions one authenticated caller (`owner`, not `''`) holds; its next one takes the
   * place of one of its own.
   * @default a tenth of maxSessions
   */
  maxSessionsPerOwner?: number;
  /**
   * The most sessions opened from one socket address (`address`, recorded only when no proxy
   * stands in front, see `behindProxy`); the next one takes the place of one from that address.
   * @default a tenth of maxSessions
   */
  maxSessionsPerAddress?: number;
  /** The clock, in milliseconds since the epoch (tests pass their own). @default Date.now */
  now?: () => number;
}

interface Entry {
  json: string;
  expiresAt: number;
  /** Time of the last create, get or update. */
  usedAt: number;
  initialized: boolean;
  owner: string;
  address: string | undefined;
}

/**
 * The in-process session store: at most `maxSessions` sessions, each gone `ttlMs` after its last
 * use. A full table never locks a new client out: `create` first makes room in the smallest group
 * that is full (the caller's own sessions past `maxSessionsPerOwner`, those of its address past
 * `maxSessionsPerAddress`, then the whole table) by dropping, in that group, an expired session,
 * else the oldest that never went past `initialize`, else the least recently used one. So a
 * flood of half-open sessions makes room for a real client, and one caller or address can only
 * ever push out its own. Records are kept as JSON text, as a shared store would keep them, so
 * every read is a copy.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Session Management": a client whose session is gone
 * gets `404` and starts a new one with `initialize`), Basic / Lifecycle (`notifications/initialized`).
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #byAddress = new Map<string, Set<string>>();
  readonly #max: number;
  readonly #maxPerOwner: number;
  readonly #maxPerAddress: number;
  readonly #now: () => number;

  /** @throws {TypeError} when a limit is not a positive integer. */
  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxSessions ?? 10_000;
    const tenth = Math.max(1, Math.floor(max / 10));
    const perOwner = options.maxSessionsPerOwner ?? tenth;
    const perAddress = options.maxSessionsPerAddress ?? tenth;
    for (const [name, value] of [['maxSessions', max], ['maxSessionsPerOwner', perOwner], ['maxSessionsPerAddress', perAddress]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`MemorySessionStore: ${name} must be a positive integer`);
    }
    this.#max = max;
    this.#maxPerOwner = perOwner;
    this.#maxPerAddress = perAddress;
    this.#now = options.now ?? Date.now;
  }

  /** Number of sessions held (expired ones not yet dropped included). */
  get size(): number {
    return this.#sessions.size;
  }

  async create(id: string, record: SessionRecord, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    if (this.#sessions.has(id)) return false;
    const mine = record.owner === '' ? undefined : this.#byOwner.get(record.owner);
    if (mine !== undefined && mine.size >= this.#maxPerOwner) this.#evict(mine, now);
    const near = record.address === undefined ? undefined : this.#byAddress.get(record.address);
    if (near !== undefined && near.size >= this.#maxPerAddress) this.#evict(near, now);
    if (this.#sessions.size >= this.#max) this.#evict(this.#sessions.keys(), now);
    if (this.#sessions.size >= this.#max) return false;
    const address = record.address;
    this.#sessions.set(id, { json: JSON.stringify(record), expiresAt: now + ttlMs, usedAt: now, initialized: record.initialized, owner: record.owner, address });
    if (record.owner !== '') group(this.#byOwner, record.owner).add(id);
    if (address !== undefined) group(this.#byAddress, address).add(id);
    return true;
  }

  async get(id: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const entry = this.#live(id, ttlMs);
    return entry === undefined ? undefined : (JSON.parse(entry.json) as SessionRecord);
  }

  async update(id: string, mutate: (record: SessionRecord) => SessionRecord, ttlMs: number): Promise<SessionRecord | undefined> {
    const entry = this.#live(id, ttlMs);
    if (entry === undefined) return undefined;
    const next = mutate(JSON.parse(entry.json) as SessionRecord);
    entry.json = JSON.stringify(next);
    entry.initialized = next.initialized;
    return JSON.parse(entry.json) as SessionRecord;
  }

  async delete(id: string): Promise<boolean> {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return false;
    this.#remove(id, entry);
    return this.#now() < entry.expiresAt;
  }

  /** The entry of a session whose time has not run out, renewed; an expired one is dropped. */
  #live(id: string, ttlMs: number): Entry | undefined {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return undefined;
    const now = this.#now();
    if (now >= entry.expiresAt) {
      this.#remove(id, entry);
      return undefined;
    }
    entry.expiresAt = now + ttlMs;
    entry.usedAt = now;
    return entry;
  }

  /**
   * Drops one session of `ids` (oldest first, as created): the first expired or never
   * initialized one, else the least recently used.
   */
  #evict(ids: Iterable<string>, now: number): void {
    let lru: [string, Entry] | undefined;
    for (const id of ids) {
      const entry = this.#sessions.get(id) as Entry;
      if (now >= entry.expiresAt || !entry.initialized) {
        this.#remove(id, entry);
        return;
      }
      if (lru === undefined || entry.usedAt < lru[1].usedAt) lru = [id, entry];
    }
    if (lru !== undefined) this.#remove(lru[0], lru[1]);
  }

  #remove(id: string, entry: Entry): void {
    this.#sessions.delete(id);
    if (entry.owner !== '') ungroup(this.#byOwner, entry.owner, id);
    if (entry.address !== undefined) ungroup(this.#byAddress, entry.address, id);
  }
}

/** The set of ids under `key`, made when missing. */
function group(groups: Map<string, Set<string>>, key: string): Set<string> {
  let ids = groups.get(key);
  if (ids === undefined) groups.set(key, (ids = new Set()));
  return ids;
}

/** Takes `id` out of the set under `key`, and drops the set once empty. */
function ungroup(groups: Map<string, Set<string>>, key: string, id: string): void {
  const ids = groups.get(key);
  ids?.delete(id);
  if (ids?.size === 0) groups.delete(key);
}
