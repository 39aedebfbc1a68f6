/**
 * The strict-subset checker: walks a tool's JSON Schema and reports, for one profile, every
 * place a vendor's strict tool mode or an MCP client would refuse it, with a one-line fix. The
 * rules themselves are data in `strict-rules.ts`; this module gives each kind of check its
 * meaning. Pure code: no I/O, no Node built-ins.
 *
 * Paths are dotted from the schema root to the offending keyword (`properties.insertLine.oneOf`;
 * a root keyword is just its name, `anyOf`; array members are indexed, `anyOf.0.type`). A missing
 * keyword is reported at the path it should have (`properties.a.additionalProperties`). Property
 * names are not escaped, so a name holding a dot reads as two segments.
 * Spec: JSON Schema 2020-12 Core §10 (applicators) and §8.2 (`$ref`); MCP 2025-11-25, Server /
 * Tools (`inputSchema`, `outputSchema`, tool names).
 * @module
 */
import { isObject, type JsonValue } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import type { JsonSchema } from '../protocol/types.js';
import { indexSchema, type SchemaIndex } from './dereference.js';
import { isRecursiveRef, refTarget } from './strict-refs.js';
import type { RefSite } from './strict-refs.js';
import { STRICT_RULES } from './strict-rules.js';
import type { LimitMeasure, StrictProfile, StrictRule, StrictSeverity } from './strict-rules.js';

export type { StrictProfile, StrictSeverity } from './strict-rules.js';

/** One place a profile refuses a schema. */
export interface StrictViolation {
  /** Dotted path to the offending (or missing) keyword; `name` for the tool's name. */
  path: string;
  /** The JSON Schema keyword at fault (`name` for tool-name rules). */
  keyword: string;
  /** A one-line fix, e.g. `use anyOf`. */
  remedy: string;
  /** `error`: the target refuses the tool; `warning`: some targets do. */
  severity: StrictSeverity;
  profile: StrictProfile;
  /** The id of the rule in `STRICT_RULES`, e.g. `openai.oneOf`. */
  rule: string;
}

/** Options for `findStrictSchemaViolations`. */
export interface StrictCheckOptions {
  /** Also check the tool's name (MCP 2025-11-25, Tool Names). */
  toolName?: string;
  /** Whether the schema is a tool's `inputSchema` (default) or its `outputSchema`. */
  role?: 'input' | 'output';
}

/** Every profile, in report order. */
export const STRICT_PROFILES: readonly StrictProfile[] = ['openai', 'anthropic', 'gemini', 'mcp'];

const ROLES: readonly ('input' | 'output')[] = ['input', 'output'];

/**
 * Returns `profile` when it is one of {@link STRICT_PROFILES}. A check must know what it checks:
 * a missing profile is not taken to mean "none" or "all".
 * @throws {TypeError} for a missing or unknown profile, prefixed by `where`, e.g.
 *   `findStrictSchemaViolations: unknown profile "OpenAI" (choose from openai, anthropic, gemini, mcp)`.
 */
export function checkProfile(where: string, profile: unknown): StrictProfile {
  if (isOneOf(profile, STRICT_PROFILES)) return profile;
  throw new TypeError(`${where}: ${notOneOf('profile', profile, STRICT_PROFILES)}`);
}

/** Checks `options.role`: absent, `input` or `output`. @throws {TypeError} for any other value. */
function checkRole(where: string, role: unknown): void {
  if (role === undefined || isOneOf(role, ROLES)) return;
  throw new TypeError(`${where}: options.role: ${notOneOf('role', role, ROLES)}`);
}

/** Thrown by `assertStrictSchema`; `violations` holds every error-severity violation. */
export class StrictSchemaError extends Error {
  readonly toolName: string;
  readonly profile: StrictProfile;
  readonly violations: readonly StrictViolation[];

  constructor(toolName: string, profile: StrictProfile, violations: readonly StrictViolation[]) {
    const lines = violations.map((v) => `  ${v.path}: ${v.remedy}`);
    super(`tool "${toolName}" breaks the ${profile} strict profile:\n${lines.join('\n')}`);
    this.name = 'StrictSchemaError';
    this.toolName = toolName;
    this.profile = profile;
    this.violations = violations;
  }
}

