/**
 * Public types of the JSON Schema 2020-12 validator: the options `compileSchema` takes, the
 * validator it returns, the result of one validation and the error thrown for a broken schema.
 *
 * Spec: JSON Schema 2020-12 Core §12 (output: `instanceLocation`, `keywordLocation`).
 * @module
 */

/**
 * One reason why a value failed validation (JSON Schema 2020-12 Core §12.3, "basic" output unit).
 *
 * - `instanceLocation`: JSON Pointer (RFC 6901) to the failing part of the value; `''` is the root.
 * - `keywordLocation`: JSON Pointer to the failing keyword, following the evaluation path (so it
 *   goes through `$ref`, e.g. `/properties/a/$ref/type`).
 * - `keyword`: the failing keyword, e.g. `type`, `required`, `additionalProperties`.
 * - `message`: written for a model to read and fix its call, prefixed by the instance location
 *   with `/` for the root, e.g. `/limit: expected integer, got string "ten"`.
 */
export interface SchemaError {
  instanceLocation: string;
  keywordLocation: string;
  keyword: string;
  message: string;
}

/**
 * The outcome of one validation. `valid` is true exactly when `errors` is empty. A valid result
 * may be a shared frozen object: do not mutate it.
 */
export interface ValidationResult {
  valid: boolean;
  errors: SchemaError[];
}

/** Options for `compileSchema`. Every field is optional. */
export interface CompileOptions {
  /**
   * Treat `format` as an assertion (JSON Schema 2020-12 Validation §7.2.2) for the formats
   * baremcp knows: date-time, date, time, duration, email, hostname, ipv4, ipv6, uri,
   * uri-reference, uuid, regex, json-pointer, relative-json-pointer. Unknown formats always pass.
   * @default false (format is an annotation, as 2020-12 says)
   */
  formatAssertion?: boolean;
  /**
   * Refuse keywords that JSON Schema 2020-12 does not define, with a `SchemaCompileError`.
   * @default false (unknown keywords are ignored, JSON Schema 2020-12 Core §6.5)
   */
  strict?: boolean;
  /**
   * Deepest nesting of the value (objects and arrays) the validator descends into through a
   * recursive `$ref`, and the deepest nesting `uniqueItems` compares. Deeper values fail with a
   * `maxDepth` error instead of exhausting the stack.
   * @default 256
   */
  maxDepth?: number;
  /**
   * Most errors one validation reports; the validation stops collecting after that many.
   * @default 100
   */
  maxErrors?: number;
  /**
   * Decide valid or invalid with JavaScript generated from the schema (`new Function`), where
   * the platform allows it; otherwise an interpreter walks the compiled schema. Both give the
   * same verdict; the generated code is faster (about 2-4x). Errors are always collected by the
   * interpreter's error pass, so messages do not depend on this option. `true` generates the
   * code at compile time, `false` never.
   * @default generated at the 4th validation (the first three are interpreted)
   */
  codegen?: boolean;
}

/** A compiled schema. `validate` is pure and reentrant and never mutates `value`. */
export interface Validator {
  /** Validates one value (a JSON value, as `JSON.parse` returns it) against the schema. */
  validate(value: unknown): ValidationResult;
}

/**
 * Thrown by `compileSchema` when the schema itself cannot be used: a `$ref` outside the document
 * (never fetched), `$dynamicRef`, an invalid keyword value (e.g. `required` not an array of
 * strings, a `pattern` that does not compile with the `u` flag), a `$ref` loop that never reaches
 * the value, or an unknown keyword in `strict` mode. `path` is a JSON Pointer into the schema.
 */
export class SchemaCompileError extends Error {
  /** JSON Pointer (RFC 6901) to the schema location at fault; `''` is the root. */
  readonly path: string;

  /** @param path JSON Pointer to the fault; @param message what is wrong and how to fix it. */
  constructor(path: string, message: string) {
    super(`${path === '' ? '/' : path}: ${message}`);
    this.name = 'SchemaCompileError';
    this.path = path;
  }
}
