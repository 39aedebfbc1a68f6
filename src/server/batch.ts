/**
 * A 2025-03-26 JSON-RPC batch: every request in it gets exactly one reply in the batch reply,
 * within bounds. Past `maxItems` nothing runs: each request gets its own `-32600`, an invalid
 * message the error it always gets, and notifications and responses are dropped (and reported); a reply that JSON cannot carry (a `BigInt`, a cycle) or that
 * would take the batch reply past `maxReplyBytes` is replaced by a `-32603` error for that request.
 *
 * Spec: JSON-RPC 2.0 §6 (Batch); MCP 2025-03-26, Basic ("Batching"; initialize MUST NOT be part of
 * a batch).
 * @module
 */
import { classify } from '../protocol/classify.js';
import { ErrorCode, errorResponse } from '../protocol/errors.js';
import { isObject, isRequestId, type JsonRpcResponse, type RequestId } from '../protocol/messages.js';
import type { BatchLimits } from './pipeline.js';

/** Bytes of `text` as UTF-8 (a lone surrogate counts 3, as its replacement character would). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The id of a message that has a usable one, else undefined. */
function idOf(message: unknown): RequestId | undefined {
  return isObject(message) && isRequestId(message.id) ? message.id : undefined;
}

/**
 * Serves the messages of a non-empty batch with `single` and resolves to the batch reply, or
 * `null` when no message in it wants one.
 */
export async function serveBatch(
  messages: readonly unknown[],
  limits: BatchLimits,
  single: (message: unknown) => Promise<JsonRpcResponse | null>,
  report: (line: string) => void,
): Promise<JsonRpcResponse[] | null> {
  let dropped = 0;
  const replies = await Promise.all(
    messages.map((m, index): JsonRpcResponse | null | Promise<JsonRpcResponse | null> => {
      if (index >= limits.maxItems) {
        // Past the limit nothing runs: a request gets its own error, an invalid message the
        // error it always gets; notifications and responses are dropped (and reported).
        const kind = classify(m);
        if (kind.kind === 'invalid') return kind.reply;
        if (kind.kind === 'request') {
          return errorResponse(
            kind.id,
            ErrorCode.InvalidRequest,
            `Invalid Request: a batch holds at most ${limits.maxItems} messages; send this one in another batch`,
          );
        }
        dropped++;
        return null;
      }
      // initialize MUST NOT be part of a batch (MCP 2025-03-26, Basic / Lifecycle).
      if (isObject(m) && m.method === 'initialize' && 'id' in m) {
        return errorResponse(idOf(m), ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be part of a batch');
      }
      return single(m);
    }),
  );
  if (dropped > 0) {
    report(`a batch of ${messages.length} messages is over the limit of ${limits.maxItems}: ${dropped} notification(s) or response(s) past it were dropped`);
  }
  const list: JsonRpcResponse[] = [];
  let bytes = 2;
  for (const reply of replies) {
    if (reply === null) continue;
    let size: number;
    try {
      size = utf8Length(JSON.stringify(reply)) + 1;
    } catch {
      report(`the reply to batch request ${JSON.stringify(reply.id ?? null)} could not be serialised as JSON`);
      const error = errorResponse(reply.id, ErrorCode.InternalError, 'Internal error: the result could not be serialised as JSON');
      bytes += JSON.stringify(error).length + 1;
      list.push(error);
      continue;
    }
    if (bytes + size > limits.maxReplyBytes) {
      const error = errorResponse(
        reply.id,
        ErrorCode.InternalError,
        `Internal error: this reply would take the batch reply past ${limits.maxReplyBytes} bytes; send the request alone, or ask for less`,
      );
      bytes += JSON.stringify(error).length + 1;
      list.push(error);
      continue;
    }
    bytes += size;
    list.push(reply);
  }
  return list.length > 0 ? list : null;
}
