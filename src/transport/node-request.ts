/**
 * The {@link HttpRequest} of a node:http request, read directly: the body is collected from the
 * `IncomingMessage` under the byte limit (never buffered past it), the headers are read from its
 * raw headers on demand ({@link RawHeaders}: no web `Headers` per request), and a client going
 * away is heard on the response's `close` (no `AbortController` per request).
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Streamable HTTP"); RFC 9110 §15.5.14 (413).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeBody, type BodyResult } from './body.js';
import type { HeaderReader } from '../server/request-info.js';
import type { HttpRequest } from './http-request.js';

/** True for the HTTP whitespace a web `Headers` trims from a value: tab, LF, CR and space. */
function httpSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * `value` without leading and trailing HTTP whitespace, as a web `Headers` normalises it (Fetch
 * standard, "normalize"). Not `String.prototype.trim`, which also takes U+00A0 and the other
 * Unicode spaces (node:http hands over a byte 0xA0 of a value as U+00A0).
 */
function trimHttp(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && httpSpace(value.charCodeAt(start))) start++;
  while (end > start && httpSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * The headers of a node:http request as a {@link HeaderReader}, read from `rawHeaders` as a web
 * `Headers` reads them: names compared case-insensitively, several values of one name joined by
 * `, ` (node:http's own `headers` drops a second `Host` or `Content-Type` instead). Each read
 * scans the few raw pairs: no table is built, and a name is lower-cased only when its length
 * matches and its spelling differs (raw names are latin1 tokens, whose lower case keeps their
 * length).
 */
export class RawHeaders implements HeaderReader {
  /** @param raw `IncomingMessage.rawHeaders`: names and values, alternating. */
  constructor(readonly raw: readonly string[]) {}

  /** The value of header `name` (any case), or null when absent. */
  get(name: string): string | null {
    const raw = this.raw;
    let lower: string | undefined;
    let found: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i] as string;
      if (key !== name) {
        lower ??= name.toLowerCase();
        if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
      }
      const value = trimHttp(raw[i + 1] as string);
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }

  /** The same headers as a web `Headers` (for a token verifier, which takes a `Request`). */
  toHeaders(): Headers {
    const headers = new Headers();
    const raw = this.raw;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
    return headers;
  }
}

/** The request body of `req` under `maxBytes`: refused by `Content-Length`, or counted as it comes. */
function readNodeBody(req: IncomingMessage, headers: RawHeaders, maxBytes: number): Promise<BodyResult> {
  const declared = headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    // Unread: drained, not kept (the reply says `Connection: close`).
    req.resume();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        done();
        req.resume();
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(decodeBody(chunks, total));
    };
    const onError = (): void => {
      done();
      resolve({ kind: 'aborted' });
    };
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      req.off('close', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
    req.on('close', onError);
  });
}

/** Most URLs kept by {@link urlOf}; a full table starts afresh. */
const URL_MEMO_SIZE = 64;
const urls = new Map<string, URL>();

/**
 * The absolute URL of `req` (an origin-form target is read against its `Host`). Clients send the
 * same target and `Host` on every request, so each pair is parsed once (bounded; the endpoint
 * only reads a URL, never changes it).
 */
function urlOf(req: IncomingMessage, headers: RawHeaders): URL {
  const target = req.url ?? '/';
  const host = headers.get('host') ?? 'localhost';
  // A line break appears in neither a header value nor a request target.
  const key = `${host}\n${target}`;
  let url = urls.get(key);
  if (url === undefined) {
    url = new URL(target, `http://${host}`);
    if (urls.size >= URL_MEMO_SIZE) urls.clear();
    urls.set(key, url);
  }
  return url;
}

/**
 * The {@link HttpRequest} of `req`, whose reply goes to `res`.
 * @throws {TypeError} when the target or the `Host` make no URL (the caller answers `400`).
 */
export function nodeRequest(req: IncomingMessage, res: ServerResponse): HttpRequest {
  const headers = new RawHeaders(req.rawHeaders);
  const url = urlOf(req, headers);
  const method = req.method ?? 'GET';
  let request: Request | undefined;
  const self: HttpRequest = {
    method,
    url,
    headers,
    onAbort(listener) {
      if (res.closed) {
        if (!res.writableFinished) listener();
        return () => {};
      }
      // A plain listener (no `once` wrapper) that a flag turns off: the response is this one
      // request's, and 'close' comes once, so nothing is unregistered on the hot path.
      let listening = true;
      res.on('close', () => {
        if (listening && !res.writableFinished) listener();
      });
      return () => {
        listening = false;
      };
    },
    readBody: (maxBytes) => readNodeBody(req, headers, maxBytes),
    toRequest(): Request {
      if (request === undefined) {
        const controller = new AbortController();
        self.onAbort(() => controller.abort());
        request = new Request(url, { method, headers: headers.toHeaders(), signal: controller.signal });
      }
      return request;
    },
  };
  return self;
}
