/**
 * What the built-in policies (audit, tracing) read of one served request: what it addressed, how
 * it ended as the client sees it, and the clock they time it with.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Error Handling": `isError`), Basic / Utilities /
 * Cancellation; MCP 2026-07-28, Basic / Patterns / Multi Round-Trip Requests (`input_required`).
 * @module
 */
import { ErrorCode, isRpcError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/messages.js';
import { isAborted, type RequestContext } from '../server/context.js';
import { CANCELLED, internalErrorMessage } from '../server/pipeline.js';

/** Milliseconds since the Unix epoch, monotonic within the process (`performance`). */
export function epochClock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * How a request ended, as its client sees it: a result (`ok`), a tool result with `isError`, a
 * 2026-07-28 `input_required` result, no reply because the client cancelled it, or a JSON-RPC
 * error (`-32603` for a fault that is not an `RpcError`, with the message the client got).
 */
export type Outcome =
  | { readonly kind: 'ok' | 'isError' | 'input_required' | 'cancelled' }
  | { readonly kind: 'error'; readonly code: number; readonly message: string };

const OK: Outcome = { kind: 'ok' };
const IS_ERROR: Outcome = { kind: 'isError' };
const INPUT_REQUIRED: Outcome = { kind: 'input_required' };
const CANCELLED_OUTCOME: Outcome = { kind: 'cancelled' };

/** True when the client cancelled the request (`notifications/cancelled`). */
function cancelled(ctx: RequestContext): boolean {
  return isAborted(ctx) && ctx.signal.reason === CANCELLED;
}

/** The outcome of a request that resolved to `result`. */
export function resultOutcome(ctx: RequestContext, result: JsonObject): Outcome {
  if (cancelled(ctx)) return CANCELLED_OUTCOME;
  if (result.resultType === 'input_required') return INPUT_REQUIRED;
  return ctx.method === 'tools/call' && result.isError === true ? IS_ERROR : OK;
}

/** The outcome of a request that failed with `error`. */
export function errorOutcome(ctx: RequestContext, error: unknown): Outcome {
  if (cancelled(ctx)) return CANCELLED_OUTCOME;
  if (isRpcError(error)) return { kind: 'error', code: error.code, message: error.message };
  const message = internalErrorMessage(ctx.method);
  return { kind: 'error', code: ErrorCode.InternalError, message };
}

/** The message of a thrown value, for a diagnostic line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a request addresses: the tool, prompt or resource it names, known or not. */
export interface Addressed {
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** A tool or prompt name, or a resource URI. */
  readonly name: string;
}

/**
 * What `ctx`'s request addresses: `ctx.target` when it names something that exists, else the
 * name in its params (`tools/call` and `prompts/get`: `name`; `resources/read`, `subscribe`,
 * `unsubscribe`: `uri`); undefined for other methods.
 */
export function addressed(ctx: RequestContext): Addressed | undefined {
  if (ctx.target !== undefined) return ctx.target;
  const params = ctx.params;
  switch (ctx.method) {
    case 'tools/call':
      return typeof params?.name === 'string' ? { kind: 'tool', name: params.name } : undefined;
    case 'prompts/get':
      return typeof params?.name === 'string' ? { kind: 'prompt', name: params.name } : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof params?.uri === 'string' ? { kind: 'resource', name: params.uri } : undefined;
    default:
      return undefined;
  }
}

/**
 * Runs `next()` and calls `settle` once with the outcome, before the result or error goes on.
 * @throws what `next()` throws.
 */
export function observe(
  ctx: RequestContext,
  next: () => Promise<JsonObject>,
  settle: (outcome: Outcome) => void,
): Promise<JsonObject> {
  return next().then(
    (result) => {
      settle(resultOutcome(ctx, result));
      return result;
    },
    (error: unknown) => {
      settle(errorOutcome(ctx, error));
      throw error;
    },
  );
}
