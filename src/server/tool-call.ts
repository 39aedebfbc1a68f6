/**
 * One `tools/call`: decode and check the arguments (coercion, then validation), run the tool
 * with its hooks and time-out, and shape what it returned into a `CallToolResult` for the
 * request's revision. A failing tool is a result (`isError`), a malformed call a protocol error.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Error Handling"); SEP-1303 (input errors are tool
 * results, not protocol errors); MCP 2025-06-18 (`structuredContent`, `outputSchema`).
 * @module
 */
import { ErrorCode, RpcError, isRpcError } from '../protocol/errors.js';
import { DEFAULT_MAX_DEPTH, exceedsDepth } from '../protocol/limits.js';
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { notOneOf } from '../protocol/names.js';
import { atLeast } from '../protocol/revisions.js';
import type { CallToolResult, ContentBlock } from '../protocol/types.js';
import { InputRequiredSignal } from './client-input.js';
import { contentProblem } from './content.js';
import { servedStructuredContent } from './output-schema.js';
import { isAborted, type RequestContext } from './context.js';
import { isThenable } from './thenable.js';
import type { ServedTool, ToolReturn } from './tool.js';

/** The `_meta` key under which a result reports the coercions applied to its call. */
export const COERCIONS_META_KEY = 'dev.baremcp/coercions';

/** What {@link ArgumentPipeline.prepare} returns: arguments for `run`, or problems to report. */
export type PreparedArguments = { args: JsonObject; coercions?: JsonValue[] } | { problems: string[] };

/**
 * What {@link ArgumentPipeline.checkOutput} returns: the `structuredContent` to send (a library
 * output schema may have transformed it), or problems (a server bug).
 */
export type CheckedOutput = { value: JsonValue } | { problems: string[] };

/** Argument checks run before a tool: coercion then validation. Supplied by the server. */
export interface ArgumentPipeline {
  /** Compiles a tool's schemas ahead of its first call. @throws {ToolDefinitionError} for a bad schema. */
  compile?(tool: ServedTool<never>): void;
  /**
   * Returns the arguments to pass to `run` (and the coercions applied), or a list of problems a
   * model can act on; a promise only when a library schema validates asynchronously. Never throws
   * for bad input.
   */
  prepare(tool: ServedTool<never>, args: JsonObject): PreparedArguments | Promise<PreparedArguments>;
  /** Checks `structuredContent` against the tool's `outputSchema`: the value to send, or problems. */
  checkOutput(tool: ServedTool<never>, structured: JsonValue): CheckedOutput | Promise<CheckedOutput>;
}

/** Limits applied to every tool call. */
export interface ToolLimits {
  /** Server-wide time-out in milliseconds; 0 for none. A tool's own `timeoutMs` wins. */
  timeoutMs: number;
  /** Largest result, in characters of text and base64 data (and of `structuredContent` as JSON). */
  maxResultSize: number;
  /** Largest nesting depth of arguments sent as a JSON string. */
  maxDepth?: number;
}

/** What a {@link ToolRegistry} runs calls with (supplied by the server). */
export interface ToolRunner {
  /** Coercion and validation of arguments, and the check of `structuredContent`. */
  pipeline: ArgumentPipeline;
  /** Where diagnostics go (one line each). */
  report: (line: string) => void;
  /** Limits applied to every call. */
  limits: ToolLimits;
  /** Report coercions in every result's `_meta` (else only when the request asks). */
  reportCoercions: boolean;
  /** Hooks around every call, outermost first. */
  hooks: readonly ToolHook[];
}

/** A tool call as hooks see it: the tool's definition and its checked arguments. */
export interface ToolCall {
  /** The tool being called. */
  readonly tool: ServedTool<never>;
  /** The arguments after coercion and validation: what `run` receives. */
  readonly arguments: JsonObject;
}

/**
 * Hooks around each tool call, after its arguments are checked (a call with bad arguments never
 * reaches them). `before` may answer instead of the tool by returning what `run` could return;
 * `after` sees the result and may return another: every result past the `before` hooks,
 * including the `isError` result of a `run` (or a `before` hook) that threw. A hook that throws an `RpcError` makes the
 * call a protocol error; anything else thrown becomes an `isError` result, as from `run`.
 * Hooks run in order for `before` and in reverse order for `after`.
 */
