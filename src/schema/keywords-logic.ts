/**
 * The in-place applicators: `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, and
 * `unevaluatedProperties`/`unevaluatedItems`, read once into a plan, with their messages.
 *
 * Spec: JSON Schema 2020-12 Core §8.2.3 ($ref), §10.2.1 (allOf, anyOf, oneOf, not), §10.2.2
 * (if, then, else), §11 (unevaluated*).
 * @module
 */
import { own, schemaList, type ReadContext, type SchemaObject } from './context.js';
import { Flag, type Plan } from './plan.js';
import { SchemaCompileError } from './types.js';

/**
 * Reads the in-place applicators and `unevaluated*` of `schema` into `plan`; returns their
 * flags (`Flag.Logic`, `Flag.Unevaluated`).
 * @throws {SchemaCompileError} for a value JSON Schema 2020-12 does not allow there, or a `$ref`
 *   that does not resolve within the document.
 */
export function readLogic(plan: Plan, schema: SchemaObject, path: string, base: string,
  ctx: ReadContext): number {
  let flags = 0;
  const ref = own(schema, '$ref');
  if (ref !== undefined) plan.ref = ctx.ref(ref, path, base);
  const dynamicRef = own(schema, '$dynamicRef');
  if (dynamicRef !== undefined) {
    if (ref !== undefined) {
      throw new SchemaCompileError(`${path}/$dynamicRef`, '$ref and $dynamicRef in one schema ' +
        'object are not supported: put one of them under allOf');
    }
    plan.ref = ctx.dynamicRef(dynamicRef, path, base);
    plan.refKeyword = '$dynamicRef';
  }
  const allOf = schemaList(schema, 'allOf', path);
  if (allOf !== undefined) plan.allOf = allOf.map((x, i) => ctx.sub(x, `${path}/allOf/${i}`, base));
  const anyOf = schemaList(schema, 'anyOf', path);
  if (anyOf !== undefined) plan.anyOf = anyOf.map((x, i) => ctx.sub(x, `${path}/anyOf/${i}`, base));
  const oneOf = schemaList(schema, 'oneOf', path);
  if (oneOf !== undefined) plan.oneOf = oneOf.map((x, i) => ctx.sub(x, `${path}/oneOf/${i}`, base));
  const not = own(schema, 'not');
  if (not !== undefined) plan.not = ctx.sub(not, `${path}/not`, base);
  const cond = own(schema, 'if');
  if (cond !== undefined) {
    plan.ifPlan = ctx.sub(cond, `${path}/if`, base);
    const then = own(schema, 'then');
    if (then !== undefined) plan.thenPlan = ctx.sub(then, `${path}/then`, base);
    const otherwise = own(schema, 'else');
    if (otherwise !== undefined) plan.elsePlan = ctx.sub(otherwise, `${path}/else`, base);
  }
  if (plan.ref !== null || allOf !== undefined || anyOf !== undefined || oneOf !== undefined ||
    not !== undefined || cond !== undefined) {
    flags |= Flag.Logic;
  }
  const uProps = own(schema, 'unevaluatedProperties');
  const uItems = own(schema, 'unevaluatedItems');
  if (uProps !== undefined || uItems !== undefined) {
    if (uProps !== undefined && uProps !== true) {
      plan.uProps = ctx.sub(uProps, `${path}/unevaluatedProperties`, base);
    }
    if (uItems !== undefined && uItems !== true) {
      plan.uItems = ctx.sub(uItems, `${path}/unevaluatedItems`, base);
    }
    plan.uPropsGiven = uProps !== undefined;
    plan.uItemsGiven = uItems !== undefined;
    flags |= Flag.Unevaluated;
  }
  return flags;
}

/** The message of the schema `false`. */
export const FALSE_MESSAGE = 'no value is allowed here (the schema is false)';

/** The message of a `$ref` into a recursive loop, past `maxDepth`. */
export function tooDeep(maxDepth: number): string {
  return `value nested deeper than ${maxDepth} levels`;
}

/** The message of a failed `anyOf` of `n` subschemas (the branches' errors follow it). */
export function anyOfMessage(n: number): string {
  return `expected a value matching at least one of the ${n} schemas in anyOf`;
}

/** The message of a `oneOf` of `n` subschemas that none matched (their errors follow it). */
export function oneOfNoneMessage(n: number): string {
  return `expected a value matching exactly one of the ${n} schemas in oneOf, but it matches none`;
}

/** The message of a `oneOf` whose subschemas at `passed` all matched. */
export function oneOfManyMessage(passed: readonly number[]): string {
  return 'expected a value matching exactly one schema in oneOf, ' +
    `but it matches ${passed.length} (at ${passed.join(', ')})`;
}

/** The message of `not`. */
export const NOT_MESSAGE = 'expected a value that does not match the schema in "not"';

/** The message of `unevaluatedItems` for item `i`. */
export function itemUnevaluated(i: number): string {
  return `item ${i} is not allowed: no schema describes it`;
}
