/**
 * Integrity-protected `requestState` for multi round-trip requests: a payload signed with
 * HMAC-SHA-256 (Web Crypto, so it runs on every runtime), with an expiry, bound to the method and
 * a digest of the request's salient parameters.
 *
 * Spec: MCP 2026-07-28, Basic / Patterns / Multi Round-Trip Requests ("Server Requirements":
 * requestState is attacker-controlled; protect its integrity, bound it by a TTL and the request).
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import type { JsonObject, JsonValue } from '../protocol/messages.js';

/** What the server keeps across a round trip. */
export interface RequestStatePayload {
  /** The method and a digest of the salient params it is bound to. */
  bind: string;
  /** Expiry, in milliseconds since the epoch. */
  exp: number;
  /** Answers collected in earlier rounds, by input key. */
  responses: JsonObject;
  /** Keys asked in the last round, whose answers the retry carries. */
  pending: string[];
}

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Signs and verifies request states with one HMAC key. */
export class RequestStateCodec {
  #secret: Uint8Array | undefined;
  #imported: ReturnType<typeof crypto.subtle.importKey> | undefined;

  /**
   * @param secret the shared secret (replicas that must resume each other's calls share it);
   *   undefined: 32 random bytes, drawn on first use. Web Crypto is touched only on first use.
   */
  constructor(secret?: Uint8Array) {
    this.#secret = secret === undefined ? undefined : new Uint8Array(secret);
  }

  /** True when a shared secret was given; false while the key is random to this process. */
  get shared(): boolean {
    return this.#secret !== undefined;
  }

  /** Signs with `secret` from now on; states signed with the previous key no longer verify. */
  rekey(secret: Uint8Array): void {
    this.#secret = new Uint8Array(secret);
    this.#imported = undefined;
  }

  get #key(): ReturnType<typeof crypto.subtle.importKey> {
    this.#imported ??= crypto.subtle.importKey(
      'raw',
      new Uint8Array(this.#secret ?? RequestStateCodec.randomSecret()),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    return this.#imported;
  }

  /** A random 32-byte secret. */
  static randomSecret(): Uint8Array {
    return crypto.getRandomValues(new Uint8Array(32));
  }

  /** Serialises and signs `payload` into an opaque string. */
  async seal(payload: RequestStatePayload): Promise<string> {
    const body = encoder.encode(JSON.stringify(payload));
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, body));
    return `${toBase64Url(body)}.${toBase64Url(mac)}`;
  }

  /**
   * Verifies and decodes a state for the request bound by `bind`.
   * @throws {RpcError} `-32602` when the state was tampered with, expired, or belongs to another request.
   */
  async open(state: string, bind: string, now: number = Date.now()): Promise<RequestStatePayload> {
    const refuse = (why: string): never => {
      throw new RpcError(ErrorCode.InvalidParams, `requestState refused: ${why}; retry the original request without it`);
    };
    const [bodyText, macText, extra] = state.split('.');
    if (bodyText === undefined || macText === undefined || extra !== undefined) return refuse('malformed');
    let body: Uint8Array<ArrayBuffer>;
    let mac: Uint8Array<ArrayBuffer>;
    try {
      body = fromBase64Url(bodyText);
      mac = fromBase64Url(macText);
    } catch {
      return refuse('malformed');
    }
    const ok = await crypto.subtle.verify('HMAC', await this.#key, mac, body);
    if (!ok) return refuse('integrity check failed');
    const payload = JSON.parse(new TextDecoder().decode(body)) as RequestStatePayload;
    if (payload.bind !== bind) return refuse('it belongs to another request');
    if (!(payload.exp > now)) return refuse('expired');
    return payload;
  }
}

/** A stable digest string of a JSON value (keys sorted), for binding a state to its request. */
export async function digest(value: JsonValue | undefined): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(canonical(value))));
  return toBase64Url(bytes);
}

function canonical(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}
