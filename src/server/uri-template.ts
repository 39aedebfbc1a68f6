/**
 * URI templates for resource templates: RFC 6570 level 1 (`{var}`) plus reserved expansion
 * (`{+var}`), compiled once into a matcher and an expander.
 *
 * `{var}` matches one path segment: no `/`, `?` or `#`. `{+var}` matches across `/` (and any other
 * character), for multi-segment paths such as `file:///{+path}`. Matched values are
 * percent-decoded. Other operators (`{#var}`, `{/var}`, `{?var}`, lists, modifiers) are refused
 * when the template is compiled.
 *
 * Matching runs in time linear in the URI's length (times the template's parts), never by a
 * backtracking regular expression: the URI is the client's, and `(.+)-(.+)` style patterns take
 * polynomial time on a crafted URI (a 16,000-character URI against `weather://{city}-{date}` took
 * 0.5 s, one against four variables hours), stopping the whole server. URIs longer than
 * {@link MAX_MATCHED_URI_LENGTH} match no template.
 *
 * Spec: RFC 6570 §1.2 (levels), §2.3 (variable names), §3.2.2 (simple string expansion),
 * §3.2.3 (reserved expansion); MCP 2025-11-25, Server / Resources ("Resource Templates").
 * @module
 */

/** One piece of a compiled template: literal text or a variable. */
type Part = { literal: string } | { name: string; reserved: boolean };

/** Thrown when a URI template cannot be compiled; the message names the template and the fault. */
export class UriTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UriTemplateError';
  }
}

/** RFC 6570 §2.3 varname, without pct-encoded names: `[A-Za-z0-9_]` in dot-separated runs. */
const VARNAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Longest URI matched against a template, in UTF-16 code units; a longer one matches none. */
export const MAX_MATCHED_URI_LENGTH = 65_536;

/** A compiled URI template: compile once with {@link compileUriTemplate}, then match and expand. */
export interface UriTemplate {
  /** The template as written, e.g. `file:///{+path}`. */
  readonly template: string;
  /** Variable names in order of first appearance. */
  readonly variables: readonly string[];
  /**
   * Matches a whole URI against the template.
   * @returns the percent-decoded value of each variable, or undefined when `uri` does not match
   *   (also when a value holds a malformed percent-escape, or a repeated variable differs).
   */
  match(uri: string): Record<string, string> | undefined;
  /**
   * Expands the template (RFC 6570 §3.2.2, §3.2.3): `{var}` percent-encodes everything but
   * unreserved characters; `{+var}` keeps reserved characters and existing `%XX` escapes.
   * A missing variable expands to the empty string.
   */
  expand(params: Readonly<Record<string, string | number | boolean | undefined>>): string;
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new UriTemplateError(
        `URI template ${JSON.stringify(template)}: "}" at ${close} has no "{"`,
      );
    }
    if (open === -1) {
      parts.push({ literal: template.slice(i) });
      break;
    }
    if (open > i) parts.push({ literal: template.slice(i, open) });
    if (close === -1) {
      throw new UriTemplateError(
        `URI template ${JSON.stringify(template)}: "{" at ${open} is not closed`,
      );
    }
    let body = template.slice(open + 1, close);
    const reserved = body.startsWith('+');
    if (reserved) body = body.slice(1);
    if (!VARNAME.test(body)) {
      throw new UriTemplateError(
        `URI template ${JSON.stringify(template)}: expression {${template.slice(open + 1, close)}} is not ` +
          'supported; use {name} (one path segment) or {+name} (may span "/"), with a name of [A-Za-z0-9_.]',
      );
    }
    const previous = parts[parts.length - 1];
    if (previous !== undefined && 'name' in previous) {
      throw new UriTemplateError(
        `URI template ${JSON.stringify(template)}: {${previous.name}} and {${body}} are adjacent, so a URI ` +
          'cannot be split between them; put literal text between the variables',
      );
    }
    parts.push({ name: body, reserved });
    i = close + 1;
  }
  return parts;
}

/** True when a variable of kind `reserved` may hold the UTF-16 code unit `code`. */
function allowed(reserved: boolean, code: number): boolean {
  return reserved || (code !== 0x2f && code !== 0x3f && code !== 0x23); // '/', '?', '#'
}

