/**
 * One `tools/call` that runs, or may come to run, as a task: the context its `run` sees (its own
 * abort signal, `ctx.task`, questions that become the task's `inputRequests`), the creation of
 * the task, and every write to the store while it runs, up to its result or error.
 *
 * A call either starts as a task (the usual case: the task exists before `run` begins), or runs
 * inline until `run` calls `ctx.task.start()`: questions asked before that went to the client as
 * multi round-trip requests, and the request is answered with `CreateTaskResult` at that point.
 *
 * Spec: SEP-2663 (Tasks extension), "Task Creation", "Task Status", "Task Update Requests",
 * "Task Cancellation", "Composition with Multi Round-Trip Requests"; SEP-2322 (`inputRequests`).
 * @module
 */
import { ErrorCode, RpcError, isRpcError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/messages.js';
import type { InputMethod } from '../../server/client-input.js';
import type { LoggingLevel, RequestContext, TaskControl } from '../../server/context.js';
import type { Server } from '../../server/server.js';
import type { TaskSupport } from '../../server/tool.js';
import { TaskInput } from './task-input.js';
import { isTerminal, type TaskState, type TaskStore } from './task-store.js';

/** What a running task needs from its extension. */
export interface TaskHost {
  readonly store: TaskStore;
  /** `ttlMs` of new tasks. */
  readonly ttlMs: number;
  /** `pollIntervalMs` of new tasks; also how often a run waiting for input reads the store. */
  readonly pollIntervalMs: number;
  /** The runs of this process, by task id (for `tasks/update` and `tasks/cancel`). */
  readonly running: Map<string, TaskRun>;
  /** A new task id. */
  newId(): string;
  /** The principal key a task of `ctx` is bound to, if any. */
  ownerOf(ctx: RequestContext): string | undefined;
  /** Sends `notifications/tasks` for `state` to its subscribers on `server`. */
  publish(server: Server, state: TaskState): void;
}

const iso = (): string => new Date().toISOString();
const EXPIRED = 'the task expired (its ttlMs passed)';
/** Longest delay a timer takes (2^31 - 1 ms, about 24.8 days); longer TTLs rely on the sweep. */
const MAX_TIMER_MS = 0x7fffffff;

/** Leaves out the fields of a task that only a task waiting for input has. */
function withoutInput(task: TaskState): TaskState {
  const { inputRequests: _requests, inputResponses: _responses, ...rest } = task;
  return rest;
}

/** A call that runs (or may come to run) as a task in this process. */
export class TaskRun {
  /** The context `run` receives. */
  readonly context: RequestContext;
  /** What `ctx.task` shows of this run. */
  readonly control: TaskControl;
  readonly #host: TaskHost;
  readonly #ctx: RequestContext;
  readonly #tool: string;
  readonly #support: TaskSupport;
  readonly #controller = new AbortController();
  #taskId: string | undefined;
  #created: TaskState | undefined;
  #starting: Promise<boolean> | undefined;
  #onStart: (() => void) | undefined;
  readonly #input: TaskInput;
  #unlink: (() => void) | undefined;
  /** Aborts the run when the task's TTL passes, whether or not another task is created. */
  #expiry: ReturnType<typeof setTimeout> | undefined;

  constructor(host: TaskHost, ctx: RequestContext, tool: string, support: TaskSupport) {
    this.#host = host;
    this.#ctx = ctx;
    this.#tool = tool;
    this.#support = support;
    const run = this;
    this.control = {
      get taskId() {
        return run.#taskId;
      },
      start: () => this.start(),
      status: (message) => this.status(message),
    };
    this.#input = new TaskInput({
      capabilities: ctx.client.capabilities,
      pollIntervalMs: host.pollIntervalMs,
      signal: this.#controller.signal,
      ask: (requests) =>
        this.#write((task) => ({
          ...task,
          status: 'input_required',
          inputRequests: { ...task.inputRequests, ...requests },
          lastUpdatedAt: iso(),
        })),
      read: () => host.store.get(this.#taskId as string),
      gone: (state) => this.abort(new Error(state === undefined || 'expired' in state ? EXPIRED : `the task is ${state.status}`)),
    });
    const ask = (method: InputMethod, params: JsonObject, key: string | undefined, inline: () => Promise<JsonObject>) =>
      this.#taskId === undefined ? inline() : this.#input.ask(method, params, key);
    this.context = Object.create(ctx, {
      signal: { value: this.#controller.signal },
      task: { value: this.control },
      progress: {
        value: (progress: number, total?: number, message?: string) => {
          if (this.#taskId === undefined) return ctx.progress(progress, total, message);
          const text = message ?? (total === undefined ? `${progress}` : `${progress}/${total}`);
          void this.status(text).catch(() => {});
        },
      },
      log: {
        value: (level: LoggingLevel, data: Parameters<RequestContext['log']>[1], logger?: string) => {
          if (this.#taskId === undefined) ctx.log(level, data, logger);
        },
      },
      elicit: { value: (p: JsonObject, o?: { key?: string }) => ask('elicitation/create', p, o?.key, () => ctx.elicit(p, o)) },
      sample: { value: (p: JsonObject, o?: { key?: string }) => ask('sampling/createMessage', p, o?.key, () => ctx.sample(p, o)) },
      listRoots: { value: (o?: { key?: string }) => ask('roots/list', {}, o?.key, () => ctx.listRoots(o)) },
    }) as RequestContext;
  }

  /** The task's id, once the call runs as a task. */
  get taskId(): string | undefined {
    return this.#taskId;
  }

  /** Until the call becomes a task, a cancel of its request aborts `run`. */
  linkRequest(): void {
    const signal = this.#ctx.signal;
    const forward = (): void => this.#controller.abort(signal.reason);
    if (signal.aborted) forward();
    signal.addEventListener('abort', forward, { once: true });
    this.#unlink = () => signal.removeEventListener('abort', forward);
  }

  /** Stops forwarding the request's cancel (the call finished inline, or became a task). */
  unlinkRequest(): void {
    this.#unlink?.();
    this.#unlink = undefined;
  }

  /** Resolves once `run` called `ctx.task.start()` and the task exists. */
  started(): Promise<void> {
    return new Promise((resolve) => (this.#onStart = resolve));
  }

  /** See {@link TaskControl.start}. */
  start(): Promise<boolean> {
    this.#starting ??= this.#create();
    return this.#starting;
  }

  async #create(): Promise<boolean> {
    const host = this.#host;
    const now = Date.now();
    const at = new Date(now).toISOString();
    const owner = host.ownerOf(this.#ctx);
    const state: TaskState = {
      taskId: host.newId(),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: host.ttlMs,
      pollIntervalMs: host.pollIntervalMs,
      ...(owner === undefined ? {} : { owner }),
    };
    // A call whose request was cancelled while it ran inline does not become a task.
    if (this.#controller.signal.aborted) throw this.#controller.signal.reason;
    try {
      for (const id of await host.store.expire(now)) {
        host.running.get(id)?.abort(new Error(EXPIRED));
        host.running.delete(id);
      }
      await host.store.create(state);
    } catch (error) {
      const full = error instanceof Error && error.name === 'TaskStoreFullError';
      if (!full) this.#ctx.server.report(`tasks: could not create a task for tool "${this.#tool}": ${error instanceof Error ? error.message : String(error)}`);
      // An optional task runs inline instead; a required one cannot run at all.
      if (this.#support === 'optional') return false;
      const refusal = new RpcError(
        ErrorCode.InternalError,
        full
          ? `Internal error: tool "${this.#tool}" runs only as a task, and ${(error as Error).message}; retry later`
          : `Internal error: tool "${this.#tool}" runs only as a task, and the task could not be created`,
      );
      this.#controller.abort(refusal);
      throw refusal;
    }
    this.#taskId = state.taskId;
    this.#created = state;
    host.running.set(state.taskId, this);
    if (host.ttlMs <= MAX_TIMER_MS) {
      this.#expiry = setTimeout(() => this.abort(new Error(EXPIRED)), host.ttlMs);
      (this.#expiry as { unref?: () => void }).unref?.();
    }
    this.unlinkRequest();
    this.#onStart?.();
    return true;
  }

  /** The task as created: the seed state `CreateTaskResult` carries. */
  get created(): TaskState {
    return this.#created as TaskState;
  }

  /** See {@link TaskControl.status}. */
  async status(message: string): Promise<void> {
    if (this.#taskId === undefined) return;
    await this.#write((task) =>
      task.statusMessage === message ? undefined : { ...task, statusMessage: message, lastUpdatedAt: iso() },
    );
  }

  /** Aborts `run` (a cancel, an expiry) and fails the questions it waits on. */
  abort(reason: unknown): void {
    this.#controller.abort(reason);
    this.#input.release(reason);
  }

  /**
   * Hands the answers `state` holds to the questions waiting for them; aborts the run when the
   * task is over (cancelled elsewhere).
   */
  deliver(state: TaskState): void {
    if (isTerminal(state.status)) this.abort(new Error(`the task is ${state.status}`));
    else this.#input.deliver(state);
  }

  /**
   * Waits for `run` and stores how it ended: `completed` with its result (an `isError` result
   * too), `failed` with the JSON-RPC error of a protocol error. Never rejects.
   */
  async finish(outcome: Promise<JsonObject>): Promise<void> {
    let end: (task: TaskState) => TaskState;
    try {
      const result = await outcome;
      end = (task) => ({ ...withoutInput(task), status: 'completed', result, lastUpdatedAt: iso() });
    } catch (error) {
      end = (task) => ({ ...withoutInput(task), ...this.#failure(error), lastUpdatedAt: iso() });
    }
    try {
      try {
        await this.#write((task) => end(task));
      } catch (error) {
        // A result JSON cannot carry (or a store that failed): the task still ends.
        this.#ctx.server.report(`tasks: could not store the outcome of task ${this.#taskId}: ${error instanceof Error ? error.message : String(error)}`);
        const failed = { code: ErrorCode.InternalError, message: 'Internal error: the result could not be stored (is it JSON?)' };
        await this.#write((task) => ({ ...withoutInput(task), status: 'failed', statusMessage: failed.message, error: failed, lastUpdatedAt: iso() }));
      }
    } catch {
      // The store is gone too; nothing more can be done for this task.
    } finally {
      clearTimeout(this.#expiry);
      this.#input.release(new Error('the task is over'));
      this.#host.running.delete(this.#taskId as string);
    }
  }

  #failure(error: unknown): Pick<TaskState, 'status' | 'statusMessage' | 'error'> {
    if (isRpcError(error)) {
      const rpc: JsonObject = { code: error.code, message: error.message };
      if (error.data !== undefined) rpc.data = error.data;
      return { status: 'failed', statusMessage: error.message, error: rpc };
    }
    this.#ctx.server.report(`tasks: tool "${this.#tool}" failed in task ${this.#taskId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const message = 'Internal error while running the task';
    return { status: 'failed', statusMessage: message, error: { code: ErrorCode.InternalError, message } };
  }

  /**
   * Applies `change` to the task unless it is over, and announces the new state; a task that is
   * over or gone aborts the run (it was cancelled, or expired).
   */
  async #write(change: (task: TaskState) => TaskState | undefined): Promise<void> {
    let wrote = false;
    const state = await this.#host.store.update(this.#taskId as string, (task) => {
      const next = isTerminal(task.status) ? undefined : change(task);
      wrote = next !== undefined;
      return next;
    });
    if (state === undefined) {
      this.abort(new Error(EXPIRED));
      return;
    }
    if (wrote) this.#host.publish(this.#ctx.server, state);
    else if (isTerminal(state.status)) this.abort(new Error(`the task is ${state.status}`));
  }
}
