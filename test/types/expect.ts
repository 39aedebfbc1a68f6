// Compile-time assertions for the type tests. Nothing here runs: the files are only type-checked.

/** True exactly when A and B are the same type (not merely mutually assignable). */
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile unless `T` is `true`; use with `Equal`. */
export declare function expectTrue<T extends true>(): void;

/** Fails to compile unless `value` is assignable to `T`. */
export declare function expectType<T>(value: T): void;

/** A value of any type, to probe what a type accepts. */
export declare function value<T>(): T;

/** A request context, for calling handlers in type tests. */
export declare const ctx: import('../../src/server/context.js').RequestContext;
