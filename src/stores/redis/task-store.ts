/**
 * Tasks (SEP-2663) in Redis, shared by every replica: one key per task holding its JSON state with
 * its expiry and owner, a sorted set of live task ids by expiry (the count limit, and `expire`),
 * and a bounded list of ids that expired since the last `expire`. Expiry is decided by the
 * store's clock; Redis drops a task's key an hour after it (until then it answers "expired").
 *
 * Spec: SEP-2663 (Tasks extension), "Task Creation" (durable create), "Task Polling" (TTL),
 * "Error Handling" (expired tasks).
 * @module
 */
import { cancelledState, TaskStoreFullError, type ExpiredTask, type TaskState, type TaskStore } from '../../extensions/tasks/task-store.js';
import { checkClient, runScript, type RedisClientLike, type RedisStoreOptions } from './client.js';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions extends RedisStoreOptions {
  /**
   * The most live tasks at once, over all replicas; a create beyond it fails.
   * @default 10000
   */
  maxTasks?: number;
  /** The clock, in milliseconds since the epoch (tests pass their own). @default Date.now */
  now?: () => number;
}

/** How long an expired task is still known as expired, in milliseconds. */
const REMEMBER_MS = 3_600_000;

/** What a task's key holds. */
interface Entry {
  /** Expiry, ms since the epoch; null for none. */
  e: number | null;
  o: string | null;
  t: TaskState;
}

/**
 * Lua that moves the ids in sorted set `index` whose expiry is at or before `now` to list `gone`,
 * which keeps its last `max` ids (each argument a Lua expression such as `KEYS[2]`).
 */
const sweep = (index: string, gone: string, now: string, max: string): string => `local expired = redis.call('ZRANGEBYSCORE', ${index}, '-inf', ${now})
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', ${index}, '-inf', ${now})
  redis.call('RPUSH', ${gone}, unpack(expired))
  redis.call('LTRIM', ${gone}, -tonumber(${max}), -1)
end`;

// KEYS: task, index, gone. ARGV: entry, now, max, id, score, px (0: none).
const CREATE = `${sweep('KEYS[2]', 'KEYS[3]', 'ARGV[2]', 'ARGV[3]')}
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'full' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
if ARGV[6] == '0' then redis.call('SET', KEYS[1], ARGV[1]) else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6]) end
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4])
return 'ok'`;

// KEYS: index, gone. ARGV: now, max.
const EXPIRE = `${sweep('KEYS[1]', 'KEYS[2]', 'ARGV[1]', 'ARGV[2]')}
local gone = redis.call('LRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[2])
return gone`;

// KEYS: task. ARGV: old, new.
const CAS = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

const MAX_TRIES = 20;

/**
 * A {@link TaskStore} in Redis, for replicas that serve each other's tasks.
 * @example
 * tasksExtension({ store: new RedisTaskStore({ client }) });
 */
export class RedisTaskStore implements TaskStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;
  readonly #max: number;
  readonly #now: () => number;

  /** @throws {TypeError} for a client that is not a node-redis client, or a `maxTasks` that is not a positive integer. */
  constructor(options: RedisTaskStoreOptions) {
    this.#client = checkClient(options?.client, 'RedisTaskStore');
    this.#prefix = `${options.prefix ?? 'baremcp:'}task`;
    const max = options.maxTasks ?? 10_000;
    if (!Number.isSafeInteger(max) || max < 1) throw new TypeError('RedisTaskStore: maxTasks must be a positive integer');
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  #key(taskId: string): string {
    return `${this.#prefix}:${taskId}`;
  }

  async create(task: TaskState): Promise<void> {
    const now = this.#now();
    const expiresAt = task.ttlMs === null ? null : now + task.ttlMs;
    const entry: Entry = { e: expiresAt, o: task.owner ?? null, t: task };
    const px = task.ttlMs === null ? 0 : task.ttlMs + REMEMBER_MS;
    const reply = await runScript(
      this.#client,
      CREATE,
      [this.#key(task.taskId), `${this.#prefix}s:index`, `${this.#prefix}s:gone`],
      [JSON.stringify(entry), now, this.#max, task.taskId, expiresAt === null ? '+inf' : expiresAt, px],
    );
    if (reply === 'full') throw new TaskStoreFullError(`maxTasks ${this.#max}`);
    if (reply === 'exists') throw new Error(`task ${task.taskId} exists already`);
  }

  async get(taskId: string): Promise<TaskState | ExpiredTask | undefined> {
    const found = await this.#read(taskId);
    if (found === undefined) return undefined;
    const { entry } = found;
    if (entry.e === null || this.#now() < entry.e) return entry.t;
    return entry.o === null ? { taskId, expired: true } : { taskId, expired: true, owner: entry.o };
  }

  async update(taskId: string, mutate: (task: TaskState) => TaskState | undefined): Promise<TaskState | undefined> {
    for (let i = 0; i < MAX_TRIES; i++) {
      const found = await this.#read(taskId);
      if (found === undefined) return undefined;
      const { entry, text } = found;
      if (entry.e !== null && this.#now() >= entry.e) return undefined;
      const next = mutate(entry.t);
      if (next === undefined) return entry.t;
      // Serialised before anything is written: a value JSON cannot carry leaves the task as it was.
      const json = JSON.stringify({ ...entry, t: { ...next, taskId } });
      if (Number(await runScript(this.#client, CAS, [this.#key(taskId)], [text, json])) === 1) {
        return (JSON.parse(json) as Entry).t;
      }
    }
    throw new Error(`RedisTaskStore: task ${taskId} changed ${MAX_TRIES} times while being updated`);
  }

  cancel(taskId: string): Promise<TaskState | undefined> {
    const at = new Date(this.#now()).toISOString();
    return this.update(taskId, (task) => cancelledState(task, at));
  }

  async expire(now: number): Promise<string[]> {
    const reply = await runScript(this.#client, EXPIRE, [`${this.#prefix}s:index`, `${this.#prefix}s:gone`], [now, this.#max]);
    return Array.isArray(reply) ? (reply as string[]) : [];
  }

  async #read(taskId: string): Promise<{ entry: Entry; text: string } | undefined> {
    const text = await this.#client.sendCommand(['GET', this.#key(taskId)]);
    return typeof text === 'string' ? { entry: JSON.parse(text) as Entry, text } : undefined;
  }
}