export interface ToolHook {
  before?(call: ToolCall, ctx: RequestContext): void | ToolReturn | Promise<void | ToolReturn>;
  after?(
    call: ToolCall,
    result: CallToolResult,
    ctx: RequestContext,
  ): void | CallToolResult | Promise<void | CallToolResult>;
}

/** The keys of a {@link ToolHook}. */
const HOOK_KEYS: readonly string[] = ['before', 'after'];

/**
 * Checks a tool hook before it is added; `where` prefixes the message (`createServer: toolHooks[0]`).
 * @throws {TypeError} for a value that is not an object with `before` and/or `after`, an unknown
 *   key (a misspelt `befor` would otherwise never run), or a `before`/`after` that is not a function.
 */
export function checkToolHook(hook: ToolHook, where: string): ToolHook {
  for (const key of isObject(hook) ? Object.keys(hook) : []) {
    if (!HOOK_KEYS.includes(key)) throw new TypeError(`${where}: ${notOneOf('key', key, HOOK_KEYS)}`);
  }
  if (!isObject(hook) || (hook.before === undefined && hook.after === undefined)) {
    throw new TypeError(`${where}: a hook is an object with before(call, ctx) and/or after(call, result, ctx)`);
  }
  if (hook.before !== undefined && typeof hook.before !== 'function') {
    throw new TypeError(`${where}: before must be a function (call, ctx) => result`);
  }
  if (hook.after !== undefined && typeof hook.after !== 'function') {
    throw new TypeError(`${where}: after must be a function (call, result, ctx) => result`);
  }
  return hook;
}

/** Characters of text and base64 data in a result (a cheap size estimate, no serialisation). */
function resultSize(result: CallToolResult): number {
  let size = 0;
  for (const block of result.content) {
    const b = block as { text?: unknown; data?: unknown; resource?: { text?: unknown; blob?: unknown } };
    if (typeof b.text === 'string') size += b.text.length;
    if (typeof b.data === 'string') size += b.data.length;
    if (typeof b.resource?.text === 'string') size += b.resource.text.length;
    if (typeof b.resource?.blob === 'string') size += b.resource.blob.length;
  }
  if (result.structuredContent !== undefined) {
    try {
      size += JSON.stringify(result.structuredContent).length;
    } catch {
      // Not serialisable: the transport answers -32603 for it.
    }
  }
  return size;
}

/** Calls `run` now (not in a later microtask, so it sees a cancel that follows) as a promise. */
function invoke<T>(run: (ctx: RequestContext) => T | Promise<T>, ctx: RequestContext): Promise<T> {
  try {
    if (isAborted(ctx)) throw ctx.signal.reason;
    return Promise.resolve(run(ctx));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Runs `run` with a time-out: aborts a child signal and rejects when it passes. */
function withTimeout<T>(
  ctx: RequestContext,
  timeoutMs: number,
  tool: string,
  run: (ctx: RequestContext) => T | Promise<T>,
): Promise<T> {
  if (!(timeoutMs > 0)) return invoke(run, ctx);
  const controller = new AbortController();
  const forward = (): void => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`Tool "${tool}" timed out after ${timeoutMs} ms; try a smaller request.`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  // The child inherits the context's methods and fields, with its own signal.
  const child = Object.create(ctx, { signal: { value: controller.signal } }) as RequestContext;
  return Promise.race([invoke(run, child), expired]).finally(() => {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', forward);
  });
}

/** Describes a thrown value in words a model can read: never `[object Object]`. */
export function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error) return String(value.message || value.name);
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (typeof value === 'bigint') return `${value}n`;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      // Cyclic or otherwise unserialisable: name its kind and keys rather than "[object Object]".
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      const keys = typeof value === 'object' && value !== null ? Object.keys(value).slice(0, 10) : [];
      return `${typeof name === 'string' ? name : typeof value} that cannot be shown as JSON${keys.length > 0 ? ` (keys: ${keys.join(', ')})` : ''}`;
    }
  } catch {
    return 'the tool failed with an error that cannot be read';
  }
}

/** A `CallToolResult` with `isError: true` and one text block. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Turns what `run` returned into a `CallToolResult`. Non-conforming values become JSON text. */
export function toCallToolResult(value: ToolReturn | undefined): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (Array.isArray(value)) return { content: value as ContentBlock[] };
  if (isObject(value) && Array.isArray(value.content)) return value;
  // Not a CallToolResult: shown as JSON text (the caller reports it as the tool's fault).
  return { content: [{ type: 'text', text: describeThrown(value) }] };
}

