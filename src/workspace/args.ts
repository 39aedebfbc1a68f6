/**
 * Argument readers for the workspace tools. The server validates arguments against each
 * `inputSchema` before `run`; these checks repeat the essentials so that `run` is safe when it is
 * called directly, and their messages name the argument and the fix.
 *
 * Spec: MCP 2025-11-25, Server / Tools (`tools/call` `arguments`).
 * @module
 */
import { ToolError } from './results.js';

/** The arguments object a tool receives. */
export type ToolArgs = Record<string, unknown>;

/**
 * Refuses keys outside `known` (the schemas say `additionalProperties: false`).
 * @throws {ToolError} naming the unknown key and the allowed ones.
 */
export function checkKnownArgs(args: ToolArgs, known: readonly string[]): void {
  for (const key of Object.keys(args)) {
    if (!known.includes(key)) {
      throw new ToolError(`Unknown argument '${key}'. Allowed arguments: ${known.join(', ')}.`);
    }
  }
}

/**
 * A string argument; `null` or absent gives `fallback`.
 * @throws {ToolError} when it is required and absent, or not a string.
 */
export function stringArg(args: ToolArgs, name: string, fallback?: string): string {
  const value = args[name];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw new ToolError(`The argument '${name}' is required.`);
  }
  if (typeof value !== 'string') throw new ToolError(`The argument '${name}' must be a string.`);
  return value;
}

/**
 * An optional boolean argument; `null` or absent gives `fallback`.
 * @throws {ToolError} on any other type.
 */
export function booleanArg(args: ToolArgs, name: string, fallback: boolean): boolean {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean')
    throw new ToolError(`The argument '${name}' must be true or false.`);
  return value;
}

/**
 * An optional integer argument of at least 1; `null` or absent gives `undefined`.
 * @throws {ToolError} for a fraction, zero, a negative number or another type.
 */
export function positiveIntegerArg(args: ToolArgs, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ToolError(`The argument '${name}' must be a whole number of at least 1.`);
  }
  return value;
}
