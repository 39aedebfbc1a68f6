/**
 * JSON-RPC and MCP error codes, and the error class that goes on the wire.
 *
 * Spec: JSON-RPC 2.0 §5.1; MCP 2025-11-25, Server / Resources ("Error Handling", -32002);
 * MCP 2026-07-28, Basic / Lifecycle (-32020, -32021, -32022).
 * @module
 */
import type { JsonRpcErrorObject, JsonValue, RequestId, JsonRpcErrorResponse } from './messages.js';

/** Standard JSON-RPC error codes and the MCP-specific ones, by their spec names. */
export const ErrorCode: {
  readonly ParseError: -32700;
  readonly InvalidRequest: -32600;
  readonly MethodNotFound: -32601;
  readonly InvalidParams: -32602;
  readonly InternalError: -32603;
  readonly ResourceNotFound: -32002;
  readonly HeaderMismatch: -32020;
  readonly MissingRequiredClientCapability: -32021;
  readonly UnsupportedProtocolVersion: -32022;
} = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * baremcp's code for a request refused by a rate limit (`data: { retryAfterMs }`, the wait in
 * milliseconds before a retry can succeed). Not a spec code: MCP 2026-07-28 (Basic / Overview,
 * "Error Codes") asks that codes it does not define lie outside the JSON-RPC reserved range
 * (-32768 to -32000), so this one sits just outside it, after HTTP 429 (RFC 6585 §4). Over
 * Streamable HTTP a reply with it is `429 Too Many Requests` with `Retry-After`.
 */
export const RATE_LIMITED = -31429;

/** One of the codes in {@link ErrorCode}, or any other integer a handler chooses. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode] | number;

/**
 * A protocol error: thrown by a handler, turned into a JSON-RPC error response by the dispatcher.
 * Anything else a handler throws becomes `-32603` with no detail on the wire.
 */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: ErrorCodeValue;
  /** Optional structured detail sent as `error.data`. */
  readonly data: JsonValue | undefined;

  constructor(code: ErrorCodeValue, message: string, data?: JsonValue) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** The `error` member of a response. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * True for an `RpcError`, including one made by another copy of baremcp (a served module that
 * has its own `node_modules/baremcp`): an `Error` named `"RpcError"` with an integer `code`.
 */
export function isRpcError(value: unknown): value is RpcError {
  return value instanceof RpcError ||
    (value instanceof Error && value.name === 'RpcError' && Number.isInteger((value as { code?: unknown }).code));
}

/** Builds an error response; `id` is left out when undefined (e.g. a parse error). */
export function errorResponse(
  id: RequestId | undefined,
  code: ErrorCodeValue,
  message: string,
  data?: JsonValue,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}
