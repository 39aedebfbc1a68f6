/**
 * `completion/complete`: suggestions for prompt argument values (`ref/prompt`) and resource
 * template variables (`ref/resource`), from the completers declared on the definitions.
 *
 * Spec: MCP 2025-11-25, Server / Utilities / Completion (at most 100 values, `total`, `hasMore`,
 * `context.arguments`; invalid prompt name `-32602`); MCP 2024-11-05 (`ResourceReference`),
 * 2025-06-18 (`ResourceTemplateReference`, `context`); 2026-07-28 (`resultType`).
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, isObject, type JsonObject } from '../protocol/messages.js';
import type { RequestContext } from './context.js';
import type { PromptRegistry } from './prompts.js';
import type { ResourceRegistry } from './resources.js';

/** Most values one `completion/complete` result may carry. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * What a completer returns: the matching values, best first, or `{ values, total?, hasMore? }`
 * when it knows more than it lists. Values past the first 100 are cut and `hasMore` set.
 */
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };

/**
 * Suggests values for one prompt argument or template variable.
 * @param value what the user has typed so far.
 * @param ctx the request context.
 * @param contextArguments values already chosen for the other arguments (`context.arguments`;
 *   `{}` when the client sent none).
 */
export type Completer = (
  value: string,
  ctx: RequestContext,
  contextArguments: Readonly<Record<string, string>>,
) => CompletionReturn | Promise<CompletionReturn>;

/** Where `completion/complete` finds completers: either registry may be absent. */
export interface CompletionSources {
  prompts?: PromptRegistry;
  resources?: ResourceRegistry;
}

function invalid(message: string, data?: JsonObject): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `completion/complete: ${message}`, data);
}

/**
 * True when some prompt or template declares a completer: the server then announces the
 * `completions` capability (MCP 2025-03-26 on) and serves `completion/complete`.
 */
export function hasCompletions(sources: CompletionSources): boolean {
  return sources.prompts?.hasCompletions() === true || sources.resources?.hasCompletions() === true;
}

/**
 * Turns a completer's return into the `completion` member: at most 100 values, with `total`
 * and `hasMore`.
 * @throws {Error} when the completer returned something other than strings (a server bug).
 */
export function toCompletion(value: CompletionReturn): JsonObject {
  const values = Array.isArray(value) ? value : isObject(value) ? value.values : undefined;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    throw new Error(
      'a completer must return an array of strings or { values: string[], total?, hasMore? }',
    );
  }
  const sent = values.slice(0, MAX_COMPLETION_VALUES);
  const given = Array.isArray(value) ? undefined : value.total;
  const total =
    Number.isSafeInteger(given) && (given as number) >= sent.length
      ? (given as number)
      : values.length;
  const hasMore = (!Array.isArray(value) && value.hasMore === true) || total > sent.length;
  return { values: sent, total, hasMore };
}

function readContextArguments(params: JsonObject): Record<string, string> {
  const context = params.context;
  if (context === undefined || context === null) return {};
  const args = isObject(context) ? context.arguments : undefined;
  if (args === undefined || args === null) return {};
  if (!isObject(args) || Object.values(args).some((v) => typeof v !== 'string')) {
    throw invalid('context.arguments must be an object of strings');
  }
  return Object.fromEntries(Object.entries(args)) as Record<string, string>;
}

/** The completer declared for `name`, never an inherited property such as `constructor`. */
function own(
  completers: { [name: string]: Completer } | undefined,
  name: string,
): Completer | undefined {
  return completers !== undefined && hasOwn(completers, name) ? completers[name] : undefined;
}

/** Finds the completer `params` asks for; undefined when the argument exists but has none. */
function findCompleter(
  params: JsonObject,
  name: string,
  sources: CompletionSources,
): Completer | undefined {
  const ref = params.ref;
  if (!isObject(ref)) throw invalid('params.ref must be an object');
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalid('ref.name must be a string');
    const prompt = sources.prompts?.prompt(ref.name);
    if (prompt === undefined) throw invalid(`unknown prompt: ${ref.name}`, { name: ref.name });
    if (prompt.arguments !== undefined && !prompt.arguments.some((a) => a.name === name)) {
      throw invalid(`prompt "${ref.name}" has no argument "${name}"`, {
        name: ref.name,
        argument: name,
      });
    }
    return own(prompt.complete, name);
  }
  if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalid('ref.uri must be a string');
    const compiled = sources.resources?.template(ref.uri);
    if (compiled === undefined) {
      // A plain URI (2026-07-28 allows it) has no variables: nothing to complete.
      if (sources.resources?.resource(ref.uri) !== undefined) return undefined;
      throw invalid(`unknown resource template: ${ref.uri}`, { uri: ref.uri });
    }
    if (!compiled.template.variables.includes(name)) {
      throw invalid(`resource template "${ref.uri}" has no variable "${name}"`, {
        uri: ref.uri,
        argument: name,
      });
    }
    return own(compiled.definition.complete, name);
  }
  throw invalid(`ref.type must be "ref/prompt" or "ref/resource", got ${JSON.stringify(ref.type)}`);
}

/**
 * `completion/complete`: runs the completer for `params.argument.name` of the prompt or
 * template named by `params.ref`, with `params.context.arguments`. An argument without a
 * completer gets no values.
 * @throws {RpcError} `-32602` for malformed params, an unknown prompt or template, or an
 *   argument the prompt or template does not have.
 * @throws {Error} when the completer throws or returns something other than strings (`-32603`).
 */
export async function complete(
  params: JsonObject | undefined,
  ctx: RequestContext,
  sources: CompletionSources,
): Promise<JsonObject> {
  if (params === undefined) throw invalid('params with ref and argument are required');
  const argument = params.argument;
  if (
    !isObject(argument) ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw invalid('params.argument must be { name: string, value: string }');
  }
  const completer = findCompleter(params, argument.name, sources);
  const contextArguments = readContextArguments(params);
  const completion =
    completer === undefined
      ? { values: [], total: 0, hasMore: false }
      : toCompletion(await completer(argument.value, ctx, contextArguments));
  return { completion };
}
