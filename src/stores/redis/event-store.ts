/**
 * Stream events in Redis, shared by every replica, for resuming legacy SSE streams anywhere: per
 * stream an info key (JSON), a list of events (trimmed to the last `maxEventsPerStream`) and an
 * end marker, all expiring `retainMs` after the last event; per node a heartbeat key.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Resumability and Redelivery").
 * @module
 */
import type { JsonRpcMessage } from '../../protocol/messages.js';
import type { EventStore, StoredEvent, StreamInfo, StreamRead } from '../../transport/event-store.js';
import { checkClient, runScript, type RedisClientLike, type RedisStoreOptions } from './client.js';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends RedisStoreOptions {
  /**
   * The most events kept per stream (the oldest are dropped).
   * @default 100
   */
  maxEventsPerStream?: number;
  /**
   * How long a stream is kept after its last event, in milliseconds.
   * @default 300000 (5 minutes)
   */
  retainMs?: number;
}

const APPEND = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if ARGV[4] == '1' then redis.call('SET', KEYS[3], '1', 'PX', ARGV[3]) end
return 1`;

const READ = `local info = redis.call('GET', KEYS[1])
if not info then return false end
return {info, redis.call('EXISTS', KEYS[3]), redis.call('LRANGE', KEYS[2], 0, -1)}`;

/**
 * An {@link EventStore} in Redis.
 * @example
 * createFetchHandler(server, { eventStore: new RedisEventStore({ client }) });
 */
export class RedisEventStore implements EventStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;
  readonly #maxEvents: number;
  readonly #retainMs: number;

  /** @throws {TypeError} for a client that is not a node-redis client, or a limit that is not a positive integer. */
  constructor(options: RedisEventStoreOptions) {
    this.#client = checkClient(options?.client, 'RedisEventStore');
    this.#prefix = options.prefix ?? 'baremcp:';
    const limit = (value: number | undefined, fallback: number, name: string): number => {
      const n = value ?? fallback;
      if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`RedisEventStore: ${name} must be a positive integer`);
      return n;
    };
    this.#maxEvents = limit(options.maxEventsPerStream, 100, 'maxEventsPerStream');
    this.#retainMs = limit(options.retainMs, 300_000, 'retainMs');
  }

  #keys(streamId: string): string[] {
    const base = `${this.#prefix}stream:${streamId}:`;
    return [`${base}info`, `${base}events`, `${base}ended`];
  }

  async open(streamId: string, info: StreamInfo): Promise<void> {
    const [infoKey, events, ended] = this.#keys(streamId) as [string, string, string];
    await this.#client.sendCommand(['DEL', events, ended]);
    await this.#client.sendCommand(['SET', infoKey, JSON.stringify(info), 'PX', String(this.#retainMs)]);
  }

  async append(streamId: string, seq: number, message: JsonRpcMessage, last: boolean): Promise<void> {
    const event = JSON.stringify({ seq, message });
    await runScript(this.#client, APPEND, this.#keys(streamId), [event, this.#maxEvents, this.#retainMs, last ? 1 : 0]);
  }

  async read(streamId: string, afterSeq: number): Promise<StreamRead | undefined> {
    const reply = await runScript(this.#client, READ, this.#keys(streamId), []);
    if (!Array.isArray(reply)) return undefined;
    const [info, ended, list] = reply as [string, number, string[]];
    const events = list.map((text) => JSON.parse(text) as StoredEvent).filter((event) => event.seq > afterSeq);
    return { info: JSON.parse(info) as StreamInfo, events, ended: Number(ended) === 1 };
  }

  async heartbeat(node: string, ttlMs: number): Promise<void> {
    await this.#client.sendCommand(['SET', `${this.#prefix}node:${node}`, '1', 'PX', String(ttlMs)]);
  }

  async alive(node: string): Promise<boolean> {
    return Number(await this.#client.sendCommand(['EXISTS', `${this.#prefix}node:${node}`])) === 1;
  }
}
