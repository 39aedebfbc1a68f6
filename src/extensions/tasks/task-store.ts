/**
 * Where tasks live: the {@link TaskStore} interface (create, get, update, cancel, expire) over
 * plain JSON task states, so that a shared store (Redis, a database) can hold them for several
 * replicas, and {@link MemoryTaskStore}, the bounded in-process default (a count limit; each task
 * gone once its `ttlMs` has passed).
 *
 * Spec: SEP-2663 (Tasks extension), "Tasks", "Task Status", "Task Creation" (durable create),
 * "Task Polling" (TTL), "Error Handling" (expired tasks).
 * @module
 */
import type { JsonObject } from '../../protocol/messages.js';

/** A task's status (SEP-2663, `Task.status`). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for `completed`, `failed` and `cancelled`: the task's state no longer changes. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The cancelled state of `task` at `at` (ISO 8601), its open input requests dropped; `undefined`
 * when the task is terminal already (a terminal task never changes). The one cancel transition
 * every {@link TaskStore} applies (SEP-2663, `tasks/cancel`).
 */
export function cancelledState(task: TaskState, at: string): TaskState | undefined {
  if (isTerminal(task.status)) return undefined;
  const { inputRequests: _dropped, ...rest } = task;
  return { ...rest, status: 'cancelled', lastUpdatedAt: at };
}

/**
 * One task as a store keeps it: plain JSON (no classes, no functions), the `Task` fields of
 * SEP-2663 plus what the server needs to serve it.
 */
export interface TaskState {
  /** The task's id: at least 128 random bits, the bearer handle of the task. */
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation after which the task is gone; null for no limit. */
  ttlMs: number | null;
  /** Suggested polling interval, milliseconds. */
  pollIntervalMs?: number;
  /** The principal the task is bound to (a stable key), when the creating request had one. */
  owner?: string;
  /** Outstanding server-to-client requests, in the multi round-trip shape, by key. */
  inputRequests?: JsonObject;
  /** Answers `tasks/update` delivered, by key, not yet taken by the running tool. */
  inputResponses?: JsonObject;
  /** The final result (status `completed`). */
  result?: JsonObject;
  /** The JSON-RPC error (status `failed`). */
  error?: JsonObject;
}

/** What {@link TaskStore.get} resolves to for a task whose TTL passed, while the store remembers it. */
export interface ExpiredTask {
  readonly taskId: string;
  readonly expired: true;
  /** The principal the task was bound to. */
  readonly owner?: string;
}

/**
 * The storage of tasks. Every method is async and every value JSON, so that an implementation
 * can keep tasks outside the process; the server never holds a task state across calls.
 */
export interface TaskStore {
  /**
   * Stores a new task; resolves once `get` finds it (on every replica: SEP-2663 requires the task
   * to exist before `CreateTaskResult` is sent).
   * @throws {TaskStoreFullError} when the store is at its limit, or the task's `owner` holds as
   *   many tasks as one owner may (a store shared by many callers should bound both).
   */
  create(task: TaskState): Promise<void>;
  /**
   * The task, an {@link ExpiredTask} for one the store still remembers as expired, or undefined
   * for an unknown (or long-expired) id.
   */
  get(taskId: string): Promise<TaskState | ExpiredTask | undefined>;
  /**
   * Replaces the task with `mutate(current)`, atomically; `mutate` returning undefined leaves it
   * as it is. `mutate` is pure and may run more than once (a shared store retries it when another
   * writer won). Resolves to the task as stored afterwards; undefined for an unknown or expired id.
   */
  update(taskId: string, mutate: (task: TaskState) => TaskState | undefined): Promise<TaskState | undefined>;
  /**
   * Marks the task `cancelled` (its outstanding input requests dropped) unless it is terminal
   * already. Resolves to the task afterwards; undefined for an unknown or expired id.
   */
  cancel(taskId: string): Promise<TaskState | undefined>;
  /**
   * Deletes every task whose TTL has passed at `now` (milliseconds since the epoch) and resolves
   * to the ids of the tasks that expired since the last call (the server aborts their runs); a
   * store whose backend expires keys on its own may resolve `[]`.
   */
  expire(now: number): Promise<string[]>;
}

/** Thrown by {@link TaskStore.create} when the store holds as many tasks as it may. */
export class TaskStoreFullError extends Error {
  /** The limit that was reached, in words (`maxTasks 1000`). */
  readonly limit: string;
  constructor(limit: string, message?: string) {
    super(message ?? `the task store is full (${limit})`);
    this.name = 'TaskStoreFullError';
    this.limit = limit;
  }
}

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * The most tasks held at once, running and finished; a create beyond it fails (no task is
   * dropped before its TTL, so nothing is lost for tasks already created).
   * @default 1000
   */
  maxTasks?: number;
  /**
   * The most tasks held at once for one owner (the authenticated principal a task is bound to),
   * so that one caller cannot fill the store and lock every other caller out until its tasks'
   * TTL passes; a create beyond it fails like one beyond `maxTasks`. Tasks without an owner count
   * against `maxTasks` only.
   * @default a tenth of maxTasks (at least 1): 100 of 1000
   */
  maxTasksPerOwner?: number;
  /** The clock, in milliseconds since the epoch (tests pass their own). @default Date.now */
  now?: () => number;
}

interface Entry {
  /** The task as JSON text: what a shared store would hold. */
  json: string;
  /** When it expires, ms since the epoch; Infinity for none. */
  expiresAt: number;
  owner: string | undefined;
}