type Obj = { [keyword: string]: JsonValue };
/** Values for a remedy template's placeholders. */
export type Fill = { value?: string; name?: string; verb?: string };
/** The state of one walk over a schema (internal; used by `strict-toolset.ts`). */
export interface Walk {
  rules: readonly StrictRule[];
  claimed: ReadonlySet<string>;
  role: 'input' | 'output';
  root: JsonValue;
  out: StrictViolation[];
  totals: Map<LimitMeasure, number>;
  refs: RefSite[];
  /** The document's `$id`s and anchors, indexed when the first `$ref` is met. */
  index: SchemaIndex | undefined;
  depthReported: boolean;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_ONE = ['additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then',
  'else', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'contentSchema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords that give a schema its shape without a `type` (for the `typed` check). */
const TYPED_BY = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const'];

const hasType = (node: Obj, t: string): boolean =>
  node.type === t || (Array.isArray(node.type) && node.type.includes(t));
const isObjectSchema = (node: Obj): boolean =>
  hasType(node, 'object') || (node.type === undefined && isObject(node.properties));
const show = (v: JsonValue): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Builds a violation of `rule` at `segs` + `keyword`, filling the remedy template. */
export function violation(rule: StrictRule, segs: string[], keyword: string,
  fill: Fill = {}): StrictViolation {
  const limit = 'max' in rule.check ? String(rule.check.max) : '';
  const remedy = rule.remedy
    .replaceAll('{keyword}', keyword).replaceAll('{value}', fill.value ?? '')
    .replaceAll('{name}', fill.name ?? '').replaceAll('{verb}', fill.verb ?? 'add')
    .replaceAll('{limit}', limit);
  const path = [...segs, keyword].join('.');
  return { path, keyword, remedy, severity: rule.severity, profile: rule.profile, rule: rule.id };
}

function report(w: Walk, rule: StrictRule, segs: string[], keyword: string, fill?: Fill): void {
  w.out.push(violation(rule, segs, keyword, fill));
}

/** Adds to a running total and reports each limit rule the total passes at this point. */
function bump(w: Walk, measure: LimitMeasure, n: number, segs: string[], keyword: string,
  name?: string): void {
  const before = w.totals.get(measure) ?? 0;
  w.totals.set(measure, before + n);
  for (const rule of w.rules) {
    const c = rule.check;
    if (c.kind === 'limit' && c.measure === measure && before <= c.max && before + n > c.max) {
      report(w, rule, segs, keyword, name === undefined ? {} : { name });
    }
  }
}

/** True when a regular expression uses a backreference, a lookaround or a word boundary. */
function outsidePatternSubset(p: string): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      if (/[1-9kbB]/.test(p[i + 1] ?? '')) return true;
      i++;
    } else if (p.startsWith('(?', i) && /^\(\?(?:[=!]|<[=!])/.test(p.slice(i, i + 4))) {
      return true;
    }
  }
  return false;
}

function checkKeyword(w: Walk, node: Obj, segs: string[], key: string): void {
  const value = node[key] as JsonValue;
  for (const rule of w.rules) {
    const c = rule.check;
    switch (c.kind) {
      case 'keyword':
        if (c.keywords.includes(key) && (c.at !== 'root' || segs.length === 0)) {
          report(w, rule, segs, key);
        }
        break;
      case 'allowed-keywords':
        if (!c.keywords.includes(key) && !w.claimed.has(key)) report(w, rule, segs, key);
        break;
      case 'value-in':
        if (key === c.keyword && !c.allowed.some((a) => a === value)) {
          report(w, rule, segs, key, { value: show(value) });
        }
        break;
      case 'not-array':
        if (key === c.keyword && Array.isArray(value)) report(w, rule, segs, key);
        break;
      case 'enum-values':
        if (key === 'enum' && Array.isArray(value)) {
          const bad = c.allow === 'string'
            ? value.some((v) => typeof v !== 'string') || (node.type !== undefined &&
              node.type !== 'string')
            : value.some((v) => typeof v === 'object' && v !== null);
          if (bad) report(w, rule, segs, key);
        }
        break;
      case 'pattern-subset':
        if (key === 'pattern' && typeof value === 'string' && outsidePatternSubset(value)) {
          report(w, rule, segs, key);
        }
        break;
      default:
        break;
    }
  }
}

