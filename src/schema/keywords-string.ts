/**
 * The string keywords, each defined once (`assertion.ts`): `minLength` and `maxLength` (counted
 * in Unicode code points), `pattern` (an ECMAScript regex with the `u` flag) and `format` (an
 * assertion only with `formatAssertion`). `STRING_KEYWORDS` lists them in the order their errors
 * are reported.
 *
 * Spec: JSON Schema 2020-12 Validation §6.3 (strings), §7 (format).
 * @module
 */
import type { Assertion } from './assertion.js';
import { count, own, regexOf } from './context.js';
import { formatCheck } from './format.js';
import { literal } from './messages.js';
import { Flag } from './plan.js';
import { SchemaCompileError } from './types.js';

/** Length of `s` in Unicode code points (a surrogate pair counts once), as JSON Schema counts. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// The UTF-16 length bounds the code-point count from above and twice it from below, so the
// count is taken only near the bound.

/** `minLength` (Validation §6.3.2): at least this many code points. */
export const MIN_LENGTH: Assertion = {
  keyword: 'minLength',
  flag: Flag.MinLength,
  read(plan, schema, path) {
    plan.minLength = count(schema, 'minLength', path) ?? 0;
    return plan.minLength > 0;
  },
  test: (p, s: string) =>
    !(s.length < p.minLength || (s.length < 2 * p.minLength && codePoints(s) < p.minLength)),
  js: (p, x) => `!(${x}.length<${p.minLength}||` +
    `(${x}.length<${2 * p.minLength}&&R.codePoints(${x})<${p.minLength}))`,
  message: (p, s: string) =>
    `expected a string of at least ${p.minLength} characters, got ${codePoints(s)}`,
};

/** `maxLength` (Validation §6.3.1): at most this many code points. */
export const MAX_LENGTH: Assertion = {
  keyword: 'maxLength',
  flag: Flag.MaxLength,
  read(plan, schema, path) {
    const v = count(schema, 'maxLength', path);
    if (v !== undefined) plan.maxLength = v;
    return v !== undefined;
  },
  test: (p, s: string) => !(s.length > p.maxLength && codePoints(s) > p.maxLength),
  js: (p, x) => `!(${x}.length>${p.maxLength}&&R.codePoints(${x})>${p.maxLength})`,
  message: (p, s: string) =>
    `expected a string of at most ${p.maxLength} characters, got ${codePoints(s)}`,
};

/** `pattern` (Validation §6.3.3): the regex matches somewhere in the string. */
export const PATTERN: Assertion = {
  keyword: 'pattern',
  flag: Flag.Pattern,
  read(plan, schema, path) {
    const source = own(schema, 'pattern');
    if (source === undefined) return false;
    plan.pattern = regexOf(source, `${path}/pattern`);
    return true;
  },
  test: (p, s: string) => (p.pattern as RegExp).test(s),
  js: (p, x, emit) => `${emit.constant(p.pattern)}.test(${x})`,
  message: (p, s: string) =>
    `string ${literal(s)} does not match the pattern /${(p.pattern as RegExp).source}/`,
};

/**
 * `format` (Validation §7): a string keyword like the others when `formatAssertion` is set and
 * baremcp knows the format (`format.ts`); otherwise an annotation.
 */
export const FORMAT: Assertion = {
  keyword: 'format',
  flag: Flag.Format,
  read(plan, schema, path, ctx) {
    const name = own(schema, 'format');
    if (name === undefined) return false;
    if (typeof name !== 'string') {
      throw new SchemaCompileError(`${path}/format`, 'format must be a string');
    }
    if (!ctx.formatAssertion) return false;
    plan.format = formatCheck(name) ?? null;
    plan.formatName = name;
    return plan.format !== null;
  },
  test: (p, s: string) => (p.format as (s: string) => boolean)(s),
  js: (p, x, emit) => `${emit.constant(p.format)}(${x})`,
  message: (p, s: string) => `expected a ${p.formatName} string, got ${literal(s)}`,
};

/** The string keywords, in the order their errors are reported. */
export const STRING_KEYWORDS: readonly Assertion[] = [MIN_LENGTH, MAX_LENGTH, PATTERN, FORMAT];

