/**
 * The event bus between replicas: what one replica must tell the others so that any replica can
 * serve any request. List changes, resource updates and task status reach listeners on every
 * replica; a legacy session's stray messages (the client's answer to a server-to-client request,
 * `notifications/cancelled` for a request running elsewhere) reach the replica they belong to.
 * The {@link EventBus} interface is pub/sub of JSON objects, so that a shared engine (Redis
 * pub/sub, see `baremcp/redis`) can carry it; {@link MemoryEventBus} links servers in one process
 * (tests, several handlers in one process). {@link Broadcaster} is the server's side: it tags what
 * it publishes with its node id and hands what others published to the handlers of each type.
 *
 * Delivery is at most once and in order per publisher (as Redis pub/sub): a replica that is down
 * misses what was published meanwhile. Nothing that must survive goes only over the bus: sessions,
 * stream events and tasks live in their stores.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("List Changed Notification"), Server / Resources
 * ("Subscriptions"), Basic / Utilities / Cancellation; SEP-2663 (Tasks extension), "Task Status
 * Notifications".
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';

/** A message on the bus: a JSON object whose `type` says who handles it. */
export interface BusMessage extends JsonObject {
  /** e.g. `list_changed`, `resources/updated`, `session/response`. */
  type: string;
}

/** Receives every message published on the bus (its own too). */
export type BusListener = (message: BusMessage) => void;

/**
 * A pub/sub channel shared by the replicas of one server. Every value is JSON.
 * @see MemoryEventBus, RedisEventBus (`baremcp/redis`)
 */
export interface EventBus {
  /** Publishes `message` to every subscriber on every replica; resolves once it was handed over. */
  publish(message: BusMessage): Promise<void>;
  /**
   * Calls `listener` with every message published from now on (own ones included); resolves once
   * the subscription is active, to the function that ends it.
   */
  subscribe(listener: BusListener): Promise<() => void>;
}

/**
 * An in-process bus: every subscriber gets a copy (JSON round trip, as over a network) of every
 * message, on a later microtask. For servers in one process (tests, several handlers); replicas in
 * several processes need a shared one (`RedisEventBus`).
 */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Set<BusListener>();

  /** Number of subscribers. */
  get size(): number {
    return this.#listeners.size;
  }

  async publish(message: BusMessage): Promise<void> {
    const text = JSON.stringify(message);
    for (const listener of [...this.#listeners]) {
      queueMicrotask(() => {
        if (this.#listeners.has(listener)) listener(JSON.parse(text) as BusMessage);
      });
    }
  }

  async subscribe(listener: BusListener): Promise<() => void> {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}

/** Handles a message another replica published. */
export type BusHandler = (message: BusMessage) => void;

/** A node id: 72 random bits, base64url (12 characters). */
export function newNodeId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * A server's side of the bus: publishes with its node id as `origin`, and hands each message of
 * another origin to the handlers registered for its type. Without a bus, publishing does nothing
 * and the server is a replica of one.
 */
export class Broadcaster {
  #nodeId: string | undefined;
  readonly #handlers = new Map<string, Set<BusHandler>>();
  readonly #report: (line: string) => void;
  #bus: EventBus | undefined;
  #unsubscribe: Promise<(() => void) | undefined> = Promise.resolve(undefined);

  constructor(report: (line: string) => void) {
    this.#report = report;
  }

  /**
   * This process's node id (unique per server object), drawn on first use: Web Crypto is loaded
   * only when something needs the id (a bus message, a legacy HTTP session), not by every server.
   */
  get nodeId(): string {
    return (this.#nodeId ??= newNodeId());
  }

  /** The bus, when one is set. */
  get bus(): EventBus | undefined {
    return this.#bus;
  }

  /**
   * Sets (or, with undefined, removes) the bus; resolves once the subscription is active.
   * @throws {TypeError} for a bus without `publish` and `subscribe`.
   */
  use(bus: EventBus | undefined): Promise<void> {
    if (bus !== undefined && (typeof bus?.publish !== 'function' || typeof bus.subscribe !== 'function')) {
      throw new TypeError('event bus: expected an object with publish(message) and subscribe(listener)');
    }
    const previous = this.#unsubscribe;
    this.#bus = bus;
    this.#unsubscribe = previous.then(async (stop) => {
      stop?.();
      return bus === undefined ? undefined : bus.subscribe((message) => this.#receive(message));
    });
    return this.#unsubscribe.then(() => undefined);
  }

  /** Resolves once the bus subscription is active (at once without a bus). */
  ready(): Promise<void> {
    return this.#unsubscribe.then(() => undefined);
  }

  /**
   * Publishes `message` to the other replicas (never back to this one). Resolves once handed to
   * the bus; a bus that fails is reported, never thrown.
   */
  async publish(message: BusMessage): Promise<void> {
    const bus = this.#bus;
    if (bus === undefined) return;
    try {
      await bus.publish({ ...message, origin: this.nodeId });
    } catch (error) {
      this.#report(`event bus: could not publish ${message.type}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Calls `handler` for each message of `type` another replica publishes; returns the unsubscribe. */
  on(type: string, handler: BusHandler): () => void {
    let set = this.#handlers.get(type);
    if (set === undefined) this.#handlers.set(type, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  #receive(message: BusMessage): void {
    if (typeof message !== 'object' || message === null || message.origin === this.nodeId) return;
    // `origin`: the node id of the publisher (set by publish).
    for (const handler of this.#handlers.get(message.type) ?? []) {
      try {
        handler(message);
      } catch (error) {
        this.#report(`event bus: the handler of ${message.type} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
  }
}
