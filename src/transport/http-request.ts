/**
 * What the Streamable HTTP endpoint reads of a request, whatever carried it: the fetch handler
 * gives a web `Request` ({@link webRequest}); the node:http handler gives an `IncomingMessage` read
 * directly (`node-request.ts`), with no web `Request`, body stream or `AbortController` made for
 * it (a token verifier alone gets a `Request`, made on demand). Every check (Host and Origin, limits, authorization, sessions, resumption) is written once,
 * in `endpoint.ts` and the modules it calls, against this shape. Imports no `node:` module.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); MCP 2026-07-28, Basic /
 * Transports / Streamable HTTP.
 * @module
 */
import type { HeaderReader } from '../server/request-info.js';
import { readBody, type BodyResult } from './body.js';
import { SseStream } from './sse.js';

/**
 * Response headers as the endpoint builds them: lower-case names to values, a plain object (no
 * web `Headers` per reply; the fetch handler's `Response` takes it as it is, node:http writes it
 * with `writeHead`).
 */
export type ReplyHeaders = Record<string, string>;

/** One HTTP request to the MCP endpoint, as the endpoint reads it. */
export interface HttpRequest {
  /** The method, upper case (`POST`). */
  readonly method: string;
  /** The absolute URL (for an origin-form target, built on the `Host` header). */
  readonly url: URL;
  /**
   * The request headers, read by case-insensitive name (also handed to handlers as
   * `TransportRequestInfo.headers`): the web `Request`'s own, or on node:http a view of the raw
   * headers (`node-request.ts`), several values of one name joined by `, ` as in a `Headers`.
   */
  readonly headers: HeaderReader;
  /**
   * Calls `listener` once if the client goes away before the response ended.
   * @returns a function that removes `listener`.
   */
  onAbort(listener: () => void): () => void;
  /**
   * Reads the body as UTF-8 text under `maxBytes` (see `body.ts`); called at most once. A body
   * left unread or refused is drained, not buffered.
   */
  readBody(maxBytes: number): Promise<BodyResult>;
  /** The request as a web `Request` (for a token verifier, which takes one); its body is not kept. */
  toRequest(): Request;
}

/**
 * The {@link HttpRequest} of a web `Request`.
 * @throws {TypeError} never for a `Request` (its URL is always absolute).
 */
export function webRequest(request: Request): HttpRequest {
  return {
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    onAbort(listener) {
      const signal = request.signal;
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    readBody: (maxBytes) => readBody(request, maxBytes),
    toRequest: () => request,
  };
}

/**
 * One HTTP reply as the endpoint makes it: the fetch handler turns it into a web `Response`
 * ({@link HttpReply.toResponse}); the node:http handler writes it as it is (JSON text with one
 * `end`, an SSE stream written to the response as it comes), with no web `Response` or web
 * stream made.
 */
export class HttpReply {
  /**
   * @param status the HTTP status.
   * @param headers the response headers.
   * @param body JSON text, an SSE stream, or null for none.
   */
  constructor(
    readonly status: number,
    readonly headers: ReplyHeaders,
    readonly body: string | SseStream | null = null,
  ) {}

  /** The reply as a web `Response`. */
  toResponse(): Response {
    const body = this.body;
    return new Response(body instanceof SseStream ? body.readable : body, { status: this.status, headers: this.headers });
  }
}
