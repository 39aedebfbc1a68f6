/**
 * The object keywords: `properties`, `patternProperties`, `additionalProperties`,
 * `propertyNames`, `required`, `minProperties`, `maxProperties`, `dependentRequired` and
 * `dependentSchemas`, read once into a plan, with their messages. The walks over an object (one
 * per backend: `verdict.ts`, `evaluate-object.ts`, `plan-codegen.ts`) check them together, so
 * that a value's own keys are walked once.
 *
 * Only own properties count (`__proto__`, `constructor` are plain names), and a property whose
 * value is `undefined` counts as absent, as it is once the value is serialised to JSON.
 *
 * Spec: JSON Schema 2020-12 Core §10.2.2.4 (dependentSchemas), §10.3.2 (object applicators);
 * Validation §6.5 (object assertions).
 * @module
 */
import {
  count, own, regexOf, schemaMap, stringList, type ReadContext, type SchemaObject,
} from './context.js';
import { quote } from './messages.js';
import { escapeToken } from './pointer.js';
import { Flag, type Plan } from './plan.js';

/**
 * Reads the object keywords of `schema` into `plan`; returns `Flag.Object` when there is one.
 * @throws {SchemaCompileError} for a value JSON Schema 2020-12 does not allow there.
 */
export function readObject(plan: Plan, schema: SchemaObject, path: string, base: string,
  ctx: ReadContext): number {
  const props = schemaMap(schema, 'properties', path);
  const names = props === undefined ? [] : Object.keys(props);
  const propPlans = names.map((n) =>
    ctx.sub(props?.[n], `${path}/properties/${escapeToken(n)}`, base));
  const patternMap = schemaMap(schema, 'patternProperties', path);
  if (patternMap !== undefined) {
    const sources = Object.keys(patternMap);
    plan.patternSources = sources;
    plan.patterns = sources.map((p) => regexOf(p, `${path}/patternProperties/${escapeToken(p)}`));
    plan.patternPlans = sources.map((p) =>
      ctx.sub(patternMap[p], `${path}/patternProperties/${escapeToken(p)}`, base));
  }
  const additional = own(schema, 'additionalProperties');
  if (additional !== undefined && additional !== true) {
    plan.additional = ctx.sub(additional, `${path}/additionalProperties`, base);
  }
  plan.allPropsEvaluated = additional !== undefined;
  const propertyNames = own(schema, 'propertyNames');
  if (propertyNames !== undefined && propertyNames !== true) {
    plan.propertyNames = ctx.sub(propertyNames, `${path}/propertyNames`, base);
  }
  const requiredValue = own(schema, 'required');
  const required = requiredValue === undefined
    ? [] : stringList(requiredValue, `${path}/required`, 'required');
  plan.minProps = count(schema, 'minProperties', path) ?? 0;
  plan.maxProps = count(schema, 'maxProperties', path) ?? Infinity;
  const depRequired = schemaMap(schema, 'dependentRequired', path);
  if (depRequired !== undefined) {
    plan.depNames = Object.keys(depRequired);
    plan.depNeeds = plan.depNames.map((k) => stringList(depRequired[k],
      `${path}/dependentRequired/${escapeToken(k)}`, 'each dependentRequired value'));
  }
  const depSchemas = schemaMap(schema, 'dependentSchemas', path);
  if (depSchemas !== undefined) {
    plan.depSchemaNames = Object.keys(depSchemas);
    plan.depSchemaPlans = plan.depSchemaNames.map((k) =>
      ctx.sub(depSchemas[k], `${path}/dependentSchemas/${escapeToken(k)}`, base));
  }
  const keys = names.concat(required.filter((r) => !names.includes(r)));
  plan.keys = keys;
  plan.nProps = names.length;
  plan.keyPlans = keys.map((_, i) => (i < names.length ? propPlans[i] : null));
  plan.keyFlags = keys.map((k) => (required.includes(k) ? 1 : 0));
  plan.required = required;
  plan.nRequired = required.length;
  if (keys.length > 8) plan.byName = new Map(keys.map((k, i): [string, number] => [k, i]));
  return keys.length > 0 || patternMap !== undefined || additional !== undefined ||
    propertyNames !== undefined || plan.minProps !== 0 || plan.maxProps !== Infinity ||
    depRequired !== undefined || depSchemas !== undefined ? Flag.Object : 0;
}

/** The message of a property where the schema is `false` (a `properties` entry, say). */
export function propertyNotAllowed(name: string): string {
  return `property ${quote(name)} is not allowed`;
}

/** The message of `additionalProperties: false`, listing the names `properties` allows. */
export function additionalNotAllowed(p: Plan, name: string): string {
  return `property ${quote(name)} is not allowed${allowed(p)}`;
}

/** ` (allowed: "a", "b")`: the names `properties` allows, or `''` (written once per plan). */
export function allowed(p: Plan): string {
  if (p.allowedText === '' && p.nProps > 0) {
    p.allowedText = ` (allowed: ${p.keys.slice(0, p.nProps).map((n) => JSON.stringify(n)).join(', ')})`;
  }
  return p.allowedText;
}

/** The message of a missing `required` property. */
export function missingRequired(name: string): string {
  return `missing required property ${quote(name)}`;
}

/** The message of `minProperties` or `maxProperties` (whichever `n` breaks). */
export function countMessage(p: Plan, n: number): string {
  return n < p.minProps
    ? `expected at least ${p.minProps} properties, got ${n}`
    : `expected at most ${p.maxProps} properties, got ${n}`;
}

/** The message of `dependentRequired`: `needed` is missing although `name` is present. */
export function dependencyMissing(needed: string, name: string): string {
  return `property ${quote(needed)} is required when ${quote(name)} is present`;
}

/** A `propertyNames` error's message, saying which name it is about. */
export function aboutName(name: string, message: string): string {
  return `property name ${quote(name)}: ${message}`;
}
