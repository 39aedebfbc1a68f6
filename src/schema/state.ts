/**
 * The runtime shapes shared by the interpreter and the generated code: the per-validation state,
 * the evaluated-locations record that `unevaluatedProperties`/`unevaluatedItems` read, and the
 * helpers that report errors and prefix their locations on the way back up.
 *
 * Errors are built bottom-up: a failing keyword records its location relative to the schema and
 * value it was given, and each applicator on the way back prepends its own segment. So the fast
 * path (a valid value, or the first pass that only asks for a verdict) never builds a path.
 *
 * Spec: JSON Schema 2020-12 Core §7.7 (annotations), §11 (unevaluated*), §12 (output).
 * @module
 */
import type { SchemaError } from './types.js';

/**
 * Locations evaluated so far in one object or array, by adjacent and in-place subschemas
 * (JSON Schema 2020-12 Core §11.2, §11.3). `items` is how many leading items were evaluated.
 */
export interface Evaluated {
  props: Set<string> | null;
  allProps: boolean;
  items: number;
  allItems: boolean;
  itemSet: Set<number> | null;
}

/** What one `$ref` target remembered for one value: a verdict, or the errors it produced. */
export type MemoEntry = boolean | SchemaError[];

/**
 * State of one validation. `errors` is `null` in the verdict-only pass, where every check
 * returns `false` at its first failure and builds no message. The error pass (`errors` a list)
 * walks only the subschemas that fail: it asks `verdicts` first.
 */
export interface State {
  errors: SchemaError[] | null;
  maxErrors: number;
  maxDepth: number;
  memo: Map<object, Map<unknown, MemoEntry>> | null;
  /**
   * In-place applications (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`) the error pass may
   * still explain (`MAX_ERROR_STEPS`; `Infinity` for a verdict, whose shared plans are memoised
   * instead): the pass must not take exponential time on a schema that shares subschemas between
   * nested branches. Only the evaluating walker spends, so both backends spend alike.
   */
  budget: number;
  /**
   * The verdict-only state the error pass asks for verdicts: a subschema the value passes reports
   * nothing, so the error pass only walks what fails. A verdict-only state is its own.
   */
  verdicts: State;
}

/** In-place applications the error pass makes at most before it stops (see `spend`). */
export const MAX_ERROR_STEPS = 100_000;

/** Thrown by `spend` when the error pass runs out of `budget` (a `RangeError`, as a stack overflow). */
export class StepLimit extends RangeError {}

/** Counts one in-place application against `s.budget`; throws `StepLimit` past it. */
export function spend(s: State): void {
  if (--s.budget < 0) throw new StepLimit('validation steps exhausted');
}

/** A fresh, empty evaluated-locations record. */
export function newEvaluated(): Evaluated {
  return { props: null, allProps: false, items: 0, allItems: false, itemSet: null };
}

/** Adds everything `from` evaluated into `into`. */
export function mergeEvaluated(into: Evaluated, from: Evaluated): void {
  if (from.allProps) into.allProps = true;
  else if (from.props !== null && !into.allProps) {
    if (into.props === null) into.props = new Set(from.props);
    else for (const k of from.props) into.props.add(k);
  }
  if (from.allItems) into.allItems = true;
  else if (!into.allItems) {
    if (from.items > into.items) into.items = from.items;
    if (from.itemSet !== null) {
      if (into.itemSet === null) into.itemSet = new Set(from.itemSet);
      else for (const i of from.itemSet) into.itemSet.add(i);
    }
  }
}

/** Records one evaluated property name. */
export function addProp(ev: Evaluated, name: string): void {
  if (ev.allProps) return;
  if (ev.props === null) ev.props = new Set();
  ev.props.add(name);
}

/**
 * True when a failing check must return at once: in the verdict-only pass, or once the error
 * list is full. Otherwise the check goes on to report every failure.
 */
export function stop(s: State): boolean {
  return s.errors === null || s.errors.length >= s.maxErrors;
}

/** Number of errors reported so far (0 in the verdict-only pass). */
export function mark(s: State): number {
  return s.errors === null ? 0 : s.errors.length;
}

/**
 * Reports one failure of `keyword`. `message` is the body without the location (added when the
 * result is built). Locations are relative to the current value and schema. Returns `false`.
 */
export function report(
  s: State,
  keyword: string,
  keywordLocation: string,
  message: string,
  instanceLocation = '',
): false {
  const errors = s.errors;
  if (errors !== null && errors.length < s.maxErrors) {
    errors.push({ instanceLocation, keywordLocation, keyword, message });
  }
  return false;
}

/**
 * Prepends `instance` to the instance location and `keyword` to the keyword location of every
 * error reported since `from` (a value of `mark`): the way up from a subschema.
 */
export function prefix(s: State, from: number, instance: string, keyword: string): void {
  const errors = s.errors;
  if (errors === null) return;
  for (let i = from; i < errors.length; i++) {
    const e = errors[i];
    e.instanceLocation = instance + e.instanceLocation;
    e.keywordLocation = keyword + e.keywordLocation;
  }
}

/** Drops every error reported since `from` (a subschema whose failure did not count). */
export function discard(s: State, from: number): void {
  if (s.errors !== null && s.errors.length > from) s.errors.length = from;
}
