/**
 * The prompt registry and the `prompts/list` and `prompts/get` methods.
 *
 * Spec: MCP 2025-11-25, Server / Prompts ("Error Handling": invalid prompt name and missing
 * required arguments are `-32602`); Server / Utilities / Pagination; MCP 2026-07-28 (caching,
 * `resultType`).
 * @module
 */
import { WireCache } from './wire-cache.js';
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, isObject, type JsonObject } from '../protocol/messages.js';
import type { ContentBlock } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import { paginate } from './pagination.js';
import { listedFor, missingScopes } from './principal.js';
import {
  checkPrompt,
  PromptDefinitionError,
  wirePrompt,
  type PromptDefinition,
  type PromptReturn,
} from './prompt.js';
import { contentBlockProblem } from './content.js';
import { wireContent } from './wire.js';

/** Reads `params.arguments`: an object of strings; a missing required one is `-32602`. */
function readArguments(prompt: PromptDefinition, value: unknown): Record<string, string> {
  if (value !== undefined && value !== null && !isObject(value)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `prompts/get: arguments for "${prompt.name}" must be an object of strings`,
    );
  }
  const entries = Object.entries((value ?? {}) as Record<string, unknown>);
  for (const [name, given] of entries) {
    if (typeof given !== 'string') {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `prompts/get: argument "${name}" of "${prompt.name}" must be a string, got ${given === null ? 'null' : Array.isArray(given) ? 'array' : typeof given}`,
        { name: prompt.name, argument: name },
      );
    }
  }
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain argument.
  const args = Object.fromEntries(entries) as Record<string, string>;
  const missing = (prompt.arguments ?? [])
    .filter((a) => a.required === true && !hasOwn(args, a.name))
    .map((a) => a.name);
  if (missing.length > 0) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `prompts/get: "${prompt.name}" is missing required argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`,
      { name: prompt.name, missing },
    );
  }
  return args;
}

/** What `get` returned as a `GetPromptResult` for `revision`; a plain Error when malformed. */
function toResult(value: PromptReturn, prompt: PromptDefinition, revision: string): JsonObject {
  const bad = (why: string): Error => new Error(`prompt "${prompt.name}": get returned ${why}`);
  let messages: unknown;
  const result: JsonObject = {};
  if (typeof value === 'string') {
    messages = [{ role: 'user', content: value }];
  } else if (Array.isArray(value)) {
    messages = value;
  } else if (isObject(value)) {
    messages = value.messages;
    if (typeof value.description === 'string') result.description = value.description;
    if (isObject(value._meta)) result._meta = value._meta as JsonObject;
  }
  if (!Array.isArray(messages))
    throw bad('no messages (return a string, an array of messages or { messages })');
  if (result.description === undefined && prompt.description !== undefined)
    result.description = prompt.description;
  result.messages = messages.map((message: unknown, i) => {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      throw bad(`messages[${i}] without role "user" or "assistant"`);
    }
    const content =
      typeof message.content === 'string'
        ? { type: 'text', text: message.content }
        : message.content;
    const problem = contentBlockProblem(content);
    if (problem !== undefined) throw bad(`messages[${i}].content: ${problem}`);
    return {
      role: message.role,
      content: wireContent(content as unknown as ContentBlock, revision),
    };
  });
  return result;
}

/** The registry of a server's prompts, with their wire forms cached per revision. */
export class PromptRegistry {
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #wire = new WireCache();
  readonly #listeners = new Set<() => void>();

  /** @throws {PromptDefinitionError} for an unusable or duplicate definition. */
  constructor(prompts: readonly PromptDefinition[] = []) {
    this.#add(prompts);
  }

  /** Number of prompts (0: the server has no `prompts` capability). */
  get size(): number {
    return this.#prompts.size;
  }

  /** The prompt named `name`, or undefined. */
  prompt(name: string): PromptDefinition | undefined {
    return this.#prompts.get(name);
  }

  /** Every prompt definition, in registration order. */
  definitions(): PromptDefinition[] {
    return [...this.#prompts.values()];
  }

  /** True when some prompt declares a completer (the server then announces `completions`). */
  hasCompletions(): boolean {
    for (const prompt of this.#prompts.values()) {
      if (prompt.complete !== undefined && Object.keys(prompt.complete).length > 0) return true;
    }
    return false;
  }

  /**
   * Adds prompts on a live server, all or none; list-changed listeners run.
   * @throws {PromptDefinitionError} when one is unusable or its name is taken.
   */
  add(...prompts: PromptDefinition[]): void {
    this.#add(prompts);
    this.#changed();
  }

  /** Removes the prompt named `name`; true when there was one (listeners then run). */
  remove(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  /**
   * Registers `listener` to run after each add or remove (the server sends
   * `notifications/prompts/list_changed`). Returns a function that unregisters it.
   */
  onListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `prompts/list`: one page of `Prompt` objects shaped for `ctx.protocolVersion`. */
  list(params: JsonObject | undefined, ctx: RequestContext, pageSize: number): JsonObject {
    const revision = ctx.protocolVersion;
    const wire = this.#wire.get(revision, () => [...this.#prompts.values()].map((p) => wirePrompt(p, revision)));
    const granted = listedFor(ctx.principal, ctx.transport);
    if (granted === undefined) return paginate('prompts', wire, params, pageSize);
    const prompts = this.definitions();
    return paginate('prompts', wire.filter((_, i) => missingScopes(granted, prompts[i]?.scopes).length === 0), params, pageSize);
  }

  /**
   * `prompts/get`: checks the arguments, runs `get`, shapes the messages for the revision
   * (content a revision lacks is degraded to text; see `wireContent`).
   * @throws {RpcError} `-32602` for a missing or unknown name, arguments that are not an object
   *   of strings, or a missing required argument (`data.missing` lists them).
   * @throws {Error} when `get` throws or returns a malformed value (the dispatcher: `-32603`).
   */
  async get(params: JsonObject | undefined, ctx: RequestContext): Promise<JsonObject> {
    const name = params?.name;
    if (typeof name !== 'string')
      throw new RpcError(ErrorCode.InvalidParams, 'prompts/get: params.name must be a string');
    const prompt = this.#prompts.get(name);
    if (prompt === undefined)
      throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
    const args = readArguments(prompt, params?.arguments);
    return toResult(await prompt.get(args, ctx), prompt, ctx.protocolVersion);
  }

  #add(prompts: readonly PromptDefinition[]): void {
    const added = new Map<string, PromptDefinition>();
    for (const prompt of prompts) {
      checkPrompt(prompt);
      if (this.#prompts.has(prompt.name) || added.has(prompt.name))
        throw new PromptDefinitionError(`prompt "${prompt.name}" is defined twice`);
      added.set(prompt.name, prompt);
    }
    for (const [name, prompt] of added) this.#prompts.set(name, prompt);
  }

  #changed(): void {
    this.#wire.clear();
    for (const listener of [...this.#listeners]) listener();
  }
}
