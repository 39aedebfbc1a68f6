/**
 * `baremcp/policies`: small opt-in policies built on the middleware seam (`createServer({
 * middleware })`): rate limiting per caller, a read-only mode, an audit record per request, and
 * OpenTelemetry-shaped server spans. Every line here is public API.
 * @module baremcp/policies
 */
export { defaultRateLimitKey, rateLimit, RETRY_AFTER_META_KEY } from './rate-limit.js';
export type { RateLimitCaller, RateLimitOptions } from './rate-limit.js';
export { readOnly } from './read-only.js';
export { audit } from './audit.js';
export type { AuditOptions, AuditRecord } from './audit.js';
export { tracing } from './tracing.js';
export type { SpanAttribute, SpanData, TracingOptions } from './tracing.js';
