/**
 * Reserved `_meta` keys: the per-request and per-response protocol fields of 2026-07-28, and the
 * W3C trace-context keys that every revision may carry.
 *
 * Spec: MCP 2026-07-28, Basic / Overview ("`_meta`", "Per-request protocol fields",
 * "Per-response protocol fields", "OpenTelemetry trace context"); W3C Trace Context; W3C Baggage.
 * @module
 */

/** Reserved `_meta` keys of MCP 2026-07-28 (Basic / Overview, "`_meta`"). */
export const META: {
  readonly protocolVersion: 'io.modelcontextprotocol/protocolVersion';
  readonly clientInfo: 'io.modelcontextprotocol/clientInfo';
  readonly clientCapabilities: 'io.modelcontextprotocol/clientCapabilities';
  readonly logLevel: 'io.modelcontextprotocol/logLevel';
  readonly serverInfo: 'io.modelcontextprotocol/serverInfo';
  readonly subscriptionId: 'io.modelcontextprotocol/subscriptionId';
} = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/**
 * The trace-context keys, reserved in `_meta` (an exception to the prefix rule) and, with the same
 * names, HTTP headers.
 */
export const TRACE_KEYS: readonly ['traceparent', 'tracestate', 'baggage'] = [
  'traceparent',
  'tracestate',
  'baggage',
] as const;
