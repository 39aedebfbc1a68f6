/**
 * The `type` keyword: the type bits a plan's mask is made of, the kind of a value, the reader
 * and the message. `type` decides which of the other keywords apply, so each backend dispatches
 * on it rather than checking it as one assertion among others.
 *
 * Spec: JSON Schema 2020-12 Validation §6.1.1 (type); Core §4.2.1 (instance data model).
 * @module
 */
import { own, type SchemaObject } from './context.js';
import { describe, orList } from './messages.js';
import type { Plan } from './plan.js';
import { SchemaCompileError } from './types.js';

/** Bits of a `type` mask (a `const enum`: inlined as numbers). `Number` also admits integers. */
export const enum TypeBit {
  Null = 1,
  Boolean = 2,
  Object = 4,
  Array = 8,
  Number = 16,
  Integer = 32,
  String = 64,
}

const TYPE_BITS: { readonly [name: string]: number } = {
  null: TypeBit.Null,
  boolean: TypeBit.Boolean,
  object: TypeBit.Object,
  array: TypeBit.Array,
  number: TypeBit.Number | TypeBit.Integer,
  integer: TypeBit.Integer,
  string: TypeBit.String,
};

/** The type bit of `v` (`TypeBit.Integer` for whole numbers); 0 for values JSON cannot hold. */
export function kindOf(v: unknown): number {
  if (typeof v === 'string') return TypeBit.String;
  if (typeof v === 'object') {
    return v === null ? TypeBit.Null : Array.isArray(v) ? TypeBit.Array : TypeBit.Object;
  }
  if (typeof v === 'number') {
    return Number.isInteger(v) ? TypeBit.Integer : v - v === 0 ? TypeBit.Number : 0;
  }
  return typeof v === 'boolean' ? TypeBit.Boolean : 0;
}

/**
 * Reads `type` (a name or a non-empty array of names) into `plan.types` and `plan.typeNames`;
 * false when absent.
 * @throws {SchemaCompileError} for anything but known type names.
 */
export function readType(plan: Plan, schema: SchemaObject, path: string): boolean {
  const value = own(schema, 'type');
  if (value === undefined) return false;
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.length === 0) {
    throw new SchemaCompileError(`${path}/type`, 'type must be a type name or an array of them');
  }
  let mask = 0;
  for (const name of names) {
    const bit = typeof name === 'string' ? TYPE_BITS[name] : undefined;
    if (bit === undefined || !Object.prototype.hasOwnProperty.call(TYPE_BITS, name)) {
      throw new SchemaCompileError(
        `${path}/type`,
        `unknown type ${JSON.stringify(name)}; use null, boolean, object, array, number, integer or string`,
      );
    }
    mask |= bit;
  }
  plan.types = mask;
  plan.typeNames = names as string[];
  return true;
}

/** The part of `typeMessage` that depends only on the schema: `expected integer, got `. */
export function typeHead(plan: Plan): string {
  if (plan.typeHead === '') plan.typeHead = `expected ${orList(plan.typeNames)}, got `;
  return plan.typeHead;
}

/** The message of a `type` failure: `expected integer, got string "ten"`. */
export function typeMessage(plan: Plan, v: unknown): string {
  return typeHead(plan) + describe(v);
}
