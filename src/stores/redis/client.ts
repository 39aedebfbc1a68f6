/**
 * The shape of the Redis client `baremcp/redis` takes: the user's own node-redis client (v4 or
 * v5, `createClient()` of the `redis` package), relied on by shape, never imported, so that
 * baremcp keeps zero dependencies. Commands go through `sendCommand(args)`, atomic steps through
 * Lua scripts (`EVAL`); pub/sub needs a connection of its own (`duplicate()`).
 *
 * Spec: Redis commands GET, GETEX (6.2+), SET (PX, NX), DEL, EXISTS, EVAL, PUBLISH, SUBSCRIBE.
 * @module
 */

/** What baremcp uses of a node-redis client (v4 or v5): `sendCommand` of string arguments. */
export interface RedisClientLike {
  /** Sends one command (`['SET', key, value]`) and resolves to its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** What the event bus uses of a subscribing node-redis client. */
export interface RedisSubscriberLike {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
}

/** A client that can make a connection of its own for pub/sub (node-redis `duplicate()`). */
export interface RedisDuplicable extends RedisClientLike {
  duplicate(): RedisSubscriberLike & { connect(): Promise<unknown>; close?(): Promise<unknown>; quit?(): Promise<unknown> };
}

/** Options every Redis store of `baremcp/redis` takes. */
export interface RedisStoreOptions {
  /** The connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisClientLike;
  /**
   * The prefix of every key (and channel): replicas of one server share it; other servers on the
   * same Redis use their own.
   * @default 'baremcp:'
   */
  prefix?: string;
}

/**
 * The client, checked.
 * @throws {TypeError} naming what is missing, for anything that is not a node-redis client.
 */
export function checkClient(client: unknown, where: string): RedisClientLike {
  if (typeof (client as RedisClientLike | undefined)?.sendCommand !== 'function') {
    throw new TypeError(`${where}: client must be a connected node-redis client (createClient() of the redis package, v4 or v5: it has sendCommand)`);
  }
  return client as RedisClientLike;
}

/** Runs a Lua script with `keys` and `args`; numbers are sent as decimal strings. */
export function runScript(client: RedisClientLike, script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
  return client.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args.map(String)]);
}
