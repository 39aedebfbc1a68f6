/**
 * A bounded pool of search worker threads with a bounded queue: at most `threads` workers exist
 * at any moment (running, idle, or being stopped), at most `maxQueued` searches wait for one, and
 * a search beyond both is refused at once. A worker that finished its search takes the next one;
 * a worker that overran its time or whose request was cancelled is terminated (the only way to
 * stop a regular expression that backtracks) and replaced when needed; an idle one is retired
 * after {@link IDLE_MS}. Workers never keep the process alive; each has a heap limit, so memory
 * is bounded by `threads` times that limit.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { ToolError } from './results.js';
import type { SearchJob, SearchMatch, SearchMessage } from './search-worker.js';

/** Time after a search's own limit before its worker is terminated, in milliseconds. */
export const GRACE_MS = 250;
/** Time a worker stays idle before it is retired, in milliseconds. */
export const IDLE_MS = 30_000;

/** How a search ended, with what it found. */
export interface SearchOutcome {
  matches: SearchMatch[];
  filesSearched: number;
  filesSkipped: number;
  stoppedBy: 'limit' | 'time' | 'cancelled' | null;
}

/** The pool's limits. */
export interface SearchPoolOptions {
  /** The worker module (search-worker.js). */
  workerUrl: URL;
  /** Most workers at once, at least 1. */
  threads: number;
  /** Most searches waiting for a worker, at least 0. */
  maxQueued: number;
  /** Old-generation heap limit of each worker, in MiB. */
  heapMb: number;
  /** Time an idle worker is kept, in milliseconds. @default IDLE_MS */
  idleMs?: number;
}

interface Task {
  job: SearchJob;
  signal: AbortSignal | undefined;
  matches: SearchMatch[];
  /** Ends the task once (later calls do nothing): releases its worker, then resolves or rejects. */
  settle: (stoppedBy: SearchOutcome['stoppedBy'], error?: Error) => void;
  /** Set while the task runs: frees its worker and timer. */
  release?: () => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
  stopping: boolean;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/** A bounded set of search workers and a bounded queue; see the module doc. */
export class SearchPool {
  readonly #options: SearchPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Task[] = [];
  #peak = 0;

  constructor(options: SearchPoolOptions) {
    this.#options = options;
  }

  /** Worker threads alive now: running a search, idle, or being terminated. */
  get threads(): number {
    return this.#slots.size;
  }

  /** The most worker threads that were ever alive at once. */
  get peakThreads(): number {
    return this.#peak;
  }

