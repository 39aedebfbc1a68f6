/**
 * Finds the keywords of a schema that JSON Schema does not define. The specification lets a
 * validator ignore an unknown keyword, so a misspelled one (`requried`, `properites`,
 * `minLenght`) silently checks nothing. Each unknown keyword is reported with its path; one
 * within a small edit distance of a known keyword also with that keyword ("did you mean").
 * Annotations, `x-` keys and what schema converters commonly add (`nullable`, `discriminator`,
 * `example`, ...) are not reported. Pure: no I/O.
 *
 * Paths are dotted from the schema root to the keyword, as `baremcp check` prints them
 * (`properties.city.minLenght`).
 * Spec: JSON Schema 2020-12 Core §6.5 ("Extending JSON Schema": unknown keywords are ignored),
 * §8–10; Validation §6–9; OpenAPI 3.0 Schema Object (`nullable`, `discriminator`, `example`).
 * @module
 */
import { isObject } from '../protocol/messages.js';
import type { ToolSchemas, ToolViolation } from './strict-toolset.js';
import { KNOWN } from './vocabulary.js';

/** One keyword JSON Schema does not define. */
export interface UnknownKeyword {
  /** Dotted path from the schema root to the keyword, e.g. `properties.city.minLenght`. */
  path: string;
  /** The keyword as written. */
  keyword: string;
  /** The known keyword it is probably a misspelling of, when one is close enough. */
  suggestion?: string;
}

/** Keywords of earlier drafts, still read by many validators (and reported by `check` elsewhere). */
const EARLIER_DRAFTS = ['definitions', 'dependencies', 'additionalItems', '$recursiveRef',
  '$recursiveAnchor', 'id'];

/**
 * What converters and tools commonly add beside the keywords: OpenAPI 3.0 (`nullable`,
 * `discriminator`, `example`, `xml`, `externalDocs`), Gemini (`propertyOrdering`), VS Code's
 * JSON language service (`markdownDescription`, `enumDescriptions`, ...), ajv-errors
 * (`errorMessage`), json-schema-to-typescript (`tsType`).
 */
const QUIET_EXTRAS = ['nullable', 'discriminator', 'example', 'xml', 'externalDocs',
  'propertyOrdering', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions',
  'enumNames', 'deprecationMessage', 'errorMessage', 'patternErrorMessage', 'defaultSnippets',
  'doNotSuggest', 'tsType'];

/** Keywords a misspelling is matched against: 2020-12 and the earlier drafts' names. */
const CANDIDATES: readonly string[] = [...KNOWN, ...EARLIER_DRAFTS.filter((k) => k !== 'id')];
const QUIET: ReadonlySet<string> = new Set([...KNOWN, ...EARLIER_DRAFTS, ...QUIET_EXTRAS]);

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions',
  'dependentSchemas']);
const SCHEMA_ONE = new Set(['additionalProperties', 'propertyNames', 'contains', 'not', 'if',
  'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems',
  'contentSchema', 'items']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/**
 * The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
 * substitutions and swaps of two neighbours each count 1), or `max + 1` once it passes `max`.
 */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] as number, max + 1);
}

/**
 * The known keyword `keyword` is probably a misspelling of, or undefined. Short names need a
 * closer match, so that a name of one's own (`ui`, `case`) is not read as `if` or `else`: up to
 * 3 characters only a difference of letter case counts, 4 characters allow one edit, longer
 * names two.
 */
export function misspellingOf(keyword: string): string | undefined {
  const lower = keyword.toLowerCase();
  const max = keyword.length <= 3 ? 0 : keyword.length === 4 ? 1 : 2;
  let found: string | undefined;
  let distance = max + 1;
  for (const known of CANDIDATES) {
    if (known.toLowerCase() === lower) return known;
    if (max === 0) continue;
    const d = editDistance(keyword, known, max);
    if (d < distance) {
      found = known;
      distance = d;
    }
  }
  return found;
}

/**
 * Every keyword of `schema` that JSON Schema does not define, in document order: its path, and
 * the known keyword it is probably a misspelling of. Walks subschemas only (the values of
 * `properties`, `items`, `allOf`, ...), never data (`const`, `enum`, `default`, `examples`) or
 * the values of unknown keywords. Annotations, `x-` keys and the converter extras listed in
 * this module are not reported. Iterative; each object is visited once.
 */
export function findUnknownKeywords(schema: unknown): UnknownKeyword[] {
  const found: UnknownKeyword[] = [];
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[schema, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, string];
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const children: Array<[unknown, string]> = [];
    const at = (key: string): string => (path === '' ? key : `${path}.${key}`);
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_MAPS.has(key) && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) children.push([sub, `${at(key)}.${name}`]);
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        value.forEach((sub, i) => children.push([sub, `${at(key)}.${i}`]));
      } else if (SCHEMA_ONE.has(key)) {
        children.push([value, at(key)]);
      } else if (!QUIET.has(key) && !key.startsWith('x-')) {
        const suggestion = misspellingOf(key);
        found.push(suggestion === undefined ? { path: at(key), keyword: key } : { path: at(key), keyword: key, suggestion });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as [unknown, string]);
  }
  return found;
}

/** The `$schema` value that names JSON Schema 2020-12, with or without the trailing `#`. */
const DIALECT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * The keyword findings `baremcp check` reports under the `mcp` profile, for each tool's
 * `inputSchema` and `outputSchema` (paths of the latter prefixed `outputSchema.`):
 * - `mcp.misspelled-keyword` (error): an unknown keyword close to a known one, with "did you mean";
 * - `mcp.unknown-keyword` (warning): any other unknown keyword (annotations, `x-` keys and
 *   converter extras excepted);
 * - `mcp.schema-2020-12` (warning): a root `"$schema"` naming 2020-12, which clients on Ajv's
 *   default (draft-07) instance refuse ("no schema with key or ref"); without it 2020-12 is the
 *   default anyway (MCP 2025-11-25, "JSON Schema Usage").
 */
export function findKeywordViolations(tools: readonly ToolSchemas[]): ToolViolation[] {
  const rows: ToolViolation[] = [];
  for (const tool of tools) {
    for (const [prefix, schema] of [['', tool.inputSchema], ['outputSchema.', tool.outputSchema]] as const) {
      if (!isObject(schema)) continue;
      if (typeof schema.$schema === 'string' && DIALECT_2020_12.test(schema.$schema)) {
        rows.push({ tool: tool.name, profile: 'mcp', severity: 'warning', rule: 'mcp.schema-2020-12',
          path: `${prefix}$schema`, keyword: '$schema',
          remedy: 'remove "$schema" (2020-12 is the default): clients on Ajv\'s default draft-07 refuse the tool' });
      }
      for (const found of findUnknownKeywords(schema)) {
        const where = { tool: tool.name, profile: 'mcp' as const, path: `${prefix}${found.path}`, keyword: found.keyword };
        rows.push(found.suggestion === undefined
          ? { ...where, severity: 'warning', rule: 'mcp.unknown-keyword',
            remedy: 'not a JSON Schema keyword, so nothing checks it (rename it "x-..." if it is yours)' }
          : { ...where, severity: 'error', rule: 'mcp.misspelled-keyword',
            remedy: `did you mean "${found.suggestion}"? (an unknown keyword is ignored, so nothing checks it)` });
      }
    }
  }
  return rows;
}
