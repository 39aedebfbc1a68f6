/**
 * `baremcp/redis`: what replicas of a server share, in Redis: legacy sessions, the events of
 * resumable streams, the event bus, and tasks. Each takes the user's own node-redis client
 * (v4 or v5; `createClient()` of the `redis` package, connected), relied on by shape: baremcp
 * imports no Redis library. Every line here is public API.
 * @module baremcp/redis
 */
export { RedisSessionStore } from './session-store.js';
export { RedisEventStore } from './event-store.js';
export type { RedisEventStoreOptions } from './event-store.js';
export { RedisEventBus } from './event-bus.js';
export type { RedisEventBusOptions } from './event-bus.js';
export { RedisTaskStore } from './task-store.js';
export type { RedisTaskStoreOptions } from './task-store.js';
export type { RedisClientLike, RedisDuplicable, RedisStoreOptions, RedisSubscriberLike } from './client.js';
