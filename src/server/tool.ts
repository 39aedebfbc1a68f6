/**
 * The tool definition an author writes, and the checks run on it when a server is created.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Tool", "Tool Names"); JSON Schema 2020-12 Core §8.1.1 ($schema).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult, ContentBlock, Icon, ToolAnnotations } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import type { StrictProfile } from '../schema/strict-rules.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { assertStrictSchema, STRICT_PROFILES } from '../schema/strict-subset.js';
import { badScopes } from './principal.js';
import { keepLibrarySchemas, servedSchema, type ToolSchema } from './tool-schema.js';

/** Whether a tool may run as a task: `forbidden`, `optional` or `required` (see `ToolDefinition`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

const TASK_SUPPORT: readonly TaskSupport[] = ['forbidden', 'optional', 'required'];

/** What a tool's `run` may return: plain text, a content array, or a full `CallToolResult`. */
export type ToolReturn = string | ContentBlock[] | CallToolResult;

/**
 * A tool, written as a plain object with a hand-written JSON Schema literal.
 *
 * `run` receives the decoded (coerced and validated) `arguments` and the request context; it may be
 * sync or async. Anything it throws becomes an `isError` result (MCP 2025-11-25, SEP-1303).
 * @example
 * const echo: ToolDefinition = {
 *   name: 'echo',
 *   description: 'Echo the text back.',
 *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   run: ({ text }) => String(text),
 * };
 */
export interface ToolDefinition<Args = Record<string, unknown>> {
  /** 1–64 characters of `[A-Za-z0-9_.-]`, unique within the server. */
  name: string;
  title?: string;
  description: string;
  /**
   * A JSON Schema 2020-12 object schema (`type: "object"`), served exactly as written; or a schema
   * from a validation library that implements Standard JSON Schema (zod 4.2+, arktype 2, valibot
   * through `toStandardJsonSchema`), converted once to JSON Schema 2020-12 and served; the
   * library's own `validate` then runs after baremcp's validator, and `run` gets its output.
   */
  inputSchema: ToolSchema;
  /**
   * When present, `structuredContent` is required in results and validated against it. Any JSON
   * Schema 2020-12 (MCP 2026-07-28): a root other than `"type": "object"` is served to older
   * revisions wrapped as `{ type: "object", properties: { result: <schema> }, required: ["result"] }`,
   * with `structuredContent: { result }`. A library schema (as for `inputSchema`) is served as its
   * output JSON Schema, and its `validate` runs on `structuredContent` before it is checked and sent.
   */
  outputSchema?: ToolSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * Vendor strict modes this tool promises to satisfy (`['openai']`, say): the server refuses to
   * start when its `inputSchema` breaks one (see `findStrictSchemaViolations`), and when a name
   * is not one of `STRICT_PROFILES` (`openai`, `anthropic`, `gemini`, `mcp`).
   */
  strict?: readonly StrictProfile[];
  /**
   * OAuth scopes a caller needs to call this tool (all of them), when the server runs with
   * authorization: over HTTP a call without them is refused with `403 insufficient_scope`, and
   * `tools/list` hides the tool from that caller. Ignored on stdio, which has no authorization.
   * (MCP 2026-07-28, Basic / Authorization, "Scope Challenge Handling".)
   */
  scopes?: readonly string[];
  /** Per-tool switch for argument coercion; default: the server's `coerce` option. */
  coerce?: boolean;
  /** Per-tool time-out in milliseconds; default: the server's `toolTimeoutMs`. */
  timeoutMs?: number;
  /**
   * Whether a call may run as a task (the tasks extension, SEP-2663; the values of the 2025-11-25
   * `execution.taskSupport`, not sent on the wire): `forbidden` (default) always answers inline;
   * `optional` runs as a task when the server decides so and the client declared the extension,
   * inline otherwise; `required` only as a task (`-32021` for a client that did not declare the
   * extension). The same `run` serves both; `ctx.task` reports status while it runs as one.
   * @default 'forbidden'
   */
  taskSupport?: TaskSupport;
  run(args: Args, ctx: RequestContext): ToolReturn | Promise<ToolReturn>;
}

