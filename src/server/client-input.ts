/**
 * Asking the client for input while serving a request: elicitation, sampling and roots, behind one
 * API for both eras. A legacy connection gets a real server-to-client request (id correlation, a
 * time-out, `notifications/cancelled` when it lapses); a 2026-07-28 request ends with
 * `resultType: "input_required"` and resumes when the client retries with `inputResponses`.
 *
 * Spec: MCP 2025-11-25, Client / Elicitation, Sampling, Roots; MCP 2026-07-28, Basic / Patterns /
 * Multi Round-Trip Requests.
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import { hasOwn, type JsonObject, type JsonValue } from '../protocol/messages.js';
import type { RequestStateCodec } from './request-state.js';

/** The three kinds of client input, by method, with the client capability each needs. */
export const INPUT_METHODS: {
  readonly 'elicitation/create': 'elicitation';
  readonly 'sampling/createMessage': 'sampling';
  readonly 'roots/list': 'roots';
} = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;

/** The revision that introduced each kind of client input. */
const INPUT_SINCE: Record<InputMethod, string> = {
  'elicitation/create': '2025-06-18',
  'sampling/createMessage': '2024-11-05',
  'roots/list': '2024-11-05',
};

/** A method the server may ask the client. */
export type InputMethod = keyof typeof INPUT_METHODS;

/** Asks the client one question; resolves to the client's result object. */
export type AskClient = (method: InputMethod, params: JsonObject, key?: string) => Promise<JsonObject>;

/** Options of `ctx.elicit`, `ctx.sample` and `ctx.listRoots`. */
export interface AskOptions {
  /**
   * The key of this question in a 2026-07-28 `inputRequests` map (and of its answer in the
   * retry's `inputResponses`). Default: `input-<n>`, n counting the questions of the run from 1.
   */
  key?: string;
}

/**
 * Thrown (internally) by a modern request's `ask` when the answer is not in the retry yet: the
 * dispatcher turns it into an `InputRequiredResult`. Tools should let it propagate.
 */
export class InputRequiredSignal extends Error {
  readonly inputRequests: JsonObject;
  readonly requestState: string;
  constructor(inputRequests: JsonObject, requestState: string) {
    super('input required from the client');
    this.name = 'InputRequiredSignal';
    this.inputRequests = inputRequests;
    this.requestState = requestState;
  }
}

/** The error for a capability the client did not declare (`-32021` at 2026-07-28). */
export function missingCapability(capability: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${capability}`,
    { requiredCapabilities: { [capability]: {} } },
  );
}

/** Options for {@link mrtrAsk}. */
export interface MrtrOptions {
  capabilities: JsonObject;
  /** Answers known so far (from the verified `requestState` and this retry's `inputResponses`). */
  responses: JsonObject;
  codec: RequestStateCodec;
  /** The method and params digest the state is bound to. */
  bind: string;
  /** Lifetime of a state, in milliseconds. */
  ttlMs: number;
}

/**
 * The 2026-07-28 form: each question has a key (given, or `input-n` for the n-th of the run); a
 * known answer resolves at once. Unknown ones asked in the same turn (e.g. under `Promise.all`)
 * are gathered and end the run together with one {@link InputRequiredSignal} listing them all.
 * The tool runs again from the start on the retry, so everything before its questions should be
 * repeatable.
 */
export function mrtrAsk(options: MrtrOptions): AskClient {
  let count = 0;
  let batch: { requests: JsonObject; rejects: Array<(error: unknown) => void> } | undefined;
  const flush = async (): Promise<void> => {
    const current = batch as NonNullable<typeof batch>;
    batch = undefined;
    let signal: unknown;
    try {
      const requestState = await options.codec.seal({
        bind: options.bind,
        exp: Date.now() + options.ttlMs,
        responses: options.responses,
        pending: Object.keys(current.requests),
      });
      signal = new InputRequiredSignal(current.requests, requestState);
    } catch (error) {
      signal = error;
    }
    for (const reject of current.rejects) reject(signal);
  };
  return (method, params, key) => {
    const capability = INPUT_METHODS[method];
    if (!hasOwn(options.capabilities, capability)) return Promise.reject(missingCapability(capability));
    const name = key ?? `input-${++count}`;
    if (hasOwn(options.responses, name)) return Promise.resolve(options.responses[name] as JsonObject);
    return new Promise<JsonObject>((_resolve, reject) => {
      if (batch === undefined) {
        batch = { requests: {}, rejects: [] };
        // A macrotask later: every question asked in this turn joins the same batch.
        setTimeout(() => void flush(), 0);
      }
      batch.requests[name] = { method, params };
      batch.rejects.push(reject);
    });
  };
}

/**
 * Collects the answers a retry brings: those carried in the verified state, plus this retry's
 * `inputResponses` for the keys the state said were pending (anything else is ignored), or,
 * with no state, every answer of `inputResponses`.
 */
export function collectResponses(
  carried: JsonObject,
  pending: readonly string[] | undefined,
  inputResponses: JsonValue | undefined,
): JsonObject {
  const responses: JsonObject = { ...carried };
  if (typeof inputResponses === 'object' && inputResponses !== null && !Array.isArray(inputResponses)) {
    // With a verified state, only the questions it says are open; without one (a server may
    // send inputRequests alone), any answer, which a question then takes by its key.
    for (const key of pending ?? Object.keys(inputResponses)) {
      if (hasOwn(inputResponses, key)) responses[key] = inputResponses[key] as JsonValue;
    }
  }
  return responses;
}

/** Options for {@link askLegacy}. */
export interface LegacyOptions {
  capabilities: JsonObject;
  /** Sends a request to the client and resolves to its result. */
  request(method: string, params: JsonObject, signal: AbortSignal, timeoutMs: number): Promise<JsonObject>;
  /** The request's cancellation (its signal is read only when a question is sent). */
  control: { readonly signal: AbortSignal };
  /** The connection's revision: a method the revision lacks is never sent. */
  protocolVersion: string;
  timeoutMs: number;
}

/**
 * One question in the legacy form, a server-to-client request on the same connection: rejects
 * for a method the revision lacks or a capability the client did not declare, else sends the
 * request.
 */
export function askLegacy(options: LegacyOptions, method: InputMethod, params: JsonObject): Promise<JsonObject> {
  const capability = INPUT_METHODS[method];
  const since = INPUT_SINCE[method];
  if (options.protocolVersion < since) {
    return Promise.reject(new Error(`${method} is not part of protocol revision ${options.protocolVersion} (it came in ${since}).`));
  }
  if (!hasOwn(options.capabilities, capability)) {
    return Promise.reject(
      new Error(`The client did not declare the "${capability}" capability, so ${method} cannot be sent.`),
    );
  }
  return options.request(method, params, options.control.signal, options.timeoutMs);
}
