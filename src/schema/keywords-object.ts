/**
 * Compiler for the object keywords, fused into one check per schema so that a value is walked
 * once: `properties`, `patternProperties`, `additionalProperties`, `propertyNames`, `required`,
 * `minProperties`, `maxProperties`, `dependentRequired` and `dependentSchemas`.
 *
 * Only own properties count (`__proto__`, `constructor` are plain names), and a property whose
 * value is `undefined` counts as absent, as it is once the value is serialised to JSON.
 *
 * Spec: JSON Schema 2020-12 Core §10.2.2.4 (dependentSchemas), §10.3.2 (object applicators);
 * Validation §6.5 (object assertions).
 * @module
 */
import {
  type CompileContext, type SchemaObject, count, own, schemaMap, stringList,
} from './context.js';
import { typeFail } from './keywords-scalar.js';
import { escapeToken } from './pointer.js';
import { FALSE_FN, type Fn, type State, addProp, mark, prefix, report, stop } from './state.js';

const hasOwn = Object.prototype.hasOwnProperty;
type Obj = { [key: string]: unknown };

function child(fn: Fn, x: unknown, s: State, d: number, key: string, kw: string): boolean {
  const m = mark(s);
  if (fn === FALSE_FN) {
    report(s, 'false', '', `property ${JSON.stringify(key)} is not allowed`);
  } else if (fn(x, s, d, null)) {
    return true;
  }
  prefix(s, m, '/' + escapeToken(key), kw);
  return false;
}

function namesCheck(fn: Fn, k: string, s: State, d: number): boolean {
  const m = mark(s);
  if (fn(k, s, d, null)) return true;
  const errors = s.errors;
  if (errors !== null) {
    for (let i = m; i < errors.length; i++) {
      errors[i].keywordLocation = '/propertyNames' + errors[i].keywordLocation;
      errors[i].message = `property name ${JSON.stringify(k)}: ${errors[i].message}`;
    }
  }
  return false;
}

/**
 * Compiles the object keywords of `schema` into one check that walks the value's own keys once,
 * or returns `undefined` when there is nothing to check. With `guard` (the `type` names), the
 * check also fails any value that is not an object, reporting a `type` error.
 */