/**
 * The in-process task store: at most `maxTasks` tasks (`maxTasksPerOwner` of them for one
 * principal), each deleted once its `ttlMs` passed
 * (checked when touched, and in one sweep when the earliest expiry is due). Tasks are kept as
 * JSON text, so a result JSON cannot carry fails at once, as it would on a shared store. Expired
 * ids are remembered (at most `maxTasks` of them) to answer "expired" rather than "not found".
 */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Entry>();
  readonly #expired = new Map<string, string | undefined>();
  /** Ids expired since the last `expire` call (at most `maxTasks`). */
  #gone: string[] = [];
  readonly #max: number;
  readonly #maxPerOwner: number;
  /** How many live tasks each owner holds. */
  readonly #owned = new Map<string, number>();
  readonly #now: () => number;
  #nextExpiry = Infinity;

  /** @throws {TypeError} when `maxTasks` or `maxTasksPerOwner` is not a positive integer. */
  constructor(options: MemoryTaskStoreOptions = {}) {
    const max = options.maxTasks ?? 1000;
    if (!Number.isSafeInteger(max) || max < 1) throw new TypeError('MemoryTaskStore: maxTasks must be a positive integer');
    const perOwner = options.maxTasksPerOwner ?? Math.max(1, Math.floor(max / 10));
    if (!Number.isSafeInteger(perOwner) || perOwner < 1) {
      throw new TypeError('MemoryTaskStore: maxTasksPerOwner must be a positive integer');
    }
    this.#max = max;
    this.#maxPerOwner = perOwner;
    this.#now = options.now ?? Date.now;
  }

  /** Number of tasks held (expired ones not yet swept included). */
  get size(): number {
    return this.#tasks.size;
  }

  async create(task: TaskState): Promise<void> {
    const now = this.#now();
    const owner = task.owner;
    const atOwnerLimit = (): boolean => owner !== undefined && (this.#owned.get(owner) ?? 0) >= this.#maxPerOwner;
    if (now >= this.#nextExpiry || this.#tasks.size >= this.#max || atOwnerLimit()) this.#sweep(now);
    if (this.#tasks.has(task.taskId)) throw new Error(`task ${task.taskId} exists already`);
    if (this.#tasks.size >= this.#max) throw new TaskStoreFullError(`maxTasks ${this.#max}`);
    if (atOwnerLimit()) {
      const limit = `maxTasksPerOwner ${this.#maxPerOwner}`;
      throw new TaskStoreFullError(limit, `the caller holds as many tasks as it may (${limit})`);
    }
    const expiresAt = task.ttlMs === null ? Infinity : now + task.ttlMs;
    this.#tasks.set(task.taskId, { json: JSON.stringify(task), expiresAt, owner });
    if (owner !== undefined) this.#owned.set(owner, (this.#owned.get(owner) ?? 0) + 1);
    this.#nextExpiry = Math.min(this.#nextExpiry, expiresAt);
  }

  async get(taskId: string): Promise<TaskState | ExpiredTask | undefined> {
    const entry = this.#live(taskId);
    if (entry !== undefined) return JSON.parse(entry.json) as TaskState;
    if (!this.#expired.has(taskId)) return undefined;
    const owner = this.#expired.get(taskId);
    return owner === undefined ? { taskId, expired: true } : { taskId, expired: true, owner };
  }

  async update(taskId: string, mutate: (task: TaskState) => TaskState | undefined): Promise<TaskState | undefined> {
    const entry = this.#live(taskId);
    if (entry === undefined) return undefined;
    const next = mutate(JSON.parse(entry.json) as TaskState);
    if (next === undefined) return JSON.parse(entry.json) as TaskState;
    // Serialise before storing: a value JSON cannot carry leaves the task as it was.
    const json = JSON.stringify({ ...next, taskId });
    entry.json = json;
    return JSON.parse(json) as TaskState;
  }

  cancel(taskId: string): Promise<TaskState | undefined> {
    const at = new Date(this.#now()).toISOString();
    return this.update(taskId, (task) => cancelledState(task, at));
  }

  async expire(now: number): Promise<string[]> {
    if (now >= this.#nextExpiry) this.#sweep(now);
    const gone = this.#gone;
    this.#gone = [];
    return gone;
  }

  /** The entry of a task whose TTL has not passed; an expired one is moved to the expired ids. */
  #live(taskId: string): Entry | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (this.#now() < entry.expiresAt) return entry;
    this.#forget(taskId, entry);
    return undefined;
  }

  #sweep(now: number): void {
    let next = Infinity;
    for (const [taskId, entry] of this.#tasks) {
      if (now >= entry.expiresAt) this.#forget(taskId, entry);
      else next = Math.min(next, entry.expiresAt);
    }
    this.#nextExpiry = next;
  }

  #forget(taskId: string, entry: Entry): void {
    this.#tasks.delete(taskId);
    const owner = entry.owner;
    if (owner !== undefined) {
      const held = (this.#owned.get(owner) ?? 1) - 1;
      if (held > 0) this.#owned.set(owner, held);
      else this.#owned.delete(owner);
    }
    this.#expired.set(taskId, entry.owner);
    this.#gone.push(taskId);
    if (this.#gone.length > this.#max) this.#gone.shift();
    // Remember at most maxTasks expired ids, the oldest forgotten first.
    if (this.#expired.size > this.#max) this.#expired.delete(this.#expired.keys().next().value as string);
  }
}
