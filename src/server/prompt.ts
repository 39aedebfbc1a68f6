/**
 * The prompt definition an author writes, the checks run on it, and its wire form per revision.
 *
 * Spec: MCP 2025-11-25, Server / Prompts ("Prompt", "PromptArgument", "PromptMessage"); schema.ts
 * `Prompt`, `GetPromptResult`.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { ContentBlock, Icon } from '../protocol/types.js';
import type { Completer } from './completion.js';
import type { RequestContext } from './context.js';
import { badScopes } from './principal.js';
import { copyFields, type FieldsSince } from './wire.js';

/** An argument a prompt accepts (MCP 2025-11-25, `PromptArgument`). Values are always strings. */
export interface PromptArgumentDefinition {
  name: string;
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  /** When true, `prompts/get` without it is refused with `-32602`. */
  required?: boolean;
}

/** One message of a prompt; `content` may be a string (a text block). */
export interface PromptMessageReturn {
  role: 'user' | 'assistant';
  content: ContentBlock | string;
}

/**
 * What `get` may return: a string (one user text message), an array of messages, or a full
 * `GetPromptResult` (`{ description?, messages, _meta? }`).
 */
export type PromptReturn =
  | string
  | PromptMessageReturn[]
  | { description?: string; messages: PromptMessageReturn[]; _meta?: JsonObject };

/**
 * A prompt, written as a plain object.
 * @example
 * const review: PromptDefinition = {
 *   name: 'code_review',
 *   description: 'Review a piece of code.',
 *   arguments: [{ name: 'code', required: true }],
 *   get: ({ code }) => `Please review this code:\n${code}`,
 * };
 */
export interface PromptDefinition {
  /** Unique within the server. */
  name: string;
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  arguments?: PromptArgumentDefinition[];
  /** Sent from 2025-11-25. */
  icons?: Icon[];
  /** Sent from 2025-06-18. */
  _meta?: JsonObject;
  /** Completers for argument values, for `completion/complete` with `ref/prompt`. */
  complete?: { [argument: string]: Completer };
  /**
   * OAuth scopes a caller needs to get this prompt (all of them), when the server runs with
   * authorization; ignored on stdio, which has no authorization.
   */
  scopes?: readonly string[];
  /** Gets the messages; `args` holds the arguments given, each a string. */
  get(args: Record<string, string>, ctx: RequestContext): PromptReturn | Promise<PromptReturn>;
}

/** Thrown when a prompt definition is unusable; the message names the prompt and the fix. */
export class PromptDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptDefinitionError';
  }
}

const PROMPT_SINCE: FieldsSince = [
  ['title', '2025-06-18'],
  ['description', '2024-11-05'],
  ['icons', '2025-11-25'],
  ['_meta', '2025-06-18'],
];

const ARGUMENT_SINCE: FieldsSince = [
  ['title', '2025-06-18'],
  ['description', '2024-11-05'],
  ['required', '2024-11-05'],
];

/**
 * Checks a prompt definition.
 * @throws {PromptDefinitionError} for a missing name or `get`, a malformed or repeated argument,
 *   or a completer named after no declared argument.
 */
export function checkPrompt(prompt: PromptDefinition): PromptDefinition {
  if (typeof prompt !== 'object' || prompt === null)
    throw new PromptDefinitionError('a prompt must be an object');
  if (typeof prompt.name !== 'string' || prompt.name.length === 0) {
    throw new PromptDefinitionError(
      `prompt ${JSON.stringify(prompt.name)}: name must be a non-empty string`,
    );
  }
  const what = `prompt "${prompt.name}"`;
  if (typeof prompt.get !== 'function')
    throw new PromptDefinitionError(`${what}: get(args, ctx) must be a function`);
  for (const field of ['title', 'description'] as const) {
    if (prompt[field] !== undefined && typeof prompt[field] !== 'string') {
      throw new PromptDefinitionError(`${what}: ${field} must be a string`);
    }
  }
  const scopes = badScopes(prompt.scopes);
  if (scopes !== undefined) throw new PromptDefinitionError(`${what}: ${scopes}`);
  if (prompt.arguments !== undefined && !Array.isArray(prompt.arguments)) {
    throw new PromptDefinitionError(
      `${what}: arguments must be an array of { name, description?, required? }`,
    );
  }
  const names = new Set<string>();
  for (const argument of prompt.arguments ?? []) {
    if (typeof argument?.name !== 'string' || argument.name.length === 0) {
      throw new PromptDefinitionError(`${what}: every argument needs a non-empty name`);
    }
    if (names.has(argument.name))
      throw new PromptDefinitionError(`${what}: argument "${argument.name}" is declared twice`);
    if (argument.required !== undefined && typeof argument.required !== 'boolean') {
      throw new PromptDefinitionError(
        `${what}: argument "${argument.name}": required must be a boolean`,
      );
    }
    names.add(argument.name);
  }
  for (const [name, completer] of Object.entries(prompt.complete ?? {})) {
    if (!names.has(name)) {
      throw new PromptDefinitionError(`${what}: complete.${name} names no declared argument`);
    }
    if (typeof completer !== 'function')
      throw new PromptDefinitionError(`${what}: complete.${name} must be a function`);
  }
  return prompt;
}

/** The `Prompt` object for `revision`, with the fields it lacks left out. */
export function wirePrompt(prompt: PromptDefinition, revision: string): JsonObject {
  const wire = copyFields({ name: prompt.name }, prompt, PROMPT_SINCE, revision);
  if (prompt.arguments !== undefined) {
    wire.arguments = prompt.arguments.map((a) =>
      copyFields({ name: a.name }, a, ARGUMENT_SINCE, revision),
    );
  }
  return wire;
}
