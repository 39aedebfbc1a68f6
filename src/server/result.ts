/**
 * The one pass that shapes a handler's result for the revision of its request. A 2026-07-28
 * result gets `resultType: "complete"` unless the handler set another, the server's identity in
 * `_meta`, and, when its method is cacheable and the result is complete, `ttlMs` and
 * `cacheScope` (hints the handler set itself win). Results of the legacy revisions go out as the
 * handler made them.
 *
 * Spec: MCP 2026-07-28, Basic / Overview (`Result.resultType`, "Per-response protocol fields"),
 * Server / Utilities / Caching (`ttlMs`, `cacheScope`).
 * @module
 */
import { hasOwn, isObject, type JsonObject } from '../protocol/messages.js';
import { META } from '../protocol/meta.js';

/** Caching hints for a cacheable result (MCP 2026-07-28, Server / Utilities / Caching). */
export interface CacheHints {
  /** How long, in milliseconds, the client may consider the result fresh; an integer `>= 0`. */
  ttlMs: number;
  /** `public`: the same for every caller; `private`: only within one authorization context. */
  cacheScope: 'public' | 'private';
}

/**
 * Checks caching hints given by an author.
 * @throws {TypeError} when `ttlMs` is not an integer `>= 0` or `cacheScope` is not public/private;
 *   the message starts with `where`.
 */
export function checkCacheHints(hints: CacheHints, where: string): CacheHints {
  if (!Number.isSafeInteger(hints?.ttlMs) || hints.ttlMs < 0) {
    throw new TypeError(`${where}: ttlMs must be an integer >= 0 (milliseconds)`);
  }
  if (hints.cacheScope !== 'public' && hints.cacheScope !== 'private') {
    throw new TypeError(`${where}: cacheScope must be "public" or "private"`);
  }
  return { ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
}

/** How a result is shaped: its era, the server's identity, and its method's caching hints. */
export interface ResultShape {
  /** True for a 2026-07-28 request. */
  modern: boolean;
  /** `serverInfo` as the request's revision knows it. */
  serverInfo: JsonObject;
  /** Caching hints of the request's method; undefined for a method that is not cacheable. */
  cache: CacheHints | undefined;
}

/**
 * A copy of `object`'s own keys, to add keys to. Object.assign, not a spread: on V8 a spread copy
 * that then gets more keys builds a new hidden class per call (microseconds per result, and
 * garbage). But a spread for an object with an own `__proto__` key (`JSON.parse` makes one, so a
 * handler may return it): Object.assign would hand its value to the prototype setter, dropping
 * the key and giving the copy that prototype (whose `resultType` would then hide the one we add).
 */
function copyOf(object: JsonObject): JsonObject {
  return hasOwn(object, '__proto__') ? { ...object } : Object.assign({}, object);
}

/**
 * Shapes `result` for its request (see the module comment). Never mutates `result`.
 * @returns the result to send.
 */
export function shapeResult(result: JsonObject, shape: ResultShape): JsonObject {
  if (!shape.modern) return result;
  const shaped = copyOf(result);
  shaped.resultType ??= 'complete';
  const meta: JsonObject = isObject(result._meta) ? copyOf(result._meta as JsonObject) : {};
  meta[META.serverInfo] = shape.serverInfo;
  shaped._meta = meta;
  if (shape.cache !== undefined && shaped.resultType === 'complete') {
    shaped.ttlMs ??= shape.cache.ttlMs;
    shaped.cacheScope ??= shape.cache.cacheScope;
  }
  return shaped;
}
