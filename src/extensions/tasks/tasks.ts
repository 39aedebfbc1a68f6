/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a `tools/call` may be answered
 * with a task handle (`CreateTaskResult`) and its result fetched later with `tasks/get`; a task
 * asks for input through `tasks/get` (`inputRequests`) and gets it with `tasks/update`; it is
 * cancelled with `tasks/cancel`; `subscriptions/listen` with `notifications.taskIds` streams its
 * `notifications/tasks`. Everything goes through the server's extension seams: three methods, a
 * wrapper of `tools/call`, a subscription key. 2026-07-28 only: a legacy (`initialize`) client
 * is served as one that did not declare the extension.
 *
 * Spec: SEP-2663 (Tasks extension); MCP 2026-07-28, Basic / Versioning ("Extension
 * Negotiation"), Basic / Patterns / Subscriptions; SEP-2575 ("Missing Required Capabilities").
 * @module
 */
import { ErrorCode, RpcError } from '../../protocol/errors.js';
import { hasOwn, isObject, type JsonObject, type JsonValue } from '../../protocol/messages.js';
import type { RequestContext } from '../../server/context.js';
import type { ExtensionDefinition } from '../../server/extensions.js';
import { declaresExtension } from '../../server/methods.js';
import type { Server } from '../../server/server.js';
import type { ToolDefinition } from '../../server/tool.js';
import { TaskRun, type TaskHost } from './task-run.js';
import { isTerminal, MemoryTaskStore, type TaskState, type TaskStore } from './task-store.js';
import {
  createTaskResult,
  detailedTask,
  TASKS_EXTENSION,
  taskNotFound,
  taskNotification,
  tasksNotDeclared,
} from './task-wire.js';

/** Options of {@link tasksExtension}. */
export interface TasksOptions {
  /**
   * Where tasks live. Replicas that serve each other's tasks share one.
   * @default a MemoryTaskStore holding at most 1000 tasks
   */
  store?: TaskStore;
  /**
   * How long a task lives from its creation, in milliseconds (its `ttlMs`); then it is gone, and
   * a run still going is aborted.
   * @default 3600000 (1 hour)
   */
  ttlMs?: number;
  /**
   * The polling interval suggested to clients (`pollIntervalMs`), in milliseconds.
   * @default 1000
   */
  pollIntervalMs?: number;
  /**
   * Whether a call of a tool that supports tasks starts as a task, asked for each call from a
   * client that declared the extension. `false` runs it inline, where `run` may still call
   * `ctx.task.start()` (after gathering input, say). Default: always.
   */
  startAsTask?(tool: ToolDefinition<never>, ctx: RequestContext): boolean;
}

/** Lets a task's run outlive the response where the runtime would end it (`ctx.transport.waitUntil`). */
function keepAlive(ctx: RequestContext, run: Promise<unknown>): void {
  ctx.transport.waitUntil?.(run);
}

/** The event bus message type of a task's new state (carried as `state`). */
export const TASK_STATUS_BROADCAST = 'io.modelcontextprotocol/tasks';

/** The most task ids one `subscriptions/listen` may follow. */
const MAX_SUBSCRIBED_TASKS = 100;

/** Base64url of `bytes`. */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A task id: 160 bits from the platform's CSPRNG, base64url (27 characters). */
export function newTaskId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(20)));
}

/**
 * The key a task is bound to: the authenticated principal (issuer, subject, client), or undefined
 * without one, when the task id alone is the bearer handle (SEP-2663, "Security Implications").
 */
export function taskOwner(ctx: RequestContext): string | undefined {
  const p = ctx.principal;
  return p === undefined ? undefined : JSON.stringify([p.issuer ?? null, p.subject ?? null, p.clientId ?? null]);
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`tasksExtension: ${name} must be a positive integer (milliseconds)`);
  return value;
}

/**
 * The tasks extension, to give to `createServer({ extensions: [...] })` or `server.extension()`.
 * A tool opts in with `taskSupport: 'optional' | 'required'`; its `run` is unchanged and may use
 * `ctx.task` (status, a late start).
 * @throws {TypeError} for a `ttlMs` or `pollIntervalMs` that is not a positive integer.
 * @example
 * const server = createServer({
 *   info, tools: [{ ...report, taskSupport: 'optional' }],
 *   extensions: [tasksExtension({ ttlMs: 15 * 60_000 })],
 * });
 */