/** Tools already warned about returning `undefined` (one warning per tool). */
const returnedUndefined = new WeakSet<object>();

/** The protocol error for a `tools/call` of a tool the server does not serve: `-32602`. */
export function unknownTool(name: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
}

/**
 * `tools/call` on `tools`: decodes and checks `params`, runs the tool, shapes the result.
 * Synchronous when every step is (coercion and validation, no hooks, no time-out, a tool that
 * returns a value rather than a promise, no asynchronous output check): the common call then
 * makes no promise at all. `run` is called now either way (not in a later microtask, so it sees
 * a cancel that follows).
 * @throws {RpcError} `-32602` for malformed params or an unknown tool (a protocol error); or the
 *   returned promise rejects with it when a step before was asynchronous.
 */
export function callTool(
  tools: ReadonlyMap<string, ServedTool<never>>,
  params: JsonObject | undefined,
  ctx: RequestContext,
  runner: ToolRunner,
): CallToolResult | Promise<CallToolResult> {
  const { pipeline, report, limits } = runner;
  const name = params?.name;
  if (typeof name !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'tools/call: params.name must be a string');
  }
  const tool = tools.get(name);
  if (tool === undefined) throw unknownTool(name);
  const args = decodeArguments(params?.arguments, report, name);
  if (typeof params?.arguments === 'string' && exceedsDepth(args, limits.maxDepth ?? DEFAULT_MAX_DEPTH)) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: arguments nested deeper than the limit of ${limits.maxDepth ?? DEFAULT_MAX_DEPTH} levels`);
  }
  const pending = pipeline.prepare(tool, args);
  // A library schema that validates asynchronously; every other call stays on this turn.
  if (pending instanceof Promise) return pending.then((prepared) => callPrepared(tool, name, prepared, ctx, runner));
  return callPrepared(tool, name, pending, ctx, runner);
}

/** The call once its arguments are checked: run (with hooks and time-out), then {@link finish}. */
function callPrepared(
  tool: ServedTool<never>,
  name: string,
  prepared: PreparedArguments,
  ctx: RequestContext,
  runner: ToolRunner,
): CallToolResult | Promise<CallToolResult> {
  if ('problems' in prepared) {
    return toolError(
      `Invalid arguments for tool "${name}":\n` + prepared.problems.map((p) => `- ${p}`).join('\n'),
    );
  }
  hideProtoKeys(prepared.args);
  const timeoutMs = tool.timeoutMs ?? runner.limits.timeoutMs;
  if (runner.hooks.length > 0 || timeoutMs > 0) {
    return runHooked(tool, name, prepared.args, timeoutMs, ctx, runner).then((result) =>
      finish(tool, name, prepared, result, ctx, runner),
    );
  }
  // No hooks, no time-out: `run` now, and its value shaped on this turn when it is not a promise.
  let value: ToolReturn | Promise<ToolReturn>;
  try {
    if (isAborted(ctx)) throw ctx.signal.reason;
    value = (tool.run as RunFunction)(prepared.args, ctx);
    // Inside the try: reading `then` may throw (a getter, a Proxy), and that is the tool's fault
    // (an isError result), as it was when the value was awaited.
    if (isThenable(value)) {
      return Promise.resolve(value).then(
        (v) => finish(tool, name, prepared, returnedResult(tool, name, v, ctx, runner.report), ctx, runner),
        (error: unknown) => finish(tool, name, prepared, thrownResult(error, ctx), ctx, runner),
      );
    }
  } catch (error) {
    return finish(tool, name, prepared, thrownResult(error, ctx), ctx, runner);
  }
  return finish(tool, name, prepared, returnedResult(tool, name, value, ctx, runner.report), ctx, runner);
}

type RunFunction = (args: JsonObject, ctx: RequestContext) => ToolReturn | Promise<ToolReturn>;

/**
 * What `run` returned as a `CallToolResult`, with a diagnostic for an `undefined` (once per
 * tool) or an object that is not a `CallToolResult`. A fault here is the tool's: an `isError`
 * result (or the protocol outcome {@link thrownResult} rethrows).
 */
function returnedResult(
  tool: ServedTool<never>,
  name: string,
  value: ToolReturn | undefined,
  ctx: RequestContext,
  report: (line: string) => void,
): CallToolResult {
  try {
    const result = toCallToolResult(value);
    if (value === undefined && !returnedUndefined.has(tool)) {
      returnedUndefined.add(tool);
      report(`tool "${name}" returned undefined, so the client got an empty result (content: []); return a string, content blocks or a CallToolResult (said once per tool)`);
    }
    if (isObject(value) && !Array.isArray(value.content)) {
      report(`tool "${name}" returned an object that is not a CallToolResult (no content array); sent it as JSON text`);
    }
    return result;
  } catch (error) {
    return thrownResult(error, ctx);
  }
}

/** Runs the `before` hooks, `run` with its time-out, and the `after` hooks. */
async function runHooked(
  tool: ServedTool<never>,
  name: string,
  args: JsonObject,
  timeoutMs: number,
  ctx: RequestContext,
  runner: ToolRunner,
): Promise<CallToolResult> {
  const hooks = runner.hooks;
  let result: CallToolResult;
  const call: ToolCall = { tool, arguments: args };
  try {
    const early = hooks.length === 0 ? undefined : await runBefore(hooks, call, ctx);
    const run = tool.run as RunFunction;
    const value = early !== undefined ? early : await withTimeout(ctx, timeoutMs, name, (c) => run(args, c));
    result = returnedResult(tool, name, value, ctx, runner.report);
  } catch (error) {
    result = thrownResult(error, ctx);
  }
  // The after hooks see every result past the before hooks, isError results included.
  if (hooks.length > 0) {
    try {
      result = await runAfter(hooks, call, result, ctx);
    } catch (error) {
      return thrownResult(error, ctx);
    }
  }
  return result;
}

/**
 * The last checks of a result: readable content, the size limit, the coercions in `_meta`, the
 * `outputSchema`, and `structuredContent` for the revision. A promise only when the output check
 * of a library schema is asynchronous.
 */
function finish(
  tool: ServedTool<never>,
  name: string,
  prepared: { args: JsonObject; coercions?: JsonValue[] },
  result: CallToolResult,
  ctx: RequestContext,
  runner: ToolRunner,
): CallToolResult | Promise<CallToolResult> {
  const { report, limits } = runner;
  const unreadable = contentProblem(result.content);
  if (unreadable !== undefined) {
    report(`tool "${name}" returned a result no client can read: ${unreadable}`);
    return toolError(`Tool "${name}" produced an invalid result (a server bug, not your call): ${unreadable}`);
  }
  const size = resultSize(result);
  if (size > limits.maxResultSize) {
    report(`tool "${name}" returned ${size} characters, over the limit of ${limits.maxResultSize}`);
    return toolError(`Tool "${name}" produced a result of ${size} characters, over the limit of ${limits.maxResultSize}; ask for less (a smaller range or fewer items).`);
  }
  if (prepared.coercions !== undefined && (runner.reportCoercions || ctx.meta?.[COERCIONS_META_KEY] === true)) {
    result = { ...result, _meta: { ...result._meta, [COERCIONS_META_KEY]: prepared.coercions } };
  }
  if (tool.outputSchema !== undefined && result.isError !== true) {
    const checked: CheckedOutput | Promise<CheckedOutput> =
      result.structuredContent === undefined
        ? { problems: ['the tool declares an outputSchema but returned no structuredContent'] }
        : runner.pipeline.checkOutput(tool, result.structuredContent);
    const shaped = result;
    if (checked instanceof Promise) return checked.then((c) => checkedOutput(tool, name, shaped, c, ctx, report));
    return checkedOutput(tool, name, shaped, checked, ctx, report);
  }
  return forRevision(tool, result, ctx);
}

/** {@link finish} after the output check: its problems, or the checked `structuredContent`. */
function checkedOutput(
  tool: ServedTool<never>,
  name: string,
  result: CallToolResult,
  checked: CheckedOutput,
  ctx: RequestContext,
  report: (line: string) => void,
): CallToolResult {
  const problems = 'problems' in checked ? checked.problems : [];
  if ('value' in checked && checked.value !== result.structuredContent) {
    result = { ...result, structuredContent: checked.value };
  }
  if (problems.length > 0) {
    report(`tool "${name}" returned a result that breaks its outputSchema: ${problems.join('; ')}`);
    return toolError(
      `Tool "${name}" produced an invalid result (a server bug, not your call): ${problems.join('; ')}`,
    );
  }
  if (result.content.length === 0) {
    result = { ...result, content: [{ type: 'text', text: JSON.stringify(result.structuredContent) }] };
  }
  return forRevision(tool, result, ctx);
}

/** `structuredContent` as the request's revision carries it (as text before 2025-06-18). */
function forRevision(tool: ServedTool<never>, result: CallToolResult, ctx: RequestContext): CallToolResult {
  if (result.structuredContent !== undefined && !atLeast(ctx.protocolVersion, '2025-06-18')) {
    const { structuredContent, ...older } = result;
    return older.content.length > 0 ? older : { ...older, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] };
  } else if (result.structuredContent !== undefined) {
    const served = servedStructuredContent(result.structuredContent, tool.outputSchema, ctx.protocolVersion);
    if (served !== result.structuredContent) return { ...result, structuredContent: served };
  }
  return result;
}

/**
 * Makes every own `__proto__` key in `value` (as `JSON.parse` creates them) non-enumerable, so
 * that a tool's own `Object.assign({}, args)` or `for...in` copy cannot set the prototype of its
 * copy from the arguments. The key stays readable as `args['__proto__']`. Depth is bounded by the
 * nesting limit checked before.
 */
export function hideProtoKeys(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) hideProtoKeys(item);
    return;
  }
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) {
    Object.defineProperty(value, '__proto__', { enumerable: false });
  }
  for (const key in value) hideProtoKeys((value as Record<string, unknown>)[key]);
}

/**
 * The `isError` result for what a tool or a hook threw.
 * @throws the error itself when it is a protocol outcome: a question for the client (2026-07-28),
 *   a missing client capability, an `RpcError` thrown by a hook, or one thrown after cancellation.
 */
function thrownResult(error: unknown, ctx: RequestContext): CallToolResult {
  if (error instanceof InputRequiredSignal) throw error;
  if (error instanceof HookRefusal) throw error.error;
  if (isRpcError(error) && error.code === ErrorCode.MissingRequiredClientCapability) throw error;
  if (isRpcError(error) && isAborted(ctx)) throw error;
  return toolError(describeThrown(error));
}

/** Carries an `RpcError` thrown by a hook out of the call: a protocol error, not a tool error. */
class HookRefusal {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** Runs the `before` hooks in order; the first that returns a value answers for the tool. */
async function runBefore(hooks: readonly ToolHook[], call: ToolCall, ctx: RequestContext): Promise<ToolReturn | undefined> {
  for (const hook of hooks) {
    if (hook.before === undefined) continue;
    let value: void | ToolReturn;
    try {
      value = await hook.before(call, ctx);
    } catch (error) {
      throw isRpcError(error) ? new HookRefusal(error) : error;
    }
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Runs the `after` hooks in reverse order; each may replace the result. */
async function runAfter(
  hooks: readonly ToolHook[],
  call: ToolCall,
  result: CallToolResult,
  ctx: RequestContext,
): Promise<CallToolResult> {
  let current = result;
  for (let i = hooks.length - 1; i >= 0; i--) {
    const after = hooks[i]?.after;
    if (after === undefined) continue;
    let value: void | CallToolResult;
    try {
      value = await after(call, current, ctx);
    } catch (error) {
      throw isRpcError(error) ? new HookRefusal(error) : error;
    }
    if (value !== undefined) current = toCallToolResult(value);
  }
  return current;
}

/** `arguments` absent or `null` is `{}`; a JSON string holding an object is decoded and reported. */
function decodeArguments(value: JsonValue | undefined, report: (line: string) => void, tool: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value as JsonObject;
  if (typeof value === 'string') {
    let decoded: unknown;
    try {
      decoded = JSON.parse(value);
    } catch {
      decoded = undefined;
    }
    if (isObject(decoded)) {
      report(`coerced tools/call "${tool}" arguments: a JSON string -> object (json-string-to-object)`);
      return decoded as JsonObject;
    }
  }
  throw new RpcError(
    ErrorCode.InvalidParams,
    `tools/call: arguments for "${tool}" must be an object, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`,
  );
}