/** A tool's schemas as served: JSON Schema objects (library schemas converted). */
export interface ServedSchemas {
  /** The served `inputSchema`: an object schema. */
  inputSchema: JsonObject;
  /** The served `outputSchema` (before the wrap older revisions get). */
  outputSchema?: JsonObject;
}

/** A checked tool, as the registry holds it: its schemas as served. */
export type ServedTool<Args = Record<string, unknown>> = Omit<ToolDefinition<Args>, 'inputSchema' | 'outputSchema'> &
  ServedSchemas;

/** Thrown when a tool definition is unusable; the message names the tool and the fix. */
export class ToolDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolDefinitionError';
  }
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** `servedSchema`, its errors as `ToolDefinitionError`s. */
function schemaOf(tool: string, field: 'inputSchema' | 'outputSchema', schema: unknown): ReturnType<typeof servedSchema> {
  try {
    return servedSchema(tool, field, schema);
  } catch (error) {
    throw new ToolDefinitionError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The profiles a tool promises (`strict`), each checked to be a known profile name.
 * @throws {ToolDefinitionError} when `strict` is not an array or names an unknown profile.
 */
function strictProfiles(tool: string, strict: unknown): readonly StrictProfile[] {
  if (strict === undefined) return [];
  if (!Array.isArray(strict)) {
    throw new ToolDefinitionError(
      `tool "${tool}": strict must be an array of profile names, e.g. ['openai'] ` +
        `(choose from ${STRICT_PROFILES.join(', ')})`,
    );
  }
  for (const profile of strict) {
    if (!isOneOf(profile, STRICT_PROFILES)) {
      throw new ToolDefinitionError(`tool "${tool}": ${notOneOf('strict profile', profile, STRICT_PROFILES)}`);
    }
  }
  return strict as StrictProfile[];
}

/**
 * Checks a list of tool definitions and returns them with their schemas as they will be served.
 * @throws {ToolDefinitionError} on a bad or duplicate name, a missing description or `run`, or a
 *   schema that is not an object schema in the 2020-12 dialect.
 * @throws {StrictSchemaError} when a tool's `strict` promise cannot be kept (every violation listed).
 */
export function checkToolDefinitions<T extends ToolDefinition<never>>(
  tools: readonly T[],
): Array<Omit<T, 'inputSchema' | 'outputSchema'> & ServedSchemas> {
  const seen = new Set<string>();
  return tools.map((tool, index) => {
    if (typeof tool !== 'object' || tool === null) {
      throw new ToolDefinitionError(`tools[${index}] is not an object`);
    }
    const name = tool.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw new ToolDefinitionError(
        `tools[${index}]: name ${JSON.stringify(name)} must be 1-64 characters of [A-Za-z0-9_.-]`,
      );
    }
    if (seen.has(name)) throw new ToolDefinitionError(`tool "${name}" is defined twice`);
    seen.add(name);
    if (typeof tool.description !== 'string' || tool.description.length === 0) {
      throw new ToolDefinitionError(`tool "${name}": description is required (models choose tools by it)`);
    }
    if (typeof tool.run !== 'function') {
      throw new ToolDefinitionError(`tool "${name}": run(args, ctx) must be a function`);
    }
    if (tool.taskSupport !== undefined && !TASK_SUPPORT.includes(tool.taskSupport)) {
      throw new ToolDefinitionError(`tool "${name}": taskSupport must be one of ${TASK_SUPPORT.join(', ')} (got ${JSON.stringify(tool.taskSupport)})`);
    }
    const input = schemaOf(name, 'inputSchema', tool.inputSchema);
    const output = tool.outputSchema === undefined ? undefined : schemaOf(name, 'outputSchema', tool.outputSchema);
    const inputSchema = input.schema;
    for (const profile of strictProfiles(name, tool.strict)) assertStrictSchema(name, inputSchema, profile);
    const scopes = badScopes(tool.scopes);
    if (scopes !== undefined) throw new ToolDefinitionError(`tool "${name}": ${scopes}`);
    const checked = { ...tool, inputSchema, ...(output ? { outputSchema: output.schema } : {}) };
    keepLibrarySchemas(checked, { ...(input.library ? { input: input.library } : {}), ...(output?.library ? { output: output.library } : {}) });
    return checked as Omit<T, 'inputSchema' | 'outputSchema'> & ServedSchemas;
  });
}