export function tasksExtension(options: TasksOptions = {}): ExtensionDefinition {
  const store = options.store ?? new MemoryTaskStore();
  const startAsTask = options.startAsTask ?? (() => true);
  const host: TaskHost = {
    store,
    ttlMs: positiveInteger(options.ttlMs, 3_600_000, 'ttlMs'),
    pollIntervalMs: positiveInteger(options.pollIntervalMs, 1000, 'pollIntervalMs'),
    running: new Map(),
    newId: newTaskId,
    ownerOf: taskOwner,
    publish(server: Server, state: TaskState): void {
      notifyHere(server, state);
      void server.broadcast({ type: TASK_STATUS_BROADCAST, state: state as unknown as JsonObject });
    },
  };
  /** Sends `notifications/tasks` for `state` to the subscribers on this replica. */
  const notifyHere = (server: Server, state: TaskState): void => {
    const id = state.taskId;
    server.notifySubscribers('taskIds', (agreed) => Array.isArray(agreed) && agreed.includes(id), taskNotification(state));
  };

  /** The task `taskId` names, if `ctx` may see it. @throws {RpcError} `-32602` otherwise. */
  const load = async (taskId: string, ctx: RequestContext, action: string): Promise<TaskState> => {
    const task = await store.get(taskId);
    // A task bound to another principal is not found (its existence is not revealed).
    const mine = task !== undefined && (task.owner === undefined || task.owner === taskOwner(ctx));
    if (!mine) throw taskNotFound(action, false);
    if ('expired' in task) throw taskNotFound(action, true);
    return task;
  };

  return {
    id: TASKS_EXTENSION,
    eras: ['modern'],
    methods: {
      'tasks/get': {
        required: { taskId: 'string' },
        nameParam: 'taskId',
        run: async (params, ctx) => detailedTask(await load(params?.taskId as string, ctx, 'retrieve')),
      },
      'tasks/update': {
        required: { taskId: 'string', inputResponses: 'object' },
        nameParam: 'taskId',
        async run(params, ctx) {
          const taskId = params?.taskId as string;
          const task = await load(taskId, ctx, 'update');
          // A finished task takes no more input: acknowledged, ignored.
          if (isTerminal(task.status)) return {};
          const given = params?.inputResponses as JsonObject;
          for (const key of Object.keys(task.inputRequests ?? {})) {
            if (hasOwn(given, key) && !isObject(given[key])) {
              throw new RpcError(ErrorCode.InvalidParams, `tasks/update: inputResponses["${key}"] must be an object (the result of the request it answers)`);
            }
          }
          let wrote = false;
          const state = await store.update(taskId, (current) => {
            wrote = false;
            if (isTerminal(current.status)) return undefined;
            const requests: JsonObject = { ...current.inputRequests };
            const responses: JsonObject = { ...current.inputResponses };
            // Only outstanding keys count; unknown and already answered ones are ignored.
            for (const key of Object.keys(requests)) {
              if (!hasOwn(given, key)) continue;
              responses[key] = given[key] as JsonValue;
              delete requests[key];
              wrote = true;
            }
            if (!wrote) return undefined;
            const open = Object.keys(requests).length > 0;
            return {
              ...current,
              status: open ? 'input_required' : 'working',
              inputRequests: requests,
              inputResponses: responses,
              lastUpdatedAt: new Date().toISOString(),
            };
          });
          if (state !== undefined && wrote) {
            host.publish(ctx.server, state);
            host.running.get(taskId)?.deliver(state);
          }
          return {};
        },
      },
      'tasks/cancel': {
        required: { taskId: 'string' },
        nameParam: 'taskId',
        async run(params, ctx) {
          const taskId = params?.taskId as string;
          const task = await load(taskId, ctx, 'cancel');
          if (isTerminal(task.status)) return {};
          const state = await store.cancel(taskId);
          if (state?.status === 'cancelled') {
            host.running.get(taskId)?.abort(new Error('the task was cancelled (tasks/cancel)'));
            host.publish(ctx.server, state);
          }
          return {};
        },
      },
    },
    wrap: {
      async 'tools/call'(params, ctx, next) {
        const name = typeof params?.name === 'string' ? params.name : '';
        const tool = ctx.server.tools.get(name);
        const support = tool?.taskSupport ?? 'forbidden';
        if (tool === undefined || support === 'forbidden') return next();
        if (ctx.era === 'legacy' || !declaresExtension(ctx, TASKS_EXTENSION)) {
          if (support === 'optional') return next();
          if (ctx.era === 'modern') throw tasksNotDeclared(`tool "${name}" runs only as a task`);
          // The 2025-11-25 answer to a task-required tool called without a task.
          throw new RpcError(
            ErrorCode.MethodNotFound,
            `Method not found: tool "${name}" runs only as a task (extension ${TASKS_EXTENSION}, protocol revision 2026-07-28); this request uses ${ctx.protocolVersion}`,
          );
        }
        const run = new TaskRun(host, ctx, name, support);
        if (startAsTask(tool, ctx)) {
          // The task exists before run begins, and before the reply leaves.
          if (!(await run.start())) return next();
          keepAlive(ctx, run.finish(next(run.context)));
          return createTaskResult(run.created);
        }
        run.linkRequest();
        const started = run.started();
        const outcome = next(run.context);
        const first = await Promise.race([
          outcome.then(() => 'inline' as const, () => 'inline' as const),
          started.then(() => 'task' as const),
        ]);
        if (first === 'inline') {
          run.unlinkRequest();
          return outcome;
        }
        keepAlive(ctx, run.finish(outcome));
        return createTaskResult(run.created);
      },
    },
    broadcasts: {
      // A task changed on another replica: its subscribers here hear of it, and a run of it here
      // gets the answers (tasks/update) or stops (tasks/cancel) at once.
      [TASK_STATUS_BROADCAST](message, server) {
        const state = message.state as unknown as TaskState;
        if (!isObject(state) || typeof state.taskId !== 'string') return;
        notifyHere(server, state);
        host.running.get(state.taskId)?.deliver(state);
      },
    },
    subscriptions: {
      taskIds: {
        async accept(value, ctx) {
          if (!declaresExtension(ctx, TASKS_EXTENSION)) throw tasksNotDeclared('notifications.taskIds asks for notifications/tasks');
          if (!Array.isArray(value)) throw new RpcError(ErrorCode.InvalidParams, 'subscriptions/listen: notifications.taskIds must be an array of task ids');
          const agreed: string[] = [];
          const owner = taskOwner(ctx);
          for (const id of value.slice(0, MAX_SUBSCRIBED_TASKS)) {
            if (typeof id !== 'string' || agreed.includes(id)) continue;
            const task = await store.get(id);
            if (task !== undefined && !('expired' in task) && (task.owner === undefined || task.owner === owner)) agreed.push(id);
          }
          return agreed.length === 0 ? undefined : agreed;
        },
      },
    },
  };
}
