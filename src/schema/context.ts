/**
 * What the keyword readers (`keywords-*.ts`) share at compile time: a way to compile a
 * subschema or resolve a `$ref` into a plan, the options, and readers that check a keyword's
 * value and throw `SchemaCompileError` at its path when the value is not what JSON Schema
 * 2020-12 Validation allows.
 *
 * Spec: JSON Schema 2020-12 Validation §6 (keyword value constraints).
 * @module
 */
import type { Plan } from './plan.js';
import { SchemaCompileError } from './types.js';
import { isObject } from '../protocol/messages.js';

/** A schema object as the compiler reads it. */
export type SchemaObject = { [keyword: string]: unknown };

/** The plan compiler's services, passed to each keyword reader. */
export interface ReadContext {
  /** `format` is an assertion (`CompileOptions.formatAssertion`). */
  readonly formatAssertion: boolean;
  /** The plan of the subschema at document `path` (base URI inherited from `base`). */
  sub(schema: unknown, path: string, base: string): Plan;
  /** The plan a `$ref` value (at `path`) points to. @throws {SchemaCompileError} */
  ref(ref: unknown, path: string, base: string): Plan;
  /**
   * The plan a `$dynamicRef` value (at `path`) points to in the current dynamic scope.
   * @throws {SchemaCompileError}
   */
  dynamicRef(ref: unknown, path: string, base: string): Plan;
}

const hasOwn = Object.prototype.hasOwnProperty;
const REGEXES = new Map<string, RegExp>();
const MAX_REGEXES = 512;

/**
 * `source` as an ECMAScript regex with the `u` flag (JSON Schema 2020-12 Validation §6.3.3,
 * Core §6.4), or throws `SchemaCompileError` at `path`. Compiled regexes are cached by source
 * (up to 512; without the `g` and `y` flags `test` keeps no state, so sharing them is safe).
 */
export function regexOf(source: unknown, path: string): RegExp {
  if (typeof source !== 'string') throw new SchemaCompileError(path, 'a pattern must be a string');
  let re = REGEXES.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, 'u');
    } catch (e) {
      throw new SchemaCompileError(path, `${JSON.stringify(source)} is not a valid ECMAScript ` +
        `regular expression with the u flag (${(e as Error).message})`);
    }
    if (REGEXES.size >= MAX_REGEXES) REGEXES.clear();
    REGEXES.set(source, re);
  }
  return re;
}

/** The value of keyword `kw` when the schema has it as an own property, else `undefined`. */
export function own(schema: SchemaObject, kw: string): unknown {
  return hasOwn.call(schema, kw) ? schema[kw] : undefined;
}


/** Reads a non-negative integer keyword (`minLength`, `maxItems`, …); `undefined` if absent. */
export function count(schema: SchemaObject, kw: string, path: string): number | undefined {
  const v = own(schema, kw);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new SchemaCompileError(`${path}/${kw}`, `${kw} must be a non-negative integer`);
  }
  return v;
}

/** Reads a number keyword (`minimum`, …); `undefined` if absent. */
export function numberValue(schema: SchemaObject, kw: string, path: string): number | undefined {
  const v = own(schema, kw);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new SchemaCompileError(`${path}/${kw}`, `${kw} must be a number`);
  }
  return v;
}

/** Reads an array of unique strings (`required`, `dependentRequired` values). */
export function stringList(value: unknown, at: string, what: string): string[] {
  if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) {
    throw new SchemaCompileError(at, `${what} must be an array of strings`);
  }
  if (new Set(value).size !== value.length) {
    throw new SchemaCompileError(at, `${what} must not repeat a name`);
  }
  return value as string[];
}

/** Reads a non-empty array of subschemas (`allOf`, `anyOf`, `oneOf`, `prefixItems`). */
export function schemaList(schema: SchemaObject, kw: string, path: string): unknown[] | undefined {
  const v = own(schema, kw);
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0) {
    throw new SchemaCompileError(`${path}/${kw}`, `${kw} must be a non-empty array of schemas`);
  }
  return v;
}

/** Reads an object whose values are subschemas (`properties`, `$defs`, …). */
export function schemaMap(schema: SchemaObject, kw: string, path: string): SchemaObject | undefined {
  const v = own(schema, kw);
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new SchemaCompileError(`${path}/${kw}`, `${kw} must be an object`);
  return v;
}