function checkNode(w: Walk, node: Obj, segs: string[]): void {
  const objectSchema = isObjectSchema(node);
  const props = isObject(node.properties) ? Object.keys(node.properties) : undefined;
  for (const rule of w.rules) {
    const c = rule.check;
    if (c.kind === 'root-object') {
      if (segs.length === 0 && (c.role === 'any' || c.role === w.role) && node.type !== 'object') {
        report(w, rule, segs, 'type');
      }
    } else if (c.kind === 'closed-object') {
      if (objectSchema && node.additionalProperties !== false) {
        report(w, rule, segs, 'additionalProperties',
          { verb: 'additionalProperties' in node ? 'set' : 'add' });
      }
    } else if (c.kind === 'all-required') {
      const required = Array.isArray(node.required) ? node.required : [];
      for (const name of props ?? []) {
        if (!required.includes(name)) report(w, rule, segs, 'required', { name });
      }
    } else if (c.kind === 'object-properties') {
      if (objectSchema && (props === undefined || (c.nonEmpty && props.length === 0))) {
        report(w, rule, segs, 'properties');
      }
    } else if (c.kind === 'typed') {
      if (segs.length > 0 && !TYPED_BY.some((k) => k in node)) report(w, rule, segs, 'type');
    } else if (c.kind === 'array-items') {
      if (hasType(node, 'array') && !('items' in node)) report(w, rule, segs, 'items');
    }
  }
}

function measureNode(w: Walk, node: Obj, segs: string[], depth: number): void {
  const rule = w.rules.find((r) => r.check.kind === 'limit' && r.check.measure === 'object-depth');
  if (rule !== undefined && 'max' in rule.check && depth > rule.check.max && !w.depthReported) {
    w.depthReported = true;
    report(w, rule, segs, isObject(node.properties) ? 'properties' : 'type');
  }
  if (isObject(node.properties)) {
    const names = Object.keys(node.properties);
    bump(w, 'total-properties', names.length, segs, 'properties');
    bump(w, 'total-string-chars', names.join('').length, segs, 'properties');
    const required = Array.isArray(node.required) ? node.required : [];
    for (const name of names) {
      if (!required.includes(name)) bump(w, 'optional-properties', 1, segs, 'required', name);
    }
  }
  for (const key of ['$defs', 'definitions']) {
    const defs = node[key];
    if (isObject(defs)) bump(w, 'total-string-chars', Object.keys(defs).join('').length, segs, key);
  }
  if (Array.isArray(node.enum)) {
    const strings = node.enum.filter((v): v is string => typeof v === 'string');
    const chars = strings.join('').length;
    bump(w, 'total-enum-values', node.enum.length, segs, 'enum');
    bump(w, 'total-string-chars', chars, segs, 'enum');
    for (const rule of w.rules) {
      const c = rule.check;
      if (c.kind === 'limit' && c.measure === 'enum-string-chars' &&
        strings.length === node.enum.length && node.enum.length > (c.above ?? 0) && chars > c.max) {
        report(w, rule, segs, 'enum');
      }
    }
  }
  if (typeof node.const === 'string') {
    bump(w, 'total-string-chars', node.const.length, segs, 'const');
  }
  if (segs.length > 0 && ('anyOf' in node || Array.isArray(node.type))) {
    bump(w, 'union-properties', 1, segs, 'anyOf' in node ? 'anyOf' : 'type');
  }
}

function visit(w: Walk, node: JsonValue, segs: string[], depth: number): void {
  if (!isObject(node)) return;
  const level = isObjectSchema(node) ? depth + 1 : depth;
  checkNode(w, node, segs);
  measureNode(w, node, segs, level);
  for (const key of Object.keys(node)) checkKeyword(w, node, segs, key);
  if (typeof node.$ref === 'string') {
    w.index ??= indexSchema(w.root as JsonSchema, { lenient: true });
    w.refs.push({ segs, ref: node.$ref, target: refTarget(w.index, node.$ref, node) });
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (!isObject(map)) continue;
    for (const name of Object.keys(map)) visit(w, map[name], [...segs, key, name], level);
  }
  if (isObject(node.dependencies)) {
    for (const [name, dep] of Object.entries(node.dependencies)) {
      visit(w, dep, [...segs, 'dependencies', name], level);
    }
  }
  for (const key of SCHEMA_ONE) {
    if (key in node) visit(w, node[key] as JsonValue, [...segs, key], level);
  }
  const lists = Array.isArray(node.items) ? [...SCHEMA_LISTS, 'items'] : SCHEMA_LISTS;
  for (const key of lists) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((s, i) => visit(w, s, [...segs, key, String(i)], level));
  }
  if (isObject(node.items)) visit(w, node.items, [...segs, 'items'], level);
}

