/**
 * The HTTP reply to one POST that carries requests: a single JSON body when the handler sends
 * nothing before its reply, or an SSE stream opened by the first message related to the request
 * (progress, a log message, a legacy server-to-client request, a subscription's notifications),
 * followed by the reply, which ends the stream.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Sending Messages to the Server", items 5–6);
 * MCP 2026-07-28, Basic / Transports / Streamable HTTP ("Sending Messages", "Receiving Messages").
 * @module
 */
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcResponse,
} from '../protocol/messages.js';
import type { Reply } from '../server/connection.js';
import { HttpReply, type ReplyHeaders } from './http-request.js';
import { emptyResponse, jsonResponse, mergeHeaders, setRetryAfter, statusForReply } from './http-rules.js';
import { SseStream, sseHeaders, type SseOptions } from './sse.js';
import type { StreamJournal } from './stream-journal.js';

/** The error sent instead of a reply that JSON cannot carry (a `BigInt` or a cycle in a result). */
function unserialisable(reply: JsonRpcResponse | JsonRpcResponse[]): JsonRpcErrorResponse {
  const id = Array.isArray(reply) ? undefined : reply.id;
  return errorResponse(
    id,
    ErrorCode.InternalError,
    'Internal error: the result could not be serialised as JSON',
  );
}

/** Options for {@link Exchange}. */
export interface ExchangeOptions {
  /** True for a 2026-07-28 request (selects the HTTP status of an error reply). */
  modern: boolean;
  /** Extra response headers (session id, CORS); read when the response is made. */
  headers: ReplyHeaders;
  sse: SseOptions;
  /** Called once when the client goes away from an open SSE stream. */
  onabort?: () => void;
  /**
   * Makes the stream resumable (legacy sessions): called when the reply turns into a stream, it
   * returns the journal that numbers and stores its events. Events go on being stored after the
   * client went away, up to the reply.
   */
  journal?: () => StreamJournal;
}

/** One POST's reply; {@link send} is the request's `TransportRequestInfo.send`. */
export class Exchange {
  /** Resolves to the HTTP response as soon as its kind (JSON or SSE) is known. */
  readonly response: Promise<HttpReply>;
  /** Sends a message related to the request: the first one switches the reply to SSE. */
  readonly send: (message: JsonRpcMessage) => void;
  #state: 'pending' | 'sse' | 'done' = 'pending';
  #stream: SseStream | undefined;
  #journal: StreamJournal | undefined;
  #resolve: (response: HttpReply) => void = () => {};
  readonly #options: ExchangeOptions;

  constructor(options: ExchangeOptions) {
    this.#options = options;
    this.response = new Promise<HttpReply>((resolve) => (this.#resolve = resolve));
    this.send = (message) => this.#send(message);
  }

  /** True once the reply was handed over (or the client went away). */
  get done(): boolean {
    return this.#state === 'done';
  }

  /**
   * Hands over the reply: as the JSON body (status per {@link statusForReply}), `202` when there is
   * none (a request cancelled by the client), or as the last events of the stream. A resumable
   * stream's reply is stored first: the returned promise settles once it was sent.
   */
  finish(reply: Reply): Promise<void> | undefined {
    const state = this.#state;
    this.#state = 'done';
    if (state === 'pending') {
      // A copy that gets more keys: Object.assign, not a spread (see `shapeResult`).
      const headers = Object.assign({}, this.#options.headers);
      if (reply === null) {
        this.#resolve(emptyResponse(202, headers));
        return undefined;
      }
      try {
        const status = statusForReply(reply, this.#options.modern);
        if (status === 429 && !Array.isArray(reply) && 'error' in reply) setRetryAfter(headers, reply.error.data);
        this.#resolve(jsonResponse(status, reply, headers));
      } catch {
        this.#resolve(jsonResponse(500, unserialisable(reply), headers));
      }
      return undefined;
    }
    const stream = this.#stream;
    if (stream === undefined) return undefined;
    const replies = reply === null ? [] : Array.isArray(reply) ? reply : [reply];
    const journal = this.#journal;
    const write = (ids: readonly (string | undefined)[]): void => {
      replies.forEach((response, i) => {
        if (!stream.send(response, ids[i])) stream.send(unserialisable(response), ids[i]);
      });
      stream.close();
    };
    if (journal === undefined) {
      write([]);
      return undefined;
    }
    const ids = replies.map((response, i) => journal.record(response, i === replies.length - 1));
    return journal.flush().then(() => write(ids));
  }

  /** Ends an open stream without a reply (shutdown); a pending exchange gets `503`. */
  abort(): void {
    const state = this.#state;
    this.#state = 'done';
    if (state === 'pending') this.#resolve(emptyResponse(503, Object.assign({}, this.#options.headers)));
    else this.#stream?.close();
  }

  #send(message: JsonRpcMessage): void {
    if (this.#state === 'done') {
      // The client went away: a resumable stream keeps its events for the client's return.
      if (this.#stream !== undefined) this.#journal?.record(message);
      return;
    }
    if (this.#state === 'pending') {
      const stream = new SseStream({
        ...this.#options.sse,
        onabort: () => {
          this.#state = 'done';
          this.#options.onabort?.();
        },
      });
      this.#stream = stream;
      this.#journal = this.#options.journal?.();
      this.#state = 'sse';
      this.#resolve(new HttpReply(200, mergeHeaders(sseHeaders(), this.#options.headers), stream));
    }
    this.#stream?.send(message, this.#journal?.record(message));
  }
}
