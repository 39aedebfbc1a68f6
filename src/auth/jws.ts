/**
 * Parses a JWS in compact serialisation (a JWT access token) without trusting any of it: three
 * strict base64url segments, a JSON object header with a string `alg`, no `crit` (this verifier
 * understands no extension, so a token that requires one is refused), an explicit type that is a
 * JWT or a JWT access token when a `typ` is given, and a JSON object payload. Header parameters
 * that point at keys (`jwk`, `jku`, `x5u`, `x5c`) are never read: keys come from the issuer's
 * JWKS or the configured secret only.
 *
 * Spec: RFC 7515 §3.1, §4.1 (`alg`, `typ`, `crit`), §5.2 (validation); RFC 7519 §7.2; RFC 9068
 * §2.1 (`typ: at+jwt`); RFC 8725 §3.1, §3.11 (explicit typing).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { decodeBase64Url } from './base64url.js';
import { InvalidTokenError } from './errors.js';

/** A compact JWS split and decoded, not yet verified. */
export interface ParsedJws {
  /** The protected header. */
  readonly header: JsonObject;
  /** The header's `alg`. */
  readonly alg: string;
  /** The header's `kid`, when it has a string one. */
  readonly kid: string | undefined;
  /** The claims. */
  readonly payload: JsonObject;
  /** The bytes that were signed: `BASE64URL(header) || '.' || BASE64URL(payload)`. */
  readonly signingInput: Uint8Array<ArrayBuffer>;
  /** The signature bytes. */
  readonly signature: Uint8Array<ArrayBuffer>;
}

/** `typ` values of tokens this verifier accepts (compared without case, `application/` optional). */
const TYPES = new Set(['jwt', 'at+jwt']);

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function decodeJsonObject(segment: string, what: string): JsonObject {
  const bytes = decodeBase64Url(segment);
  if (bytes === undefined) throw new InvalidTokenError(`the token's ${what} is not base64url`);
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new InvalidTokenError(`the token's ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidTokenError(`the token's ${what} is not a JSON object`);
  }
  return value as JsonObject;
}

/** True when `token` has the shape of a compact JWS (three dot-separated segments). */
export function looksLikeJws(token: string): boolean {
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  return second !== -1 && token.indexOf('.', second + 1) === -1;
}

interface Header {
  readonly header: JsonObject;
  readonly alg: string;
  readonly kid: string | undefined;
}

/** Headers seen lately, by their base64url text: an issuer signs every token with a few. */
const headers = new Map<string, Header>();
const MAX_HEADERS = 64;

function readHeader(text: string): Header {
  const known = headers.get(text);
  if (known !== undefined) return known;
  const header = decodeJsonObject(text, 'header');
  const alg = header.alg;
  if (typeof alg !== 'string' || alg.length === 0) throw new InvalidTokenError('the token header has no alg');
  if (Object.prototype.hasOwnProperty.call(header, 'crit')) {
    throw new InvalidTokenError('the token header lists critical extensions (crit), which this server does not support');
  }
  const typ = header.typ;
  if (typ !== undefined && (typeof typ !== 'string' || !TYPES.has(typ.toLowerCase().replace(/^application\//, '')))) {
    throw new InvalidTokenError(`the token type ${JSON.stringify(typ)} is not an access token (JWT or at+jwt)`);
  }
  const read: Header = { header: Object.freeze(header), alg, kid: typeof header.kid === 'string' ? header.kid : undefined };
  if (headers.size >= MAX_HEADERS) headers.clear();
  headers.set(text, read);
  return read;
}

/**
 * Splits and decodes a compact JWS.
 * @throws {InvalidTokenError} for a token that is not three base64url segments, a header or
 *   payload that is not a JSON object, a header without a string `alg`, with `crit`, or with a
 *   `typ` other than `JWT` or `at+jwt`, and an empty signature.
 */
export function parseJws(token: string): ParsedJws {
  const parts = token.split('.');
  if (parts.length !== 3) throw new InvalidTokenError('the token is not a JWT (three base64url segments)');
  const [headerText, payloadText, signatureText] = parts as [string, string, string];
  const { header, alg, kid } = readHeader(headerText);
  const payload = decodeJsonObject(payloadText, 'payload');
  const signature = decodeBase64Url(signatureText);
  if (signature === undefined || signature.length === 0) {
    throw new InvalidTokenError('the token signature is missing or not base64url');
  }
  return {
    header,
    alg,
    kid,
    payload,
    signingInput: encoder.encode(`${headerText}.${payloadText}`),
    signature,
  };
}
