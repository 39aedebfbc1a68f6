/**
 * `baremcp/schema`: JSON Schema tools beyond what a server author needs: the validator, the
 * checks against vendors' strict tool modes (the library behind `baremcp check`), and
 * LLM-tolerant argument coercion (what `tools/call` runs before validation).
 *
 * Pure, like the root entry: it imports no `node:` module, so it runs on Node, Deno, Bun,
 * browsers and edge workers. Every line here is public API.
 *
 * Spec: JSON Schema 2020-12; MCP 2025-11-25, Server / Tools (`inputSchema`, `outputSchema`).
 * @example
 * // findStrictSchemaViolations and STRICT_PROFILES imported from this entry, baremcp/schema:
 * for (const profile of STRICT_PROFILES) console.error(profile, findStrictSchemaViolations(schema, profile));
 * @module baremcp/schema
 */

// The validator (also exported by the root entry).
export { compileSchema } from './validate.js';
export { SchemaCompileError } from './types.js';
export type { CompileOptions, SchemaError, ValidationResult, Validator } from './types.js';

// Vendor strict modes: one schema, a whole tool list, and the table `baremcp check` prints.
export {
  assertStrictSchema,
  findStrictSchemaViolations,
  STRICT_PROFILES,
  StrictSchemaError,
} from './strict-subset.js';
export type {
  StrictCheckOptions,
  StrictProfile,
  StrictSeverity,
  StrictViolation,
} from './strict-subset.js';
export { findToolSetViolations } from './strict-toolset.js';
export type { ToolSchemas, ToolViolation } from './strict-toolset.js';
export { formatViolationsTable } from './strict-report.js';

// Argument coercion ("5" to 5 where the schema says integer), every change reported.
export { coerceArguments, formatCoercions } from './coerce.js';
export type { CoerceOptions, Coercion, CoercionResult, CoercionRule } from './coerce.js';
