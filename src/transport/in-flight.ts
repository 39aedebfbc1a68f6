/**
 * How many requests Streamable HTTP runs at once: at most `maxInFlight` for one caller (a legacy
 * session, or the principal of 2026-07-28 requests under authorization) and `maxInFlightTotal`
 * for the whole handler, counting each request of a batch. A request that finds no place is not
 * queued: it is answered at once, `429` (the caller's limit) or `503` (the handler's), with
 * `Retry-After`, and never runs. A batch is refused whole only when none of its requests finds a
 * place; otherwise the requests past the limit each get their own error inside the batch reply.
 * stdio bounds its one connection the same way (`maxInFlight`, with a backlog instead of refusals).
 *
 * Spec: RFC 6585 §4 (429 Too Many Requests); RFC 9110 §15.6.4 (503) and §10.2.3 (Retry-After);
 * JSON-RPC 2.0 §6 (Batch: one response per request); MCP 2025-03-26, Basic ("Batching").
 * @module
 */
import type { HttpReply, ReplyHeaders } from './http-request.js';
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse, RATE_LIMITED } from '../protocol/errors.js';
import type { JsonRpcResponse, RequestId } from '../protocol/messages.js';
import { errorReply, mergeHeaders } from './http-rules.js';

/** Requests one caller may have running at once (stdio's `maxInFlight` default). */
export const DEFAULT_MAX_IN_FLIGHT = 256;

/** Requests the whole handler may have running at once. */
export const DEFAULT_MAX_IN_FLIGHT_TOTAL = 4096;

/** The wait a refused request is told to keep before it tries again, in milliseconds. */
export const IN_FLIGHT_RETRY_AFTER_MS = 1000;

/** Which limit refused a request: the caller's (`429`) or the handler's (`503`). */
export type InFlightLimit = 'caller' | 'total';

/** Places taken by {@link InFlight.take}; give them back with `release()` (once). */
export interface InFlightPermit {
  /** Places granted, from 0 to the number asked for. */
  readonly granted: number;
  /** The limit that refused the rest; undefined when all were granted. */
  readonly refusedBy: InFlightLimit | undefined;
  /** Gives the granted places back. Safe to call twice. */
  release(): void;
}

/** The counters of the requests running in one handler. */
export class InFlight {
  readonly #maxPerCaller: number;
  readonly #maxTotal: number;
  readonly #byCaller = new Map<string, number>();
  #total = 0;

  /** @throws {TypeError} when a limit is not a positive integer. */
  constructor(maxPerCaller: number = DEFAULT_MAX_IN_FLIGHT, maxTotal: number = DEFAULT_MAX_IN_FLIGHT_TOTAL) {
    for (const [name, value] of [['maxInFlight', maxPerCaller], ['maxInFlightTotal', maxTotal]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createFetchHandler: ${name} must be a positive integer, got ${value}`);
    }
    this.#maxPerCaller = maxPerCaller;
    this.#maxTotal = maxTotal;
  }

  /** Requests running now in the whole handler. */
  get total(): number {
    return this.#total;
  }

  /**
   * Takes up to `wanted` places for `caller` (undefined: a caller the handler cannot tell apart,
   * bounded by the total only).
   */
  take(caller: string | undefined, wanted: number): InFlightPermit {
    const held = caller === undefined ? 0 : (this.#byCaller.get(caller) ?? 0);
    const forCaller = caller === undefined ? wanted : Math.max(0, this.#maxPerCaller - held);
    const forTotal = Math.max(0, this.#maxTotal - this.#total);
    const granted = Math.min(wanted, forCaller, forTotal);
    const refusedBy: InFlightLimit | undefined =
      granted === wanted ? undefined : forTotal < forCaller ? 'total' : 'caller';
    this.#total += granted;
    if (caller !== undefined && granted > 0) this.#byCaller.set(caller, held + granted);
    let released = false;
    return {
      granted,
      refusedBy,
      release: () => {
        if (released || granted === 0) return;
        released = true;
        this.#total -= granted;
        if (caller === undefined) return;
        const left = (this.#byCaller.get(caller) ?? granted) - granted;
        if (left > 0) this.#byCaller.set(caller, left);
        else this.#byCaller.delete(caller);
      },
    };
  }
}

/** What a refused request reads: which limit, how many, when to retry. */
function refusalText(limit: InFlightLimit): string {
  return limit === 'caller'
    ? 'Too Many Requests: this session (or caller) has as many requests running as it may; retry after the time in Retry-After, or wait for a reply'
    : 'Service Unavailable: the server has as many requests running as it may; retry after the time in Retry-After';
}

/**
 * The reply to a POST none of whose requests found a place: `429` (`RATE_LIMITED`) or `503`
 * (`-32603`), with `Retry-After` and `data: { retryAfterMs }`.
 */
export function inFlightRefusal(limit: InFlightLimit, headers: ReplyHeaders, id?: RequestId): HttpReply {
  const retry = mergeHeaders({ 'retry-after': String(IN_FLIGHT_RETRY_AFTER_MS / 1000) }, headers);
  const code = limit === 'caller' ? RATE_LIMITED : ErrorCode.InternalError;
  return errorReply(limit === 'caller' ? 429 : 503, code, refusalText(limit), {
    ...(id === undefined ? {} : { id }),
    data: { retryAfterMs: IN_FLIGHT_RETRY_AFTER_MS },
    headers: retry,
  });
}

/** The number of requests in a batch (messages with a method and an id). */
export function requestCount(batch: readonly unknown[]): number {
  let count = 0;
  for (const message of batch) if (classify(message).kind === 'request') count++;
  return count;
}

/**
 * Splits a batch for a permit of `granted` places: the first `granted` requests run (with every
 * notification, response and invalid message, which need no place); each request past them is
 * left out and gets its own error reply, to be added to the batch reply.
 */
export function splitBatch(
  batch: readonly unknown[],
  granted: number,
  limit: InFlightLimit,
): { run: unknown[]; refused: JsonRpcResponse[] } {
  const run: unknown[] = [];
  const refused: JsonRpcResponse[] = [];
  let places = granted;
  for (const message of batch) {
    const m = classify(message);
    if (m.kind !== 'request' || places > 0) {
      if (m.kind === 'request') places--;
      run.push(message);
      continue;
    }
    const code = limit === 'caller' ? RATE_LIMITED : ErrorCode.InternalError;
    refused.push(errorResponse(m.id, code, refusalText(limit), { retryAfterMs: IN_FLIGHT_RETRY_AFTER_MS }));
  }
  return { run, refused };
}
