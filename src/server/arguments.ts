/**
 * The argument pipeline of `tools/call`: schema-guided coercion (reported, never silent), then
 * validation against the tool's `inputSchema`, then a guard against integers that JSON decoding
 * may have rounded; and the check of `structuredContent` against `outputSchema`. Schemas are
 * compiled once, when a tool is registered.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Servers MUST validate all tool inputs"; SEP-1303: input
 * errors are tool results); JSON Schema 2020-12.
 * @module
 */
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { coerceArguments, formatCoercions, type Coercion } from '../schema/coerce.js';
import { indexSchema, resolveRef, type SchemaIndex } from '../schema/dereference.js';
import { compileSchema } from '../schema/validate.js';
import type { SchemaError, Validator } from '../schema/types.js';
import { ToolDefinitionError, type ServedTool } from './tool.js';
import type { ArgumentPipeline, CheckedOutput, PreparedArguments } from './tool-call.js';
import { librarySchemas, type LibrarySchemas } from './tool-schema.js';
import { standardValidate } from '../schema/standard-schema.js';

/** Options for {@link createArgumentPipeline}. */
export interface ArgumentPipelineOptions {
  /** Coerce loosely typed arguments (a tool's own `coerce` wins). */
  coerce: boolean;
  /** Assert `format` keywords (date-time, email, uri, ...) instead of treating them as annotations. */
  formatAssertion: boolean;
  /** `false`: never generate validation code (see `CompileOptions.codegen`). */
  codegen: false | undefined;
  /** Writes one diagnostic line. */
  report: (line: string) => void;
}

interface Compiled {
  input: Validator;
  output: Validator | undefined;
  /** The zod/valibot/arktype schemas behind the served ones, whose `validate` runs after ours. */
  library: LibrarySchemas | undefined;
}

/** Messages for a model: one per error, led by the place in the arguments. */
function problems(errors: readonly SchemaError[]): string[] {
  return errors.map((e) => e.message);
}

/**
 * Paths where an integer-typed value is outside the safe range (|n| > 2^53 - 1): such a number
 * was probably rounded when it was decoded, so it is refused rather than used. Follows
 * `properties`, `additionalProperties`, `items`, `prefixItems` and same-document `$ref`s (resolved
 * as the validator resolves them); iterative.
 */
export function unsafeIntegers(schema: JsonValue, value: unknown): string[] {
  const found: string[] = [];
  let index: SchemaIndex | undefined;
  const resolve = (s: JsonValue): JsonValue => {
    for (let hops = 0; hops < 16 && isObject(s) && typeof s.$ref === 'string'; hops++) {
      index ??= indexSchema(schema as JsonObject, { lenient: true });
      const target = resolveRef(index, s.$ref, s);
      if (target === undefined) return s;
      s = target.schema;
    }
    return s;
  };
  const stack: Array<[JsonValue, unknown, string]> = [[schema, value, '']];
  while (stack.length > 0 && found.length < 20) {
    const [raw, v, path] = stack.pop() as [JsonValue, unknown, string];
    const s = resolve(raw);
    if (!isObject(s)) continue;
    if (typeof v === 'number') {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (types.includes('integer') && !types.includes('number') && Number.isInteger(v) && !Number.isSafeInteger(v)) {
        found.push(path || '/');
      }
    } else if (Array.isArray(v)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      v.forEach((item, i) => {
        const sub = i < prefix.length ? prefix[i] : s.items;
        if (sub !== undefined) stack.push([sub as JsonValue, item, `${path}/${i}`]);
      });
    } else if (isObject(v)) {
      const properties = isObject(s.properties) ? s.properties : {};
      for (const key of Object.keys(v)) {
        const sub = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : s.additionalProperties;
        if (sub !== undefined) stack.push([sub as JsonValue, v[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
      }
    }
  }
  return found;
}

/**
 * Quick test: does `value` hold any integral number outside the safe range? Recursive: the
 * dispatcher has already bounded the nesting depth of `params`.
 */
function hasUnsafeNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasUnsafeNumber(value[i])) return true;
    return false;
  }
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && hasUnsafeNumber((value as { [k: string]: unknown })[key])) return true;
  }
  return false;
}

