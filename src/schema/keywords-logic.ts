/**
 * Compilers for the in-place applicators that combine subschemas on the same value: `allOf`,
 * `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. They pass the evaluated-locations record on
 * (`unevaluated*` sees through them) and keep only the records of subschemas that passed.
 *
 * Cost: each branch runs once per value. `anyOf` stops at the first passing branch unless an
 * enclosing `unevaluated*` needs every branch's annotations; `oneOf` stops at the second.
 *
 * Spec: JSON Schema 2020-12 Core §10.2.1 (allOf, anyOf, oneOf, not), §10.2.2 (if, then, else).
 * @module
 */
import { type CompileContext, type SchemaObject, own, schemaList } from './context.js';
import {
  type Evaluated, type Fn, discard, mark, mergeEvaluated, newEvaluated, prefix, quiet, report, spend, stop,
} from './state.js';

/** Compiles `allOf`: every subschema must pass. */
export function compileAllOf(schema: SchemaObject, path: string, base: string, ctx: CompileContext): Fn | undefined {
  const list = schemaList(schema, 'allOf', path);
  if (list === undefined) return undefined;
  const fns = list.map((x, i) => ctx.sub(x, `${path}/allOf/${i}`, base));
  return (v, s, d, ev) => {
    spend(s);
    let ok = true;
    for (let i = 0; i < fns.length; i++) {
      const m = mark(s);
      if (!fns[i](v, s, d, ev)) {
        prefix(s, m, '', '/allOf/' + i);
        if (stop(s)) return false;
        ok = false;
      }
    }
    return ok;
  };
}

/** Compiles `anyOf`: at least one subschema must pass. */
export function compileAnyOf(schema: SchemaObject, path: string, base: string, ctx: CompileContext): Fn | undefined {
  const list = schemaList(schema, 'anyOf', path);
  if (list === undefined) return undefined;
  const fns = list.map((x, i) => ctx.sub(x, `${path}/anyOf/${i}`, base));
  const summary = `expected a value matching at least one of the ${fns.length} schemas in anyOf`;
  return (v, s, d, ev) => {
    spend(s);
    const m = mark(s);
    let ok = false;
    for (let i = 0; i < fns.length; i++) {
      const branch = ev === null ? null : newEvaluated();
      const before = mark(s);
      if (fns[i](v, s, d, branch)) {
        ok = true;
        if (branch === null) break;
        mergeEvaluated(ev as Evaluated, branch);
      } else {
        prefix(s, before, '', '/anyOf/' + i);
      }
    }
    if (ok) {
      discard(s, m);
      return true;
    }
    if (s.errors !== null) s.errors.splice(m, 0, { instanceLocation: '', keywordLocation: '/anyOf', keyword: 'anyOf', message: summary });
    if (s.errors !== null && s.errors.length > s.maxErrors) s.errors.length = s.maxErrors;
    return false;
  };
}

/** Compiles `oneOf`: exactly one subschema must pass. */
export function compileOneOf(schema: SchemaObject, path: string, base: string, ctx: CompileContext): Fn | undefined {
  const list = schemaList(schema, 'oneOf', path);
  if (list === undefined) return undefined;
  const fns = list.map((x, i) => ctx.sub(x, `${path}/oneOf/${i}`, base));
  const n = fns.length;
  return (v, s, d, ev) => {
    spend(s);
    const m = mark(s);
    const passed: number[] = [];
    let kept: Evaluated | null = null;
    for (let i = 0; i < n; i++) {
      const branch = ev === null ? null : newEvaluated();
      const before = mark(s);
      if (fns[i](v, s, d, branch)) {
        passed.push(i);
        kept = branch;
        if (passed.length > 1 && s.errors === null) return false;
      } else {
        prefix(s, before, '', '/oneOf/' + i);
      }
    }
    if (passed.length === 1) {
      discard(s, m);
      if (ev !== null && kept !== null) mergeEvaluated(ev, kept);
      return true;
    }
    if (s.errors === null) return false;
    if (passed.length > 1) {
      discard(s, m);
      return report(s, 'oneOf', '/oneOf',
        `expected a value matching exactly one schema in oneOf, but it matches ${passed.length} (at ${passed.join(', ')})`);
    }
    s.errors.splice(m, 0, { instanceLocation: '', keywordLocation: '/oneOf', keyword: 'oneOf',
      message: `expected a value matching exactly one of the ${n} schemas in oneOf, but it matches none` });
    if (s.errors.length > s.maxErrors) s.errors.length = s.maxErrors;
    return false;
  };
}

/** Compiles `not`: the subschema must fail. Its annotations are always dropped. */
export function compileNot(schema: SchemaObject, path: string, base: string, ctx: CompileContext): Fn | undefined {
  const sub = own(schema, 'not');
  if (sub === undefined) return undefined;
  const fn = ctx.sub(sub, `${path}/not`, base);
  return (v, s, d) => (spend(s), !quiet(fn, v, s, d, null)) ||
    report(s, 'not', '/not', 'expected a value that does not match the schema in "not"');
}

/**
 * Compiles `if`/`then`/`else`: when `if` passes, `then` must pass; otherwise `else` must.
 * `then` and `else` without `if` do nothing (Core §10.2.2).
 */
export function compileIf(schema: SchemaObject, path: string, base: string, ctx: CompileContext): Fn | undefined {
  const ifSchema = own(schema, 'if');
  if (ifSchema === undefined) return undefined;
  const cond = ctx.sub(ifSchema, `${path}/if`, base);
  const thenSchema = own(schema, 'then');
  const elseSchema = own(schema, 'else');
  const then = thenSchema === undefined ? undefined : ctx.sub(thenSchema, `${path}/then`, base);
  const otherwise = elseSchema === undefined ? undefined : ctx.sub(elseSchema, `${path}/else`, base);
  return (v, s, d, ev) => {
    spend(s);
    const branch = ev === null ? null : newEvaluated();
    const passed = quiet(cond, v, s, d, branch);
    if (passed && ev !== null) mergeEvaluated(ev, branch as Evaluated);
    const next = passed ? then : otherwise;
    if (next === undefined) return true;
    const m = mark(s);
    if (next(v, s, d, ev)) return true;
    prefix(s, m, '', passed ? '/then' : '/else');
    return false;
  };
}
