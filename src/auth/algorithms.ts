/**
 * The JWS algorithms this resource server verifies: a closed set, each bound to the one key type
 * it may use, so that no key is ever used with an algorithm it was not made for (an RSA public
 * key is never an HMAC secret; an HMAC secret comes only from the configuration, never from a
 * JWKS). `none` is not a member and cannot be configured.
 *
 * Spec: RFC 7518 §3.1-3.5 (RS256, PS256, ES256, HS256; HMAC keys of at least the hash size);
 * RFC 8037 §3.1 (EdDSA with Ed25519); RFC 9864 §2.2 (Ed25519); RFC 7517 §4.2-4.4 (`use`,
 * `key_ops`, `alg` of a JWK); RFC 8725 §3.1-3.2 (algorithm verification, appropriate algorithms).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { decodeBase64Url } from './base64url.js';
import type { ParsedJws } from './jws.js';

/** The JWS algorithms baremcp verifies. */
export const JWS_ALGORITHMS: readonly JwsAlgorithm[] = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519', 'HS256'];

/** One of {@link JWS_ALGORITHMS}. */
export type JwsAlgorithm = 'RS256' | 'PS256' | 'ES256' | 'EdDSA' | 'Ed25519' | 'HS256';

/** The asymmetric algorithms allowed when none are configured. */
export const DEFAULT_ALGORITHMS: readonly JwsAlgorithm[] = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'];

type Subtle = typeof crypto.subtle;
/** A WebCrypto `CryptoKey`, named without the DOM or the Node type libraries. */
export type VerifyKey = Awaited<ReturnType<Subtle['importKey']>>;
type ImportParams = Parameters<Subtle['importKey']>[2];
type VerifyParams = Parameters<Subtle['verify']>[0];

/** Smallest RSA modulus accepted, in bits (RFC 7518 §3.3, §3.5). */
const MIN_RSA_BITS = 2048;

interface AlgorithmSpec {
  /** The JWK `kty` its keys have. */
  readonly kty: 'RSA' | 'EC' | 'OKP' | 'oct';
  /** The JWK `crv`, for EC and OKP keys. */
  readonly crv?: string;
  /** JWK `alg` values a key for it may carry. */
  readonly jwkAlgs: readonly string[];
  readonly importParams: ImportParams;
  readonly verifyParams: VerifyParams;
  /** The exact signature length in bytes, where the algorithm fixes it. */
  readonly signatureBytes?: number;
}

const ED25519: AlgorithmSpec = {
  kty: 'OKP',
  crv: 'Ed25519',
  jwkAlgs: ['EdDSA', 'Ed25519'],
  importParams: { name: 'Ed25519' },
  verifyParams: { name: 'Ed25519' },
  signatureBytes: 64,
};

const SPECS: Readonly<Record<JwsAlgorithm, AlgorithmSpec>> = {
  RS256: {
    kty: 'RSA',
    jwkAlgs: ['RS256'],
    importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    verifyParams: { name: 'RSASSA-PKCS1-v1_5' },
  },
  PS256: {
    kty: 'RSA',
    jwkAlgs: ['PS256'],
    importParams: { name: 'RSA-PSS', hash: 'SHA-256' },
    verifyParams: { name: 'RSA-PSS', saltLength: 32 } as VerifyParams,
  },
  ES256: {
    kty: 'EC',
    crv: 'P-256',
    jwkAlgs: ['ES256'],
    importParams: { name: 'ECDSA', namedCurve: 'P-256' },
    verifyParams: { name: 'ECDSA', hash: 'SHA-256' } as VerifyParams,
    signatureBytes: 64,
  },
  EdDSA: ED25519,
  Ed25519: ED25519,
  HS256: {
    kty: 'oct',
    jwkAlgs: ['HS256'],
    importParams: { name: 'HMAC', hash: 'SHA-256' },
    verifyParams: { name: 'HMAC' },
    signatureBytes: 32,
  },
};

/** True when `alg` is one of {@link JWS_ALGORITHMS}. */
export function isJwsAlgorithm(alg: string): alg is JwsAlgorithm {
  return Object.prototype.hasOwnProperty.call(SPECS, alg);
}

