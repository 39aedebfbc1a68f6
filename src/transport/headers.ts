/**
 * The request metadata headers of Streamable HTTP at 2026-07-28: `Mcp-Method`, `Mcp-Name` and the
 * `Mcp-Param-{Name}` headers that mirror tool arguments annotated with `x-mcp-header`, their
 * `=?base64?...?=` value encoding, and the check that each matches the request body. A failed
 * check is answered `400` with `-32020` (HeaderMismatch) by the caller.
 *
 * Spec: MCP 2026-07-28, Basic / Transports / Streamable HTTP ("Request Metadata": "Standard
 * Request Headers", "Custom Headers from Tool Parameters", "Value Encoding", "Case Sensitivity",
 * "Server Validation"); RFC 9110 §5.5 (field values, OWS), §5.6.2 (token); RFC 4648 §4 (base64).
 * @module
 */
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import type { HeaderReader } from '../server/request-info.js';
import { HEADER } from './http-rules.js';

/** One argument mirrored into a header: `Mcp-Param-{header}` carries `arguments[path...]`. */
export interface ParamHeader {
  /** The `x-mcp-header` value, as written (header names compare case-insensitively). */
  header: string;
  /** The chain of `properties` keys from the schema root to the annotated property. */
  path: string[];
}

/** RFC 9110 §5.6.2 `token` (`1*tchar`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PREFIX = '=?base64?';
const SUFFIX = '?=';

const cache = new WeakMap<object, ParamHeader[]>();

/**
 * The `x-mcp-header` annotations of a tool's `inputSchema`, found through `properties` chains
 * only (an annotation anywhere else is invalid and ignored, as is a name that is not a token).
 * Cached per schema object.
 */
export function paramHeaders(inputSchema: JsonObject): ParamHeader[] {
  let found = cache.get(inputSchema);
  if (found === undefined) {
    found = [];
    collect(inputSchema, [], found, 0);
    cache.set(inputSchema, found);
  }
  return found;
}

function collect(schema: JsonObject, path: string[], out: ParamHeader[], depth: number): void {
  const properties = schema.properties;
  if (!isObject(properties) || depth > 32) return;
  for (const [key, value] of Object.entries(properties)) {
    if (!isObject(value)) continue;
    const property = value as JsonObject;
    const header = property['x-mcp-header'];
    if (typeof header === 'string' && TOKEN.test(header))
      out.push({ header, path: [...path, key] });
    collect(property, [...path, key], out, depth + 1);
  }
}

/** True for a space or a horizontal tab (OWS). */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** True for a character allowed in a plain header value: visible ASCII, space, tab. */
function plainHeaderText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return false;
  }
  return true;
}

/**
 * Decodes one header value: leading and trailing whitespace (OWS) removed, then a
 * `=?base64?{value}?=` sentinel decoded as strict base64 (the RFC 4648 alphabet, correct padding)
 * of UTF-8. Anything else is taken literally.
 * @returns the decoded text, or undefined when the value is not a valid header value (bad
 *   characters, malformed base64, invalid UTF-8).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  // Values come trimmed from both handlers: the regular expression runs only for outer blanks.
  const last = raw.length - 1;
  const padded = last >= 0 && (isBlank(raw.charCodeAt(0)) || isBlank(raw.charCodeAt(last)));
  const value = padded ? raw.replace(/^[ \t]+|[ \t]+$/g, '') : raw;
  if (!plainHeaderText(value)) return undefined;
  if (
    value.length < PREFIX.length + SUFFIX.length ||
    !value.startsWith(PREFIX) ||
    !value.endsWith(SUFFIX)
  ) {
    return value;
  }
  const encoded = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A header value shown in a message: quoted, or "(missing)". */
function shown(value: string | null): string {
  return value === null ? '(missing)' : `'${value}'`;
}

function mismatch(header: string, value: string | null, body: JsonValue | undefined): string {
  const bodyText =
    body === undefined ? '(absent)' : `'${typeof body === 'string' ? body : JSON.stringify(body)}'`;
  const sent = shown(value);
  return `Header mismatch: ${header} header value ${sent} does not match body value ${bodyText}`;
}

/** Compares a decoded header value with a body value: strings exactly, numbers numerically. */
function sameValue(header: string, body: JsonValue): boolean {
  if (typeof body === 'string') return header === body;
  if (typeof body === 'boolean') return header === String(body);
  if (typeof body === 'number') {
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(header) && Number(header) === body;
  }
  return false;
}

/** The value at `path` in `args`, or undefined. */
function valueAt(args: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = args;
  for (const key of path) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

/** Checks one header against one body value; returns a mismatch message or undefined. */
function checkOne(
  headers: HeaderReader,
  name: string,
  display: string,
  body: JsonValue | undefined,
): string | undefined {
  const raw = headers.get(name);
  const present = body !== undefined && body !== null && typeof body !== 'object';
  if (!present) {
    return raw === null ? undefined : mismatch(display, raw, body === null ? undefined : body);
  }
  if (raw === null) {
    const value = JSON.stringify(body);
    return `Header mismatch: required header ${display} is missing (the body has ${value})`;
  }
  const decoded = decodeHeaderValue(raw);
  if (decoded === undefined) {
    const sent = shown(raw);
    return `Header mismatch: ${display} header value ${sent} has invalid characters or bad base64`;
  }
  return sameValue(decoded, body) ? undefined : mismatch(display, decoded, body);
}

/**
 * Checks the request metadata headers of one 2026-07-28 request against its body: `Mcp-Method`
 * (required, exact), `Mcp-Name` (required when the body has the method's name param: `name`,
 * `uri`, `taskId`, as the method table says), and, for `tools/call`, one `Mcp-Param-{Name}` per
 * annotated argument present in the body (required and equal when the value is there; absent
 * when it is not).
 * @param annotations the called tool's `x-mcp-header` list (from {@link paramHeaders}), if known.
 * @param nameParam the param `Mcp-Name` mirrors for `method` (the method table's `nameParam`).
 * @returns a `HeaderMismatch` message, or undefined when every header matches.
 */
export function checkRequestHeaders(
  headers: HeaderReader,
  method: string,
  params: JsonObject | undefined,
  annotations: readonly ParamHeader[] = [],
  nameParam?: string,
): string | undefined {
  const sent = headers.get(HEADER.method);
  if (sent === null) return 'Header mismatch: required header Mcp-Method is missing';
  if (sent.trim() !== method) return mismatch('Mcp-Method', sent.trim(), method);
  if (nameParam !== undefined) {
    const problem = checkOne(headers, HEADER.name, 'Mcp-Name', params?.[nameParam]);
    if (problem !== undefined) return problem;
  }
  if (method !== 'tools/call') return undefined;
  for (const { header, path } of annotations) {
    const name = `${HEADER.paramPrefix}${header.toLowerCase()}`;
    const problem = checkOne(
      headers,
      name,
      `Mcp-Param-${header}`,
      valueAt(params?.arguments, path),
    );
    if (problem !== undefined) return problem;
  }
  return undefined;
}
