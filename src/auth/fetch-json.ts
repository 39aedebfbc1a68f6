/**
 * Fetches the authorization server's JSON documents (its metadata, its JWKS, introspection
 * answers) with the guards a resource server needs: https only (http only for a loopback host),
 * no redirects, a time-out, a size limit, a JSON object body, and the freshness the response's
 * `Cache-Control` gives it.
 *
 * Spec: MCP 2026-07-28, Basic / Authorization / Security Considerations ("Communication
 * Security": authorization server endpoints MUST be served over HTTPS); RFC 9111 §5.2.2
 * (`max-age`, `no-store`, `no-cache`); RFC 8414 §3.2 (a 200 JSON object).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { AuthUnavailableError } from './errors.js';

/** How documents are fetched. */
export interface FetchSettings {
  /** The `fetch` to use (default: the global one). */
  readonly fetch: typeof fetch;
  /** Time-out of one fetch, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
}

/** A fetched JSON document and how long it stays fresh. */
export interface FetchedJson {
  readonly body: JsonObject;
  /** The `Cache-Control` lifetime in milliseconds; 0 for `no-store`/`no-cache`; undefined: none given. */
  readonly maxAgeMs: number | undefined;
}

/** True for a loopback host name (`localhost`, `127.0.0.0/8`, `[::1]`) in `URL.hostname` form. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** Why `url` may not be fetched (not https, and http only on loopback), or undefined when it may. */
export function unsafeUrl(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `${url.href} is not https (http is allowed only for loopback hosts)`;
}

/** The freshness lifetime of a `Cache-Control` value, in milliseconds (see {@link FetchedJson}). */
export function cacheLifetime(cacheControl: string | null): number | undefined {
  if (cacheControl === null) return undefined;
  let maxAge: number | undefined;
  for (const directive of cacheControl.toLowerCase().split(',')) {
    const [name = '', value] = directive.trim().split('=');
    if (name === 'no-store' || name === 'no-cache') return 0;
    if (name === 'max-age' && value !== undefined) {
      const seconds = Number(value.replace(/^"|"$/g, ''));
      if (Number.isInteger(seconds) && seconds >= 0) maxAge = seconds * 1000;
    }
  }
  return maxAge;
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new Error(`the body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Fetches a JSON object from `url`.
 * @param init method, headers and body (default: GET with `Accept: application/json`).
 * @throws {AuthUnavailableError} when the URL is not https (nor loopback http), the fetch fails or
 *   times out, the status is not 200, it redirects, or the body is too large or not a JSON object;
 *   the message names the URL and what went wrong.
 */
export async function fetchJson(url: string, settings: FetchSettings, init: RequestInit = {}): Promise<FetchedJson> {
  const parsed = new URL(url);
  const unsafe = unsafeUrl(parsed);
  if (unsafe !== undefined) throw new AuthUnavailableError(`cannot fetch ${unsafe}`);
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  let response: Response;
  try {
    response = await settings.fetch(parsed.href, {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    throw new AuthUnavailableError(`cannot fetch ${parsed.href}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (response.status !== 200) {
    void response.body?.cancel().catch(() => {});
    throw new AuthUnavailableError(`${parsed.href} answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await readCapped(response, settings.maxBytes));
  } catch (error) {
    throw new AuthUnavailableError(`${parsed.href} did not answer a JSON object: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AuthUnavailableError(`${parsed.href} did not answer a JSON object`);
  }
  return { body: body as JsonObject, maxAgeMs: cacheLifetime(response.headers.get('cache-control')) };
}