/**
 * Matches all of `uri` against `parts`, each variable at least one character, and returns the
 * (still percent-encoded) value of each variable in order, or undefined. The split is the one a
 * backtracking `^…$` regular expression with greedy groups finds (each variable as long as the
 * rest still matches), computed in O(length × parts): first, right to left, which positions each
 * suffix of the parts can match from; then, left to right, the longest value of each variable.
 */
function matchParts(parts: readonly Part[], uri: string): string[] | undefined {
  const n = uri.length;
  // from[p][i] === 1: parts p, p+1, ... match uri.slice(i) exactly.
  const from: Uint8Array[] = new Array<Uint8Array>(parts.length + 1);
  let next = new Uint8Array(n + 1);
  next[n] = 1;
  from[parts.length] = next;
  for (let p = parts.length - 1; p >= 0; p--) {
    const part = parts[p] as Part;
    const here = new Uint8Array(n + 1);
    if ('literal' in part) {
      const size = part.literal.length;
      for (let i = 0; i + size <= n; i++) {
        if (next[i + size] === 1 && uri.startsWith(part.literal, i)) here[i] = 1;
      }
    } else {
      for (let i = n - 1; i >= 0; i--) {
        if (allowed(part.reserved, uri.charCodeAt(i)) && (next[i + 1] === 1 || here[i + 1] === 1)) here[i] = 1;
      }
    }
    from[p] = here;
    next = here;
  }
  if ((from[0] as Uint8Array)[0] !== 1) return undefined;
  const values: string[] = [];
  let at = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    if ('literal' in part) {
      at += part.literal.length;
      continue;
    }
    const rest = from[p + 1] as Uint8Array;
    let end = at + 1;
    for (let j = at; j < n && allowed(part.reserved, uri.charCodeAt(j)); j++) if (rest[j + 1] === 1) end = j + 1;
    values.push(uri.slice(at, end));
    at = end;
  }
  return values;
}

/** Percent-encodes the UTF-8 bytes of `char`. */
function pctEncode(char: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(char))
    out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

function encodeValue(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) {
      out += char;
    } else if (reserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      out += value.slice(i, i + 3);
      i += 2;
    } else {
      const code = value.codePointAt(i) as number;
      const whole = String.fromCodePoint(code);
      // A lone surrogate cannot be UTF-8 encoded: write U+FFFD as TextEncoder does.
      out += pctEncode(whole);
      i += whole.length - 1;
    }
  }
  return out;
}

/**
 * Compiles a URI template once.
 * @throws {UriTemplateError} for unbalanced braces, an operator other than `+`, a list or modifier
 *   (`{a,b}`, `{a*}`, `{a:3}`), or two adjacent variables.
 * @example
 * const t = compileUriTemplate('file:///{+path}');
 * t.match('file:///src/a%20b.ts'); // { path: 'src/a b.ts' }
 * t.expand({ path: 'src/a b.ts' }); // 'file:///src/a%20b.ts'
 */
export function compileUriTemplate(template: string): UriTemplate {
  if (typeof template !== 'string') throw new UriTemplateError('a URI template must be a string');
  const parts = parse(template);
  const names: string[] = [];
  for (const part of parts) if ('name' in part) names.push(part.name);
  const variables = [...new Set(names)];
  return {
    template,
    variables,
    match(uri: string): Record<string, string> | undefined {
      if (uri.length > MAX_MATCHED_URI_LENGTH) return undefined;
      const m = matchParts(parts, uri);
      if (m === undefined) return undefined;
      const params: Record<string, string> = Object.create(null);
      for (let k = 0; k < names.length; k++) {
        let value: string;
        try {
          value = decodeURIComponent(m[k] as string);
        } catch {
          return undefined;
        }
        const name = names[k];
        if (name in params && params[name] !== value) return undefined;
        params[name] = value;
      }
      return { ...params };
    },
    expand(params: Readonly<Record<string, string | number | boolean | undefined>>): string {
      let out = '';
      for (const part of parts) {
        if ('literal' in part) {
          out += part.literal;
        } else {
          const value = params[part.name];
          if (value !== undefined) out += encodeValue(String(value), part.reserved);
        }
      }
      return out;
    },
  };
}

/** True when `value` contains a `{...}` expression, i.e. is a template rather than a plain URI. */
export function isUriTemplate(value: string): boolean {
  return /\{[^{}]*\}/.test(value);
}