function checkRefs(w: Walk): void {
  for (const rule of w.rules) {
    const c = rule.check;
    if (c.kind !== 'ref') continue;
    for (const site of w.refs) {
      const local = site.ref.startsWith('#');
      const bad = c.test === 'local' ? !local
        : c.test === 'resolves' ? local && site.target === undefined : isRecursiveRef(w.refs, site);
      if (bad) report(w, rule, site.segs, '$ref');
    }
  }
}

function checkToolName(w: Walk, name: string): void {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'tool';
  for (const rule of w.rules) {
    const c = rule.check;
    if (c.kind !== 'tool-name') continue;
    const bad = c.test === 'chars' ? safe !== name
      : c.test === 'length' ? name.length > c.max : name.includes('.');
    const value = c.test === 'dot' ? safe.replaceAll('.', '_') : safe;
    if (bad) report(w, rule, [], 'name', { value });
  }
}

/** Walks `schema` under `profile`; `out` holds the violations, `totals` the measured sizes. */
export function walk(schema: JsonSchema, profile: StrictProfile,
  options: StrictCheckOptions): Walk {
  const rules = STRICT_RULES.filter((r) => r.profile === profile);
  const claimed = new Set<string>();
  for (const r of rules) {
    if (r.check.kind === 'keyword') r.check.keywords.forEach((k) => claimed.add(k));
  }
  const w: Walk = {
    rules, claimed, role: options.role ?? 'input', root: schema, out: [], totals: new Map(),
    refs: [], index: undefined, depthReported: false,
  };
  if (options.toolName !== undefined) checkToolName(w, options.toolName);
  if (typeof schema === 'boolean') checkNode(w, {}, []);
  else visit(w, schema, [], 0);
  checkRefs(w);
  return w;
}

/**
 * Lists every place `schema` breaks `profile`, in document order (tool-name findings first,
 * `$ref` findings last); an empty list means the schema keeps `profile`. A boolean schema is
 * treated as a root that is not an object. `options.role` picks the root rule of the `mcp`
 * profile (`inputSchema` or `outputSchema`); `options.toolName` adds the tool-name rules.
 * To check several profiles, call once per profile (every profile: loop over `STRICT_PROFILES`).
 * Sources: see `STRICT_RULES` (each rule names its vendor page or client issue).
 * @throws {TypeError} when `profile` is missing or not one of `STRICT_PROFILES`, or
 *   `options.role` is neither `input` nor `output` (the message lists the known names): an
 *   empty list is never returned for a check that did not run. Never throws for the schema.
 */
export function findStrictSchemaViolations(schema: JsonSchema, profile: StrictProfile,
  options: StrictCheckOptions = {}): StrictViolation[] {
  checkProfile('findStrictSchemaViolations', profile);
  checkRole('findStrictSchemaViolations', options.role);
  return walk(schema, profile, options).out;
}

/**
 * Throws a `StrictSchemaError` listing every error-severity violation of `profile` in the tool's
 * input schema and name; warnings never throw. Used when a tool promises a profile (refuse to
 * start rather than serve a tool the vendor will reject).
 * @throws {TypeError} when `profile` is missing or not one of `STRICT_PROFILES`.
 */
export function assertStrictSchema(toolName: string, schema: JsonSchema,
  profile: StrictProfile): void {
  checkProfile('assertStrictSchema', profile);
  const errors = walk(schema, profile, { toolName }).out
    .filter((v) => v.severity === 'error');
  if (errors.length > 0) throw new StrictSchemaError(toolName, profile, errors);
}
