/**
 * The tool registry and `tools/list`: the tools a server serves, their wire forms cached per
 * revision, and the list-changed listeners; `tools/call` runs in `tool-call.ts`.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Listing Tools", "List Changed Notification").
 * @module
 */
import { WireCache } from './wire-cache.js';
import type { JsonObject, JsonValue } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';
import type { CallToolResult, Tool } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import { paginate } from './pagination.js';
import { missingScopes } from './principal.js';
import { checkToolDefinitions, ToolDefinitionError, type ServedTool, type ToolDefinition } from './tool.js';
import { callTool, type ToolRunner } from './tool-call.js';
import { servedOutputSchema } from './output-schema.js';
import { misspelledKeywords } from './tool-schema.js';

/** Fields of `Tool` and the revision that introduced each (older revisions do not get them). */
const TOOL_FIELD_SINCE: ReadonlyArray<readonly [keyof Tool, string]> = [
  ['title', '2025-06-18'],
  ['outputSchema', '2025-06-18'],
  ['annotations', '2025-03-26'],
  ['icons', '2025-11-25'],
  ['_meta', '2025-06-18'],
];

const NO_RUNNER: ToolRunner = {
  pipeline: { prepare: (_tool, args) => ({ args }), checkOutput: (_tool, value) => ({ value }) },
  report: () => {},
  limits: { timeoutMs: 0, maxResultSize: Infinity },
  reportCoercions: false,
  hooks: [],
};

/**
 * The registry of a server's tools with their wire forms, cached per revision. Adding and
 * removing tools runs the list-changed listeners (the server then sends
 * `notifications/tools/list_changed`), whichever way they are added.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, ServedTool<never>>();
  readonly #wire = new WireCache();
  readonly #listeners = new Set<() => void>();
  readonly #runner: ToolRunner;

  /** @throws {ToolDefinitionError} for an unusable or duplicate definition. */
  constructor(tools: readonly ToolDefinition<never>[] = [], runner: ToolRunner = NO_RUNNER) {
    this.#runner = runner;
    this.#add(tools);
  }

  /**
   * Adds tools on a live server (checked as at creation; all or none); list-changed listeners run.
   * @throws {ToolDefinitionError} for an unusable definition or a name already registered.
   */
  add(...tools: ToolDefinition<never>[]): void {
    this.#add(tools);
    this.#changed();
  }

  /** Removes the tool named `name`; true when there was one (listeners then run). */
  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  /**
   * Registers `listener` to run after each add or remove. Returns a function that unregisters it.
   */
  onListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Number of tools. */
  get size(): number {
    return this.#tools.size;
  }

  /** The tool named `name` (its schemas as served), or undefined. */
  get(name: string): ServedTool<never> | undefined {
    return this.#tools.get(name);
  }

  /** Every tool (its schemas as served), in registration order. */
  list(): ServedTool<never>[] {
    return [...this.#tools.values()];
  }

  /** The `Tool` objects for `revision`, with fields the revision lacks left out. */
  wire(revision: string): JsonObject[] {
    return this.#wire.get(revision, () => this.list().map((tool) => wireTool(tool, revision)));
  }

  /**
   * `tools/list`: one page of tools; with `granted`, only the tools those scopes permit (the
   * caller's, under authorization).
   */
  listPage(params: JsonObject | undefined, revision: string, pageSize: number, granted?: readonly string[]): JsonObject {
    const wire = this.wire(revision);
    if (granted === undefined) return paginate('tools', wire, params, pageSize);
    const tools = this.list();
    return paginate('tools', wire.filter((_, i) => missingScopes(granted, tools[i]?.scopes).length === 0), params, pageSize);
  }

  #add(tools: readonly ToolDefinition<never>[]): void {
    const checked = checkToolDefinitions(tools);
    for (const tool of checked) {
      if (this.#tools.has(tool.name)) throw new ToolDefinitionError(`tool "${tool.name}" is defined twice`);
    }
    // Schemas compile before anything is registered: a bad one leaves the registry unchanged.
    for (const tool of checked) this.#runner.pipeline.compile?.(tool);
    for (const tool of checked) this.#tools.set(tool.name, tool);
    for (const tool of checked) for (const line of misspelledKeywords(tool)) this.#runner.report(line);
    this.#wire.clear();
  }

  #changed(): void {
    this.#wire.clear();
    for (const listener of [...this.#listeners]) listener();
  }

  /**
   * `tools/call`: decodes and checks `params`, runs the tool, shapes the result. Always a promise
   * (code that calls a tool from a handler may chain on it), as {@link ToolRegistry.callNow} is not.
   * @returns a promise of the result; it rejects with an RpcError `-32602` for malformed
   *   params or an unknown tool (a protocol error).
   */
  call(params: JsonObject | undefined, ctx: RequestContext): Promise<CallToolResult> {
    try {
      return Promise.resolve(callTool(this.#tools, params, ctx, this.#runner));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * {@link ToolRegistry.call} as the server's `tools/call` uses it: the result itself (no promise)
   * when every step was synchronous (see `callTool`), so a synchronous tool costs no promise here.
   * @throws {RpcError} `-32602` for malformed params or an unknown tool, at once or as the
   *   returned promise's rejection when a step before was asynchronous.
   */
  callNow(params: JsonObject | undefined, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
    return callTool(this.#tools, params, ctx, this.#runner);
  }
}

function wireTool(tool: ServedTool<never>, revision: string): JsonObject {
  const source = tool as unknown as { [key: string]: JsonValue | undefined };
  const wire: JsonObject = { name: tool.name };
  for (const [field, since] of TOOL_FIELD_SINCE) {
    const value = source[field];
    if (value !== undefined && atLeast(revision, since)) wire[field] = value;
  }
  wire.description = tool.description;
  wire.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined && wire.outputSchema !== undefined) wire.outputSchema = servedOutputSchema(tool.outputSchema, revision);
  return wire;
}
