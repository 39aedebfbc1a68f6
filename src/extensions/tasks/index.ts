/**
 * `baremcp/tasks`: the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): tool calls
 * that answer with a task the client polls, updates and cancels, and the task store behind them.
 * Every line here is public API.
 * @module baremcp/tasks
 */
export { TASK_STATUS_BROADCAST, tasksExtension } from './tasks.js';
export type { TasksOptions } from './tasks.js';
export { cancelledState, isTerminal, MemoryTaskStore, TaskStoreFullError } from './task-store.js';
export type { ExpiredTask, MemoryTaskStoreOptions, TaskState, TaskStatus, TaskStore } from './task-store.js';
export { TASKS_EXTENSION } from './task-wire.js';
