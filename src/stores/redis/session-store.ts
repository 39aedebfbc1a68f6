/**
 * Legacy sessions in Redis, shared by every replica: one key per session holding its JSON record,
 * with a sliding expiry (`PX`, renewed by `GETEX` on every read). Updates are compare-and-set in a
 * Lua script, retried when another replica wrote in between.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Session Management").
 * @module
 */
import type { SessionRecord, SessionStore } from '../../transport/session-store.js';
import { checkClient, runScript, type RedisClientLike, type RedisStoreOptions } from './client.js';

/** Compare-and-set: KEYS[1] is set to ARGV[2] (PX ARGV[3]) only if it still holds ARGV[1]. */
const CAS = `local v = redis.call('GET', KEYS[1])
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** How many times an update is tried against concurrent writers. */
const MAX_TRIES = 20;

/**
 * A {@link SessionStore} in Redis. Sessions are bounded by time (each expires `ttlMs` after its
 * last use) and by the Redis server's own memory limits.
 * @example
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * createFetchHandler(server, { sessionStore: new RedisSessionStore({ client }) });
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;

  /** @throws {TypeError} for a client that is not a node-redis client. */
  constructor(options: RedisStoreOptions) {
    this.#client = checkClient(options?.client, 'RedisSessionStore');
    this.#prefix = `${options.prefix ?? 'baremcp:'}session:`;
  }

  async create(id: string, record: SessionRecord, ttlMs: number): Promise<boolean> {
    const reply = await this.#client.sendCommand(['SET', this.#prefix + id, JSON.stringify(record), 'PX', String(ttlMs), 'NX']);
    return reply === 'OK';
  }

  async get(id: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const text = await this.#client.sendCommand(['GETEX', this.#prefix + id, 'PX', String(ttlMs)]);
    return typeof text === 'string' ? (JSON.parse(text) as SessionRecord) : undefined;
  }

  async update(id: string, mutate: (record: SessionRecord) => SessionRecord, ttlMs: number): Promise<SessionRecord | undefined> {
    const key = this.#prefix + id;
    for (let i = 0; i < MAX_TRIES; i++) {
      const text = await this.#client.sendCommand(['GET', key]);
      if (typeof text !== 'string') return undefined;
      const next = JSON.stringify(mutate(JSON.parse(text) as SessionRecord));
      const reply = Number(await runScript(this.#client, CAS, [key], [text, next, ttlMs]));
      if (reply === 1) return JSON.parse(next) as SessionRecord;
      if (reply === -1) return undefined;
    }
    throw new Error(`RedisSessionStore: session ${id} changed ${MAX_TRIES} times while being updated`);
  }

  async delete(id: string): Promise<boolean> {
    return Number(await this.#client.sendCommand(['DEL', this.#prefix + id])) > 0;
  }
}
