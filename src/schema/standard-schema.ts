/**
 * Schemas from validation libraries (zod, valibot, arktype, ...) through two small interfaces
 * those libraries implement: Standard Schema (`~standard.validate`) and Standard JSON Schema
 * (`~standard.jsonSchema`). The interfaces are written here, as types only: baremcp takes the
 * user's schema object and relies on its shape, never on an import.
 *
 * Spec: Standard Schema v1 (https://standardschema.dev, `StandardSchemaV1`); Standard JSON Schema
 * v1 (https://standardschema.dev/json-schema, `StandardJSONSchemaV1`); JSON Schema 2020-12 Core
 * §8.1.1 (`$schema`).
 * @module
 */
import { isObject, type JsonObject } from '../protocol/messages.js';
import { encodePointer } from './pointer.js';

/** The types a Standard Schema carries for the compiler: what it takes and what it gives. */
export interface StandardTypes<Input = unknown, Output = Input> {
  /** The type of the values the schema accepts. */
  readonly input: Input;
  /** The type of the values validation returns (after transforms). */
  readonly output: Output;
}

/** One problem found by a library's `validate` (Standard Schema v1, `Issue`). */
export interface StandardIssue {
  /** What is wrong, in the library's words. */
  readonly message: string;
  /** Where: keys from the root, each a key or `{ key }`. */
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What a library's `validate` returns (Standard Schema v1, `Result`). */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** Options of a Standard JSON Schema converter (`target` is the JSON Schema dialect). */
export interface StandardJsonSchemaOptions {
  /** `draft-2020-12`, `draft-07`, `openapi-3.0`, or a library's own target. */
  readonly target: string;
  /** Options passed to the library as they are. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * A schema from a validation library that implements both Standard Schema (`validate`) and
 * Standard JSON Schema (`jsonSchema.input`/`output`): zod 4.2 and later, arktype 2, valibot
 * through `toStandardJsonSchema` of `@valibot/to-json-schema`, and others. `Input` is the type
 * the schema accepts, `Output` the type its `validate` returns.
 */
export interface StandardSchemaWithJson<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The library's name, e.g. `zod`. */
    readonly vendor: string;
    /** Validates a value: the (possibly transformed) value, or the issues. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** The library's JSON Schema converters. */
    readonly jsonSchema: {
      /** The JSON Schema of the values the schema accepts. */
      readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
      /** The JSON Schema of the values `validate` returns. */
      readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
    /** Types for the compiler only; absent at run time. */
    readonly types?: StandardTypes<Input, Output> | undefined;
  };
}

/** The output type of a Standard Schema (what `validate` returns), e.g. a zod schema's `z.output`. */
export type StandardOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends StandardTypes<unknown, infer O>
    ? O
    : unknown
  : never;

/** The input type of a Standard Schema (what it accepts), e.g. a zod schema's `z.input`. */
export type StandardInput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends StandardTypes<infer I, unknown>
    ? I
    : unknown
  : never;

/** Thrown when a library schema cannot be used; the message says why and what to do. */
export class StandardSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StandardSchemaError';
  }
}

/** The Standard properties of `value`, when it has them (any object or function with `~standard`). */
function standardProps(value: unknown): Record<string, unknown> | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return isObject(props) ? props : undefined;
}

/** Whether `value` is a Standard Schema (zod, valibot, arktype, ...), with or without JSON Schema. */
export function isStandardSchema(value: unknown): boolean {
  return standardProps(value) !== undefined;
}

/** How to get `~standard.jsonSchema` from a library that did not give it, by vendor. */
function howToGetJsonSchema(vendor: string): string {
  if (vendor === 'zod') return 'zod 4.2 and later have it: npm install zod@^4.2 (zod 3 cannot convert)';
  if (vendor === 'valibot') {
    return 'wrap the schema with toStandardJsonSchema(schema) from @valibot/to-json-schema';
  }
  if (vendor === 'arktype') return 'current arktype 2 releases have it: npm install arktype@^2.1.28';
  return `use a release of ${vendor} that implements Standard JSON Schema ` +
    '(https://standardschema.dev/json-schema), or write the JSON Schema literal';
}

