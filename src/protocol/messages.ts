/**
 * JSON-RPC 2.0 message shapes and the guards that tell them apart.
 *
 * Spec: JSON-RPC 2.0 §4–5; MCP 2025-11-25, Basic / Overview ("Messages").
 * @module
 */

/** Any JSON value, as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A request id: a string or an integer (MCP forbids `null`; JSON-RPC discourages fractions).
 * `0` and `""` are valid and echoed exactly.
 */
export type RequestId = string | number;

/** A JSON-RPC request: has an `id` and expects exactly one response. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC notification: no `id`, never answered. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** The `error` member of an error response (JSON-RPC 2.0 §5.1). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

/** A successful response. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/** An error response; `id` is omitted when the request's id could not be read (e.g. a parse error). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a valid request id: a string or a safe integer. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** Own-property test that is safe for keys such as `__proto__` and `hasOwnProperty`. */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** True when `message` has the shape of a response (an id and `result` or `error`, no `method`). */
export function isResponse(message: unknown): message is JsonRpcResponse {
  return (
    isObject(message) &&
    !hasOwn(message, 'method') &&
    (hasOwn(message, 'result') || hasOwn(message, 'error'))
  );
}

/** True when `message` is a request (has a `method` and an `id`). No validation of the id. */
export function isRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && typeof message.method === 'string' && hasOwn(message, 'id');
}

/** True when `message` is a notification (a `method` and no `id`). */
export function isNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && typeof message.method === 'string' && !hasOwn(message, 'id');
}
