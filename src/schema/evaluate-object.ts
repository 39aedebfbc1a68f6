/**
 * The evaluating walker's object walk (`evaluate.ts`): the object keywords of one plan
 * (`keywords-object.ts`) checked in one pass over the value's own keys, every failure reported,
 * and the evaluated properties recorded for `unevaluatedProperties`.
 *
 * Spec: JSON Schema 2020-12 Core §10.2.2.4 (dependentSchemas), §10.3.2 (object applicators),
 * §11.3 (unevaluatedProperties); Validation §6.5 (object assertions).
 * @module
 */
import { apply, childFailed, childOk } from './evaluate.js';
import {
  aboutName, additionalNotAllowed, countMessage, dependencyMissing, missingRequired,
  propertyNotAllowed,
} from './keywords-object.js';
import { escapeToken } from './pointer.js';
import { FALSE_PLAN, type Plan } from './plan.js';
import { type Evaluated, addProp, mark, prefix, report, stop, type State } from './state.js';

const hasOwn = Object.prototype.hasOwnProperty;
type Obj = { [key: string]: unknown };

function present(o: Obj, k: string): boolean {
  return o[k] !== undefined && hasOwn.call(o, k);
}

/** `propertyNames` for the name `k`: its errors say which name they are about. */
function nameOk(p: Plan, k: string, d: number, s: State): boolean {
  const m = mark(s);
  if (apply(p, k, d, s, null)) return true;
  const errors = s.errors;
  if (errors !== null) {
    for (let i = m; i < errors.length; i++) {
      errors[i].keywordLocation = '/propertyNames' + errors[i].keywordLocation;
      errors[i].message = aboutName(k, errors[i].message);
    }
  }
  return false;
}

/** The index of `k` in `p.keys`, or -1. */
function keyIndex(p: Plan, k: string): number {
  if (p.byName !== null) return p.byName.get(k) ?? -1;
  const keys = p.keys;
  for (let j = 0; j < keys.length; j++) if (keys[j] === k) return j;
  return -1;
}

/** The object keywords of `p` for the object `o`; records into `ev` when `o` passes. */
export function evaluateObject(p: Plan, o: Obj, d: number, s: State,
  ev: Evaluated | null): boolean {
  const patterns = p.patterns;
  const additional = p.additional;
  const propertyNames = p.propertyNames;
  let ok = true;
  let seen = 0;
  let n = 0;
  for (const k in o) {
    if (!hasOwn.call(o, k)) continue;
    const x = o[k];
    if (x === undefined) continue;
    n++;
    const i = keyIndex(p, k);
    if (propertyNames !== null && !nameOk(propertyNames, k, d + 1, s)) {
      if (stop(s)) return false;
      ok = false;
    }
    if (i !== -1) {
      seen += p.keyFlags[i];
      const sub = p.keyPlans[i];
      const m = mark(s);
      if (sub !== null && !childOk(sub, x, d + 1, s)) {
        const at = '/' + escapeToken(k);
        childFailed(s, m, sub, at, '/properties' + at, propertyNotAllowed(k));
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (additional === null && patterns.length === 0) continue;
    let matched = i !== -1 && i < p.nProps;
    for (let j = 0; j < patterns.length; j++) {
      if (!patterns[j].test(k)) continue;
      matched = true;
      const m = mark(s);
      if (!childOk(p.patternPlans[j], x, d + 1, s)) {
        childFailed(s, m, p.patternPlans[j], '/' + escapeToken(k),
          '/patternProperties/' + escapeToken(p.patternSources[j]), propertyNotAllowed(k));
        if (stop(s)) return false;
        ok = false;
      }
    }
    if (matched || additional === null) continue;
    if (additional === FALSE_PLAN) {
      if (stop(s)) return false;
      ok = report(s, 'additionalProperties', '/additionalProperties',
        additionalNotAllowed(p, k), '/' + escapeToken(k));
      continue;
    }
    const m = mark(s);
    if (!childOk(additional, x, d + 1, s)) {
      childFailed(s, m, additional, '/' + escapeToken(k), '/additionalProperties', propertyNotAllowed(k));
      if (stop(s)) return false;
      ok = false;
    }
  }
  if (seen !== p.nRequired) {
    for (const r of p.required) {
      if (present(o, r)) continue;
      if (stop(s)) return false;
      ok = report(s, 'required', '/required', missingRequired(r));
    }
  }
  if (n < p.minProps || n > p.maxProps) {
    if (stop(s)) return false;
    const keyword = n < p.minProps ? 'minProperties' : 'maxProperties';
    ok = report(s, keyword, '/' + keyword, countMessage(p, n));
  }
  for (let i = 0; i < p.depNames.length; i++) {
    const name = p.depNames[i];
    if (!present(o, name)) continue;
    for (const r of p.depNeeds[i]) {
      if (present(o, r)) continue;
      if (stop(s)) return false;
      ok = report(s, 'dependentRequired', '/dependentRequired/' + escapeToken(name),
        dependencyMissing(r, name));
    }
  }
  for (let i = 0; i < p.depSchemaNames.length; i++) {
    const name = p.depSchemaNames[i];
    if (!present(o, name)) continue;
    const m = mark(s);
    if (!apply(p.depSchemaPlans[i], o, d, s, ev)) {
      prefix(s, m, '', '/dependentSchemas/' + escapeToken(name));
      if (stop(s)) return false;
      ok = false;
    }
  }
  if (ev !== null && ok) record(p, o, ev);
  return ok;
}

/** Records the properties of `o` that `p` evaluated (Core §11.3). */
function record(p: Plan, o: Obj, ev: Evaluated): void {
  if (p.allPropsEvaluated) {
    ev.allProps = true;
    return;
  }
  if (p.nProps === 0 && p.patterns.length === 0) return;
  const names = p.keys.slice(0, p.nProps);
  for (const k in o) {
    if (hasOwn.call(o, k) && o[k] !== undefined &&
      (names.includes(k) || p.patterns.some((re) => re.test(k)))) {
      addProp(ev, k);
    }
  }
}