const DIALECT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * Converts a library schema to the JSON Schema served for it: the library's own converter
 * (`~standard.jsonSchema.input` or `.output`) with target `draft-2020-12`, without the
 * `$schema` key it adds (the result is 2020-12 by construction, and default draft-07 Ajv clients
 * refuse a tool that says so).
 * @throws {StandardSchemaError} when `schema` has no `validate` or no `jsonSchema` (the message
 *   says how to get one for the library), when the converter throws (zod: a transform has no
 *   JSON Schema), or when it returns something other than a 2020-12 object schema.
 */
export function standardToJsonSchema(schema: unknown, io: 'input' | 'output'): JsonObject {
  const props = standardProps(schema);
  const vendor = typeof props?.vendor === 'string' ? props.vendor : 'the library';
  if (props === undefined || typeof props.validate !== 'function') {
    throw new StandardSchemaError(`a Standard Schema needs "~standard.validate"; ${vendor} gave none`);
  }
  const converters = props.jsonSchema as { input?: unknown; output?: unknown } | undefined;
  const convert = isObject(converters) ? converters[io] : undefined;
  if (typeof convert !== 'function') {
    throw new StandardSchemaError(
      `it is a ${vendor} schema without "~standard.jsonSchema", which baremcp needs to serve it as ` +
        `JSON Schema: ${howToGetJsonSchema(vendor)}`,
    );
  }
  let converted: unknown;
  try {
    converted = convert.call(converters, { target: 'draft-2020-12' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StandardSchemaError(
      `${vendor} could not convert it to JSON Schema (${reason}): do what has no JSON Schema ` +
        '(a transform, a custom check) in run instead, or give a JSON Schema literal',
    );
  }
  if (!isObject(converted)) {
    throw new StandardSchemaError(`${vendor} converted it to ${JSON.stringify(converted)}, not a JSON Schema object`);
  }
  const { $schema, ...rest } = converted;
  if ($schema !== undefined && !(typeof $schema === 'string' && DIALECT_2020_12.test($schema))) {
    throw new StandardSchemaError(
      `${vendor} converted it to ${JSON.stringify($schema)} instead of JSON Schema 2020-12`,
    );
  }
  return rest as JsonObject;
}

/** One issue as a line a model can act on: the place in the value (a JSON Pointer), then the message. */
function issueLine(issue: StandardIssue): string {
  const keys = (issue.path ?? []).map((k) => String(typeof k === 'object' && k !== null ? k.key : k));
  const place = encodePointer(keys) || '/';
  return `${place}: ${issue.message}`;
}

/**
 * Runs the library's own `~standard.validate` on `value` (already checked against the served
 * JSON Schema): refinements and transforms apply. Returns the library's value, or one line per
 * issue (`/city: Too small: expected string to have >=1 characters`); a promise when the
 * library's validation is asynchronous. A `validate` that throws is reported as one line.
 */
export function standardValidate(
  schema: StandardSchemaWithJson,
  value: unknown,
): { value: unknown } | { problems: string[] } | Promise<{ value: unknown } | { problems: string[] }> {
  const settle = (result: StandardResult<unknown>): { value: unknown } | { problems: string[] } =>
    result.issues === undefined
      ? { value: result.value }
      : { problems: result.issues.length === 0 ? ['/: refused'] : result.issues.map(issueLine) };
  const failed = (error: unknown): { problems: string[] } => ({
    problems: [`/: ${schema['~standard'].vendor} validation threw: ${error instanceof Error ? error.message : String(error)}`],
  });
  try {
    const result = schema['~standard'].validate(value);
    if (result instanceof Promise) return result.then(settle, failed);
    return settle(result);
  } catch (error) {
    return failed(error);
  }
}