/** The arguments `run` gets, with the coercions applied to them when there were any. */
function preparedArguments(checked: unknown, coercions: Coercion[] | undefined): PreparedArguments {
  return coercions === undefined || coercions.length === 0
    ? { args: checked as JsonObject }
    : { args: checked as JsonObject, coercions: coercions as unknown as JsonValue[] };
}

/**
 * Then the library's own validation of checked arguments: refinements and transforms; `run` gets
 * its output. (Its own function: the closure it needs is not made for calls without a library.)
 */
function libraryValidated(
  schema: Parameters<typeof standardValidate>[0],
  value: unknown,
  coercions: Coercion[] | undefined,
): PreparedArguments | Promise<PreparedArguments> {
  const settle = (r: { value: unknown } | { problems: string[] }): PreparedArguments =>
    'problems' in r ? r : preparedArguments(r.value, coercions);
  const result = standardValidate(schema, value);
  return result instanceof Promise ? result.then(settle) : settle(result);
}

/** Creates the pipeline a server uses for every `tools/call`. */
export function createArgumentPipeline(options: ArgumentPipelineOptions): ArgumentPipeline {
  const compiled = new WeakMap<object, Compiled>();
  const schemaOptions = { formatAssertion: options.formatAssertion, codegen: options.codegen };
  const compile = (tool: ServedTool<never>): Compiled => {
    let entry = compiled.get(tool);
    if (entry === undefined) {
      try {
        entry = {
          input: compileSchema(tool.inputSchema, schemaOptions),
          output: tool.outputSchema === undefined ? undefined : compileSchema(tool.outputSchema, schemaOptions),
          library: librarySchemas(tool),
        };
      } catch (error) {
        throw new ToolDefinitionError(`tool "${tool.name}": ${error instanceof Error ? error.message : String(error)}`);
      }
      compiled.set(tool, entry);
    }
    return entry;
  };
  return {
    compile(tool): void {
      compile(tool);
    },
    prepare(tool, args): PreparedArguments | Promise<PreparedArguments> {
      const { input, library } = compile(tool);
      let value: unknown = args;
      let coercions: Coercion[] | undefined;
      let verdict = input.validate(args);
      // Coercion applies only where the arguments do not already satisfy the schema.
      if (!verdict.valid && (tool.coerce ?? options.coerce)) {
        const result = coerceArguments(tool.inputSchema, args);
        if (result.coercions.length > 0) {
          value = result.value;
          coercions = result.coercions;
          options.report(`tool "${tool.name}": ${formatCoercions(coercions)}`);
          verdict = input.validate(value);
        }
      }
      if (!verdict.valid) return { problems: problems(verdict.errors) };
      if (hasUnsafeNumber(value)) {
        const paths = unsafeIntegers(tool.inputSchema, value);
        if (paths.length > 0) {
          return {
            problems: paths.map((p) => `${p}: integer outside the exact range ±9007199254740991 (it may have been rounded); send a smaller number`),
          };
        }
      }
      if (library?.input === undefined) return preparedArguments(value, coercions);
      return libraryValidated(library.input, value, coercions);
    },
    checkOutput(tool, structured): CheckedOutput | Promise<CheckedOutput> {
      const { output, library } = compile(tool);
      // The library's validation first (it may transform), then the served schema on what is sent.
      const check = (value: unknown): CheckedOutput => {
        const verdict = output === undefined ? undefined : output.validate(value);
        return verdict === undefined || verdict.valid ? { value: value as JsonValue } : { problems: problems(verdict.errors) };
      };
      if (library?.output === undefined) return check(structured);
      const settle = (r: { value: unknown } | { problems: string[] }): CheckedOutput =>
        'problems' in r ? r : check(r.value);
      const result = standardValidate(library.output, structured);
      return result instanceof Promise ? result.then(settle) : settle(result);
    },
  };
}