  /** Searches waiting for a worker. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Runs `job` on a worker as soon as one is free. Resolves with what it found when it ends by
   * itself, when `job.timeMs + GRACE_MS` has passed since it started (`stoppedBy: 'time'`), or
   * when `signal` aborts, also while it waits (`'cancelled'`).
   * @throws {ToolError} (as a rejection) when every worker is busy and the queue is full, or the
   *   worker ran out of memory.
   * @throws {Error} (as a rejection) when the worker failed otherwise.
   */
  run(job: SearchJob, signal?: AbortSignal): Promise<SearchOutcome> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const task: Task = {
        job,
        signal,
        matches: [],
        settle: (stoppedBy, error) => {
          if (settled) return;
          settled = true;
          task.release?.();
          signal?.removeEventListener('abort', onAbort);
          if (error !== undefined) return reject(error);
          const counters = new Int32Array(job.counters);
          const [filesSearched, filesSkipped] = [counters[0]!, counters[1]!];
          resolve({ matches: task.matches, filesSearched, filesSkipped, stoppedBy });
        },
      };
      const onAbort = (): void => {
        const waiting = this.#queue.indexOf(task);
        if (waiting === -1) return; // running: the worker is stopped by #start's listener
        this.#queue.splice(waiting, 1);
        task.settle('cancelled');
      };
      if (signal?.aborted) return task.settle('cancelled');
      const slot = this.#freeSlot();
      if (slot === undefined && this.#queue.length >= this.#options.maxQueued) {
        return reject(
          new ToolError(
            `The server is busy with other searches (${this.#options.threads} running, ` +
              `${this.#queue.length} waiting). Try again in a few seconds, or search a smaller ` +
              'folder so that searches finish sooner.',
          ),
        );
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (slot === undefined) this.#queue.push(task);
      else this.#start(slot, task);
    });
  }

  /** Cancels every search, waiting or running, and terminates every worker. */
  async close(): Promise<void> {
    for (const task of this.#queue.splice(0)) task.settle('cancelled');
    for (const slot of this.#slots) slot.task?.settle('cancelled');
    await Promise.all([...this.#slots].map((slot) => this.#stop(slot)));
  }

  /** An idle worker, or a new one when fewer than `threads` exist; undefined when neither. */
  #freeSlot(): Slot | undefined {
    for (const slot of this.#slots) if (slot.task === undefined && !slot.stopping) return slot;
    if (this.#slots.size >= this.#options.threads) return undefined;
    const worker = new Worker(this.#options.workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: this.#options.heapMb },
    });
    const slot: Slot = { worker, task: undefined, stopping: false, idle: undefined };
    worker.on('message', (message: SearchMessage) => this.#onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      slot.stopping = true;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      slot.task?.settle(
        null,
        memory
          ? new ToolError(
              `The search needed more than ${this.#options.heapMb} MiB of memory and was ` +
                'stopped. Search a smaller folder or use a simpler pattern.',
            )
          : error,
      );
    });
    worker.on('exit', () => {
      clearTimeout(slot.idle);
      slot.task?.settle(null, new Error('the search worker stopped unexpectedly'));
      this.#slots.delete(slot);
      this.#pump();
    });
    // Idle workers do not keep the process alive; busy and stopping ones do (a search that waits
    // for them needs the loop). Unref'd after the listeners: adding one refs the worker again.
    worker.unref();
    this.#slots.add(slot);
    this.#peak = Math.max(this.#peak, this.#slots.size);
    return slot;
  }

  #start(slot: Slot, task: Task): void {
    clearTimeout(slot.idle);
    slot.worker.ref();
    slot.task = task;
    const timer = setTimeout(() => end('time'), task.job.timeMs + GRACE_MS);
    const onAbort = (): void => end('cancelled');
    // Ends the task early: the worker may be stuck in a regular expression, so it is terminated.
    const end = (stoppedBy: 'time' | 'cancelled'): void => {
      if (slot.task !== task) return;
      task.settle(stoppedBy);
      void this.#stop(slot);
    };
    task.signal?.addEventListener('abort', onAbort, { once: true });
    task.release = () => {
      clearTimeout(timer);
      task.signal?.removeEventListener('abort', onAbort);
      if (slot.task === task) slot.task = undefined;
    };
    slot.worker.postMessage(task.job);
  }

  #onMessage(slot: Slot, message: SearchMessage): void {
    const task = slot.task;
    if (task === undefined) return;
    if (message.kind === 'match') {
      const { kind: _kind, ...match } = message;
      task.matches.push(match);
      return;
    }
    task.settle(message.stoppedBy);
    this.#retireWhenIdle(slot);
    this.#pump();
  }

  #retireWhenIdle(slot: Slot): void {
    slot.worker.unref();
    slot.idle = setTimeout(() => void this.#stop(slot), this.#options.idleMs ?? IDLE_MS);
    slot.idle.unref();
  }

  /** Terminates a worker; it leaves the pool on its `exit` event. */
  async #stop(slot: Slot): Promise<void> {
    slot.stopping = true;
    clearTimeout(slot.idle);
    slot.worker.ref();
    await slot.worker.terminate();
  }

  /** Starts waiting searches while workers are free. */
  #pump(): void {
    while (this.#queue.length > 0) {
      const slot = this.#freeSlot();
      if (slot === undefined) return;
      this.#start(slot, this.#queue.shift()!);
    }
  }
}
