/**
 * URI templates for resource templates: RFC 6570 level 1 (`{var}`) plus reserved expansion
 * (`{+var}`), compiled once into a matcher and an expander.
 *
 * `{var}` matches one path segment: no `/`, `?` or `#`. `{+var}` matches across `/` (and any other
 * character), for multi-segment paths such as `file:///{+path}`. Matched values are
 * percent-decoded. Other operators (`{#var}`, `{/var}`, `{?var}`, lists, modifiers) are refused
 * when the template is compiled.
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
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

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
  let source = '^';
  for (const part of parts) {
    if ('literal' in part) {
      source += part.literal.replace(REGEX_SPECIAL, '\\$&');
    } else {
      source += part.reserved ? '(.+)' : '([^/?#]+)';
      names.push(part.name);
    }
  }
  const regex = new RegExp(source + '$', 's');
  const variables = [...new Set(names)];
  return {
    template,
    variables,
    match(uri: string): Record<string, string> | undefined {
      const m = regex.exec(uri);
      if (m === null) return undefined;
      const params: Record<string, string> = Object.create(null);
      for (let k = 0; k < names.length; k++) {
        let value: string;
        try {
          value = decodeURIComponent(m[k + 1]);
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
