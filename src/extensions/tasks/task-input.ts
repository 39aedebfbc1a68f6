/**
 * The questions a running task waits on: each one a key of the task's `inputRequests` (the multi
 * round-trip shape), written to the store in one batch per turn, and resolved when `tasks/update`
 * delivers its answer (at once in this process; by reading the store every `pollIntervalMs`
 * when the answer went to another replica).
 *
 * Spec: SEP-2663 (Tasks extension), "Task Status" (`input_required`), "Task Update Requests"
 * (keys unique over a task's life); SEP-2322 (`InputRequests`).
 * @module
 */
import { hasOwn, type JsonObject } from '../../protocol/messages.js';
import { INPUT_METHODS, missingCapability, type InputMethod } from '../../server/client-input.js';
import { isTerminal, type ExpiredTask, type TaskState } from './task-store.js';

/** What the questions of one task need from their run. */
export interface TaskInputPort {
  /** The capabilities the client declared on the request that created the task. */
  readonly capabilities: JsonObject;
  /** How often to read the store while a question waits, in milliseconds. */
  readonly pollIntervalMs: number;
  /** The run's signal: an aborted run asks nothing more. */
  readonly signal: AbortSignal;
  /** Adds `requests` to the task's `inputRequests` (status `input_required`). */
  ask(requests: JsonObject): Promise<void>;
  /** Reads the task from the store. */
  read(): Promise<TaskState | ExpiredTask | undefined>;
  /** Called with what the store said when it says the task is gone or over. */
  gone(state: TaskState | ExpiredTask | undefined): void;
}

interface Waiter {
  resolve(answer: JsonObject): void;
  reject(error: unknown): void;
}

/** The questions of one task run. */
export class TaskInput {
  readonly #port: TaskInputPort;
  readonly #answers = new Map<string, JsonObject>();
  readonly #waiting = new Map<string, Waiter>();
  #batch: JsonObject | undefined;
  #count = 0;
  #poll: ReturnType<typeof setTimeout> | undefined;

  constructor(port: TaskInputPort) {
    this.#port = port;
  }

  /**
   * Asks the client one question (its key given, or `input-<n>`); resolves to the answer. A key
   * already answered keeps its answer; one already waiting is the same question.
   * @throws {RpcError} `-32021` when the client lacks the capability the question needs.
   */
  ask(method: InputMethod, params: JsonObject, key: string | undefined): Promise<JsonObject> {
    const capability = INPUT_METHODS[method];
    if (!hasOwn(this.#port.capabilities, capability)) return Promise.reject(missingCapability(capability));
    if (this.#port.signal.aborted) return Promise.reject(this.#port.signal.reason);
    const name = key ?? `input-${++this.#count}`;
    const known = this.#answers.get(name);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise<JsonObject>((resolve, reject) => {
      const waiting = this.#waiting.get(name);
      this.#waiting.set(name, {
        resolve: (answer) => (waiting?.resolve(answer), resolve(answer)),
        reject: (error) => (waiting?.reject(error), reject(error)),
      });
      if (waiting !== undefined) return;
      if (this.#batch === undefined) {
        this.#batch = {};
        // A macrotask later: every question asked in this turn joins one write.
        setTimeout(() => void this.#flush(), 0);
      }
      this.#batch[name] = { method, params };
    });
  }

  /** Hands the answers `state` holds to the questions waiting for them. */
  deliver(state: TaskState): void {
    const responses = state.inputResponses ?? {};
    for (const [key, waiter] of this.#waiting) {
      if (!hasOwn(responses, key)) continue;
      const answer = responses[key] as JsonObject;
      this.#answers.set(key, answer);
      this.#waiting.delete(key);
      waiter.resolve(answer);
    }
    if (this.#waiting.size === 0) this.#stopPolling();
  }

  /** Fails every waiting question with `reason`, and stops reading the store. */
  release(reason: unknown): void {
    for (const waiter of this.#waiting.values()) waiter.reject(reason);
    this.#waiting.clear();
    this.#stopPolling();
  }

  async #flush(): Promise<void> {
    const requests = this.#batch ?? {};
    this.#batch = undefined;
    try {
      await this.#port.ask(requests);
      this.#schedulePoll();
    } catch (error) {
      this.release(error);
    }
  }

  #schedulePoll(): void {
    if (this.#poll !== undefined || this.#waiting.size === 0) return;
    this.#poll = setTimeout(() => {
      this.#poll = undefined;
      void this.#port.read().then(
        (state) => {
          if (state === undefined || 'expired' in state || isTerminal(state.status)) this.#port.gone(state);
          else this.deliver(state);
          this.#schedulePoll();
        },
        () => this.#schedulePoll(),
      );
    }, this.#port.pollIntervalMs);
    (this.#poll as { unref?: () => void }).unref?.();
  }

  #stopPolling(): void {
    if (this.#poll !== undefined) clearTimeout(this.#poll);
    this.#poll = undefined;
  }
}