export function compileObject(
  schema: SchemaObject, path: string, base: string, ctx: CompileContext, guard?: readonly string[],
): Fn | undefined {
  const props = schemaMap(schema, 'properties', path);
  const names = props === undefined ? [] : Object.keys(props);
  const fns = names.map((n) => ctx.sub(props?.[n], `${path}/properties/${escapeToken(n)}`, base));
  const propKw = names.map((n) => '/properties/' + escapeToken(n));
  const patternMap = schemaMap(schema, 'patternProperties', path);
  const patternSources = patternMap === undefined ? [] : Object.keys(patternMap);
  const patterns = patternSources.map((p) =>
    ctx.regex(p, `${path}/patternProperties/${escapeToken(p)}`));
  const patternFns = patternSources.map((p) =>
    ctx.sub(patternMap?.[p], `${path}/patternProperties/${escapeToken(p)}`, base));
  const patternKw = patternSources.map((p) => '/patternProperties/' + escapeToken(p));
  const additionalSchema = own(schema, 'additionalProperties');
  const additional = additionalSchema === undefined || additionalSchema === true
    ? undefined
    : ctx.sub(additionalSchema, `${path}/additionalProperties`, base);
  const namesSchema = own(schema, 'propertyNames');
  const propertyNames = namesSchema === undefined || namesSchema === true
    ? undefined
    : ctx.sub(namesSchema, `${path}/propertyNames`, base);
  const requiredValue = own(schema, 'required');
  const required = requiredValue === undefined
    ? undefined
    : stringList(requiredValue, `${path}/required`, 'required');
  const minProps = count(schema, 'minProperties', path) ?? 0;
  const maxProps = count(schema, 'maxProperties', path) ?? Infinity;
  const depReqMap = schemaMap(schema, 'dependentRequired', path);
  const depRequired = depReqMap === undefined ? [] : Object.keys(depReqMap).map((k) => ({
    name: k,
    needs: stringList(depReqMap[k], `${path}/dependentRequired/${escapeToken(k)}`, 'each dependentRequired value'),
  }));
  const depSchemaMap = schemaMap(schema, 'dependentSchemas', path);
  const depSchemas = depSchemaMap === undefined ? [] : Object.keys(depSchemaMap).map((k) => ({
    name: k,
    fn: ctx.sub(depSchemaMap[k], `${path}/dependentSchemas/${escapeToken(k)}`, base),
    kw: '/dependentSchemas/' + escapeToken(k),
  }));
  const evaluatesAll = additionalSchema !== undefined;
  if (names.length === 0 && additional === undefined && patterns.length === 0 &&
    propertyNames === undefined && required === undefined && minProps === 0 &&
    maxProps === Infinity && depRequired.length === 0 && depSchemas.length === 0 &&
    !evaluatesAll) {
    return undefined;
  }
  // One table for the names the loop looks up: the properties, then required-only names.
  const keys = names.concat((required ?? []).filter((r) => !names.includes(r)));
  const keyFns: (Fn | undefined)[] = [...fns, ...keys.slice(names.length).map(() => undefined)];
  const isRequired = keys.map((k) => required?.includes(k) === true);
  const nRequired = required?.length ?? 0;
  const nProps = names.length;
  const nKeys = keys.length;
  const byName = nKeys > 8 ? new Map(keys.map((k, i) => [k, i] as [string, number])) : undefined;
  const forbid = additional === FALSE_FN;
  const allowed = (): string =>
    nProps > 0 ? ` (allowed: ${names.map((n) => JSON.stringify(n)).join(', ')})` : '';
  const matchesPattern = (k: string): boolean => patterns.some((p) => p.test(k));
  const present = (o: Obj, k: string): boolean => o[k] !== undefined && hasOwn.call(o, k);

  const full: Fn = (v, s, d, ev) => {
    if (guard !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v))) {
      return typeFail(s, guard, v);
    }
    const o = v as Obj;
    let ok = true;
    let seen = 0;
    let n = 0;
    for (const k in o) {
      if (!hasOwn.call(o, k)) continue;
      const x = o[k];
      if (x === undefined) continue;
      n++;
      let i = -1;
      if (byName === undefined) {
        for (let j = 0; j < nKeys; j++) {
          if (keys[j] === k) {
            i = j;
            break;
          }
        }
      } else {
        i = byName.get(k) ?? -1;
      }
      if (propertyNames !== undefined && !namesCheck(propertyNames, k, s, d + 1)) {
        if (stop(s)) return false;
        ok = false;
      }
      if (i !== -1) {
        if (isRequired[i]) seen++;
        const fn = keyFns[i];
        if (fn !== undefined && !child(fn, x, s, d + 1, k, propKw[i])) {
          if (stop(s)) return false;
          ok = false;
        }
      }
      if (additional === undefined && patterns.length === 0) continue;
      let matched = i !== -1 && i < nProps;
      for (let j = 0; j < patterns.length; j++) {
        if (!patterns[j].test(k)) continue;
        matched = true;
        if (!child(patternFns[j], x, s, d + 1, k, patternKw[j])) {
          if (stop(s)) return false;
          ok = false;
        }
      }
      if (matched || additional === undefined) continue;
      if (forbid) {
        if (stop(s)) return false;
        ok = report(s, 'additionalProperties', '/additionalProperties',
          `property ${JSON.stringify(k)} is not allowed${allowed()}`, '/' + escapeToken(k));
      } else if (!child(additional, x, s, d + 1, k, '/additionalProperties')) {
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (seen !== nRequired) {
      for (const r of required as string[]) {
        if (present(o, r)) continue;
        if (stop(s)) return false;
        ok = report(s, 'required', '/required', `missing required property ${JSON.stringify(r)}`);
      }
    }
    if (n < minProps || n > maxProps) {
      if (stop(s)) return false;
      ok = n < minProps
        ? report(s, 'minProperties', '/minProperties', `expected at least ${minProps} properties, got ${n}`)
        : report(s, 'maxProperties', '/maxProperties', `expected at most ${maxProps} properties, got ${n}`);
    }
    for (let i = 0; i < depRequired.length; i++) {
      const dep = depRequired[i];
      if (!present(o, dep.name)) continue;
      for (const r of dep.needs) {
        if (present(o, r)) continue;
        if (stop(s)) return false;
        ok = report(s, 'dependentRequired', '/dependentRequired/' + escapeToken(dep.name),
          `property ${JSON.stringify(r)} is required when ${JSON.stringify(dep.name)} is present`);
      }
    }
    for (let i = 0; i < depSchemas.length; i++) {
      const dep = depSchemas[i];
      if (!present(o, dep.name)) continue;
      const m = mark(s);
      if (!dep.fn(o, s, d, ev)) {
        prefix(s, m, '', dep.kw);
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (ev !== null && ok) {
      if (evaluatesAll) ev.allProps = true;
      else if (nProps > 0 || patterns.length > 0) {
        for (const k in o) {
          if (hasOwn.call(o, k) && o[k] !== undefined && (names.includes(k) || matchesPattern(k))) {
            addProp(ev, k);
          }
        }
      }
    }
    return ok;
  };
  return full;
}
