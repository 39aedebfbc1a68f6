/**
 * What `await` would wait for: a promise, or any object with a callable `then`. Handlers and
 * tools may answer with either; the server answers at once when they answer with neither.
 * @module
 */

/**
 * True for a promise or any other thenable. Reads `value.then`, which may throw (a getter, a
 * Proxy): call it where such a throw is the caller's fault (inside the `try` that reports it).
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
  );
}