/**
 * Checks a configured allow-list of algorithms.
 * @throws {TypeError} for an empty list or a name outside {@link JWS_ALGORITHMS} (`none`
 *   included); the message lists the known names.
 */
export function checkAlgorithms(list: unknown, where: string): JwsAlgorithm[] {
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`${where}: algorithms must be a non-empty array of ${JWS_ALGORITHMS.join(', ')}`);
  }
  for (const alg of list) {
    if (typeof alg !== 'string' || !isJwsAlgorithm(alg)) {
      throw new TypeError(
        `${where}: unknown JWS algorithm ${JSON.stringify(alg)}; the known algorithms are ${JWS_ALGORITHMS.join(', ')}`,
      );
    }
  }
  return [...new Set(list as JwsAlgorithm[])];
}

/** True when `alg` uses a shared secret (HMAC) rather than a public key. */
export function isSymmetric(alg: JwsAlgorithm): boolean {
  return SPECS[alg].kty === 'oct';
}

/**
 * Why the JWK `jwk` cannot verify `alg` signatures, or undefined when it can: its `kty` (and
 * `crv`) must be the algorithm's, its `alg` (when present) one the algorithm allows, its `use`
 * (when present) `sig`, its `key_ops` (when present) must include `verify`, and an RSA modulus
 * must have at least 2048 bits. Symmetric (`oct`) keys never qualify: HS256 uses only the
 * configured secret.
 */
export function unfitKey(alg: JwsAlgorithm, jwk: JsonObject): string | undefined {
  const spec = SPECS[alg];
  if (spec.kty === 'oct' || jwk.kty === 'oct') return 'a JWKS never supplies HMAC secrets';
  if (jwk.kty !== spec.kty) return `key type ${String(jwk.kty)} does not fit ${alg}`;
  if (spec.crv !== undefined && jwk.crv !== spec.crv) return `curve ${String(jwk.crv)} does not fit ${alg}`;
  if (jwk.alg !== undefined && !spec.jwkAlgs.includes(jwk.alg as string)) {
    return `the key is for ${String(jwk.alg)}, not ${alg}`;
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'the key is not a signing key (use)';
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) {
    return 'the key may not verify (key_ops)';
  }
  if (spec.kty === 'RSA') {
    const n = typeof jwk.n === 'string' ? decodeBase64Url(jwk.n) : undefined;
    if (n === undefined) return 'the RSA key has no modulus';
    let start = 0;
    while (start < n.length && n[start] === 0) start++;
    if ((n.length - start) * 8 < MIN_RSA_BITS) return `the RSA key is shorter than ${MIN_RSA_BITS} bits`;
  }
  return undefined;
}

/** The public members of a JWK that WebCrypto needs, without `alg`/`use`/`key_ops` (checked apart). */
function publicJwk(jwk: JsonObject): { kty: string; ext: boolean; [member: string]: string | boolean } {
  const out: { kty: string; ext: boolean; [member: string]: string | boolean } = { kty: jwk.kty as string, ext: true };
  for (const member of ['n', 'e', 'crv', 'x', 'y'] as const) {
    if (typeof jwk[member] === 'string') out[member] = jwk[member] as string;
  }
  return out;
}

/**
 * Imports a JWK as a verification key for `alg` (check it with {@link unfitKey} first).
 * @throws when WebCrypto refuses the key material.
 */
export function importPublicKey(alg: JwsAlgorithm, jwk: JsonObject): Promise<VerifyKey> {
  return crypto.subtle.importKey('jwk', publicJwk(jwk), SPECS[alg].importParams, false, ['verify']);
}

/** Imports an HS256 shared secret (at least 32 bytes, checked by the options). */
export function importSecret(secret: Uint8Array): Promise<VerifyKey> {
  return crypto.subtle.importKey('raw', new Uint8Array(secret), SPECS.HS256.importParams, false, ['verify']);
}

/** True when the signature of `jws` verifies under `key` with `alg`. */
export async function verifySignature(alg: JwsAlgorithm, key: VerifyKey, jws: ParsedJws): Promise<boolean> {
  const spec = SPECS[alg];
  if (spec.signatureBytes !== undefined && jws.signature.length !== spec.signatureBytes) return false;
  try {
    return await crypto.subtle.verify(spec.verifyParams, key, jws.signature, jws.signingInput);
  } catch {
    return false;
  }
}
