/**
 * Sorts one decoded JSON value into request, notification, response or invalid, with the
 * JSON-RPC error an invalid one gets.
 *
 * Spec: JSON-RPC 2.0 §4 (Request object), §5 (Response object); MCP 2025-11-25, Basic
 * ("Requests": the id MUST NOT be null; params is an object).
 * @module
 */
import { ErrorCode, errorResponse } from './errors.js';
import {
  hasOwn,
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcErrorResponse,
  type RequestId,
} from './messages.js';

/** The outcome of {@link classify}. */
export type Classified =
  | { kind: 'request'; id: RequestId; method: string; params: JsonObject | undefined }
  | { kind: 'notification'; method: string; params: JsonObject | undefined }
  | { kind: 'response'; id: RequestId; result?: JsonObject; error?: JsonObject }
  | { kind: 'invalid'; reply: JsonRpcErrorResponse };

function invalid(id: RequestId | undefined, message: string): Classified {
  return { kind: 'invalid', reply: errorResponse(id, ErrorCode.InvalidRequest, message) };
}

/** Classifies one message (not a batch). Never throws. */
export function classify(message: unknown): Classified {
  if (!isObject(message)) return invalid(undefined, 'Invalid Request: a message must be a JSON object');
  const id = hasOwn(message, 'id') && isRequestId(message.id) ? message.id : undefined;
  if (message.jsonrpc !== '2.0') return invalid(id, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (!hasOwn(message, 'method')) {
    if (id !== undefined && (hasOwn(message, 'result') || hasOwn(message, 'error'))) {
      return {
        kind: 'response',
        id,
        ...(isObject(message.result) ? { result: message.result as JsonObject } : {}),
        ...(isObject(message.error) ? { error: message.error as JsonObject } : {}),
      };
    }
    return invalid(id, 'Invalid Request: a message needs "method" (request) or "result"/"error" (response)');
  }
  if (typeof message.method !== 'string') return invalid(id, 'Invalid Request: "method" must be a string');
  if (hasOwn(message, 'params') && !isObject(message.params)) {
    return invalid(id, 'Invalid Request: "params" must be an object');
  }
  const params = message.params as JsonObject | undefined;
  if (!hasOwn(message, 'id')) return { kind: 'notification', method: message.method, params };
  if (id === undefined) {
    const raw = message.id;
    const why =
      raw === null
        ? 'must not be null'
        : typeof raw === 'number'
          ? Number.isInteger(raw)
            ? 'is an integer beyond the exact range ±9007199254740991'
            : 'must be an integer, not a fraction'
          : `must be a string or an integer, not ${Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object' : `a ${typeof raw}`}`;
    return invalid(undefined, `Invalid Request: "id" ${why}`);
  }
  return { kind: 'request', id, method: message.method, params };
}
