/**
 * The wire forms of a task: the `Task` fields, `CreateTaskResult`, the `DetailedTask` of
 * `tasks/get` and `notifications/tasks`, and the protocol errors of the tasks methods.
 *
 * Spec: SEP-2663 (Tasks extension), "Tasks", "Task Creation", "Task Polling", "Task Status
 * Notifications", "Error Handling"; SEP-2575 ("Missing Required Capabilities", `-32021`).
 * @module
 */
import { ErrorCode, RpcError } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcNotification } from '../../protocol/messages.js';
import type { TaskState } from './task-store.js';

/** The extension identifier (SEP-2663, "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `Task` fields of a stored task, in spec order (nothing server-internal). */
export function taskFields(state: TaskState): JsonObject {
  const task: JsonObject = { taskId: state.taskId, status: state.status };
  if (state.statusMessage !== undefined) task.statusMessage = state.statusMessage;
  task.createdAt = state.createdAt;
  task.lastUpdatedAt = state.lastUpdatedAt;
  task.ttlMs = state.ttlMs;
  if (state.pollIntervalMs !== undefined) task.pollIntervalMs = state.pollIntervalMs;
  return task;
}

/**
 * The `DetailedTask` of a stored task: its `Task` fields, with `inputRequests` while it is
 * `input_required`, `result` once `completed`, `error` once `failed`.
 */
export function detailedTask(state: TaskState): JsonObject {
  const task = taskFields(state);
  if (state.status === 'input_required') task.inputRequests = state.inputRequests ?? {};
  if (state.status === 'completed' && state.result !== undefined) task.result = state.result;
  if (state.status === 'failed' && state.error !== undefined) task.error = state.error;
  return task;
}

/** The `CreateTaskResult` answering a request that became a task (`resultType: "task"`). */
export function createTaskResult(state: TaskState): JsonObject {
  return { resultType: 'task', ...taskFields(state) };
}

/** `notifications/tasks` for a task's current state (the `DetailedTask`, as `tasks/get` has it). */
export function taskNotification(state: TaskState): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/tasks', params: detailedTask(state) };
}

/** `-32021` naming the extension: a client that did not declare it asked for what needs it. */
export function tasksNotDeclared(what: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: extension ${TASKS_EXTENSION} (${what}; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions)`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** `-32602` for a task id that is unknown, bound to another caller, or expired. */
export function taskNotFound(action: string, expired: boolean): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Failed to ${action} task: ${expired ? 'Task has expired' : 'Task not found'}`,
  );
}
