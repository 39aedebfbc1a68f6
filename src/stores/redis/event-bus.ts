/**
 * The event bus on Redis pub/sub: every replica publishes on one channel (`<prefix>bus`) and
 * listens on it through a connection of its own (`client.duplicate()`, or the `subscriber` given).
 * At most once, in order per publisher, as Redis pub/sub delivers.
 *
 * Spec: Redis PUBLISH, SUBSCRIBE.
 * @module
 */
import type { BusListener, BusMessage, EventBus } from '../../server/event-bus.js';
import { checkClient, type RedisClientLike, type RedisDuplicable, type RedisStoreOptions, type RedisSubscriberLike } from './client.js';

/** Options of {@link RedisEventBus}. */
export interface RedisEventBusOptions extends RedisStoreOptions {
  /**
   * A connected client for subscribing (pub/sub takes a connection of its own). Default: made with
   * `client.duplicate()` on first subscribe, and closed by {@link RedisEventBus.close}.
   */
  subscriber?: RedisSubscriberLike;
}

/**
 * An {@link EventBus} on Redis pub/sub.
 * @example
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const bus = new RedisEventBus({ client });
 * const server = createServer({ info, tools, bus });
 */
export class RedisEventBus implements EventBus {
  readonly #client: RedisClientLike;
  readonly #channel: string;
  readonly #given: RedisSubscriberLike | undefined;
  #subscriber: Promise<RedisSubscriberLike> | undefined;
  #owned: { close?(): Promise<unknown>; quit?(): Promise<unknown> } | undefined;
  readonly #listeners = new Set<BusListener>();
  readonly #onMessage = (text: string): void => {
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch {
      return;
    }
    for (const listener of this.#listeners) listener(message);
  };

  /** @throws {TypeError} for a client that is not a node-redis client. */
  constructor(options: RedisEventBusOptions) {
    this.#client = checkClient(options?.client, 'RedisEventBus');
    this.#channel = `${options.prefix ?? 'baremcp:'}bus`;
    this.#given = options.subscriber;
    if (this.#given === undefined && typeof (this.#client as Partial<RedisDuplicable>).duplicate !== 'function') {
      throw new TypeError('RedisEventBus: give a subscriber client, or a client with duplicate() (node-redis)');
    }
  }

  async publish(message: BusMessage): Promise<void> {
    await this.#client.sendCommand(['PUBLISH', this.#channel, JSON.stringify(message)]);
  }

  async subscribe(listener: BusListener): Promise<() => void> {
    this.#subscriber ??= this.#connect();
    await this.#subscriber;
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Stops listening; closes the subscribing connection it made. Safe to call twice. */
  async close(): Promise<void> {
    const pending = this.#subscriber;
    this.#subscriber = undefined;
    this.#listeners.clear();
    if (pending === undefined) return;
    const subscriber = await pending.catch(() => undefined);
    await subscriber?.unsubscribe(this.#channel, this.#onMessage).catch(() => {});
    const owned = this.#owned;
    this.#owned = undefined;
    await (owned?.close?.() ?? owned?.quit?.())?.catch(() => {});
  }

  async #connect(): Promise<RedisSubscriberLike> {
    let subscriber = this.#given;
    if (subscriber === undefined) {
      const made = (this.#client as RedisDuplicable).duplicate();
      await made.connect();
      this.#owned = made;
      subscriber = made;
    }
    await subscriber.subscribe(this.#channel, this.#onMessage);
    return subscriber;
  }
}
