/**
 * What the test client hands back: the wire shapes of list and read results as a client sees
 * them (plain JSON objects, field names as in the spec), and the options both clients take.
 *
 * Spec: MCP 2025-11-25 schema.ts (`Resource`, `ResourceTemplate`, `ReadResourceResult`, `Prompt`,
 * `PromptArgument`, `PromptMessage`, `GetPromptResult`, `CompleteResult`); MCP 2026-07-28,
 * Basic / Versioning (stateless requests).
 * @module
 */
import type { JsonObject, JsonRpcNotification } from '../protocol/messages.js';
import type {
  Resource,
  ResourceTemplate,
  CallToolResult,
  ContentBlock,
  Icon,
  Implementation,
  ResourceContents,
  Tool,
} from '../protocol/types.js';
import type { LoggingLevel } from '../server/context.js';

/** Resources and templates as lists give them (the wire shapes of the protocol). */
export type { Resource, ResourceTemplate } from '../protocol/types.js';

/** The result of `resources/read` (MCP 2025-11-25, `ReadResourceResult`). */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

/** A prompt in a `prompts/list` result (MCP 2025-11-25, `Prompt`). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; title?: string; description?: string; required?: boolean }[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** The result of `prompts/get` (MCP 2025-11-25, `GetPromptResult`). */
export interface GetPromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
  _meta?: JsonObject;
}

/** The `completion` member of a `completion/complete` result (MCP 2025-11-25, `CompleteResult`). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What `complete` asks about: a prompt's argument or a resource template's variable. */
export type CompletionReference =
  { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/**
 * Answers a request the server sends to the client (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`, ...): return the result object, or throw (an `RpcError`
 * keeps its code; anything else is answered with `-32603` and its message).
 */
export type ClientRequestHandler = (params: JsonObject) => JsonObject | Promise<JsonObject>;

/** Options for one request. */
export interface RequestOptions {
  /**
   * Asks for progress: a `progressToken` is added to `params._meta`, and every
   * `notifications/progress` for it is passed here (they are also kept in `notifications`).
   */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Cancels the request when aborted: `notifications/cancelled` is sent and the promise rejects
   * with the signal's reason.
   */
  signal?: AbortSignal;
  /** Milliseconds to wait for the reply; default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Extra `params._meta` fields, e.g. `{ "dev.baremcp/coercions": true }`. */
  meta?: JsonObject;
}

/** Options for `connect` and `spawnClient`. Every field is optional. */
export interface ClientOptions {
  /**
   * The revision to speak. A legacy revision (2024-11-05 to 2025-11-25) starts with the
   * `initialize` handshake; `'2026-07-28'` sends no handshake: every request carries the
   * protocol fields in its `_meta`, and `input_required` results are answered from `handlers`
   * and retried until complete. A revision outside `SUPPORTED_REVISIONS` is refused (a
   * `TypeError`), so that a typo never tests another revision.
   * @default '2025-11-25'
   */
  protocolVersion?: string;
  /** `clientInfo` sent to the server. @default { name: 'baremcp-test', version: '0.0.0' } */
  clientInfo?: Implementation;
  /**
   * Answers to the server's own requests, keyed by method, e.g.
   * `{ 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) }`. Requests
   * with no handler are answered with `-32601` (`ping` is always answered).
   */
  handlers?: { [method: string]: ClientRequestHandler };
  /**
   * The client capabilities declared. Default: `elicitation`, `sampling` and `roots` for each
   * of `elicitation/create`, `sampling/createMessage` and `roots/list` present in `handlers`.
   */
  capabilities?: JsonObject;
  /**
   * Asks for log messages at this level and above (`logging/setLevel`, or per-request `_meta`);
   * a level outside `LOGGING_LEVELS` is refused (a `TypeError`).
   */
  logLevel?: LoggingLevel;
  /** Called with every notification from the server, as it arrives. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Milliseconds to wait for each reply; 0 for no limit. @default 30000 */
  timeoutMs?: number;
}

/** A connected test client. Results are plain JSON objects, as they would arrive on the wire. */
export interface TestClient {
  /** The revision in use: the one the server answered in `initialize`, or `'2026-07-28'`. */
  readonly protocolVersion: string;
  /** The server's `serverInfo`. */
  readonly serverInfo: Implementation;
  /** The capabilities the server announced. */
  readonly serverCapabilities: JsonObject;
  /** The server's `instructions`, if any. */
  readonly instructions: string | undefined;
  /** Every notification received so far, oldest first (progress, log messages, list changes). */
  readonly notifications: JsonRpcNotification[];
  /** Every tool, following `nextCursor` through all pages. */
  listTools(): Promise<Tool[]>;
  /**
   * Calls a tool. Resolves to its `CallToolResult`, also when the tool failed (`isError: true`
   * is a result, not a rejection). Rejects with `RpcError` on a protocol error (an unknown tool
   * is `-32602`), or with an `Error` on a time-out, a cancel or a closed client.
   */
  callTool(
    name: string,
    args?: { readonly [key: string]: unknown },
    options?: RequestOptions,
  ): Promise<CallToolResult>;
  /** Every resource, through all pages. */
  listResources(): Promise<Resource[]>;
  /** Every resource template, through all pages. */
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  /** Reads a resource. @throws {RpcError} `-32002` when the server knows no such resource. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult>;
  /** Every prompt, through all pages. */
  listPrompts(): Promise<Prompt[]>;
  /**
   * Gets a prompt's messages.
   * @throws {RpcError} `-32602` for an unknown prompt or a missing required argument.
   */
  getPrompt(
    name: string,
    args?: { readonly [key: string]: string },
    options?: RequestOptions,
  ): Promise<GetPromptResult>;
  /** Asks for completions of one argument; `context` holds values already chosen for others. */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { readonly [name: string]: string },
  ): Promise<Completion>;
  /**
   * Sends any request and resolves to its `result` (with the 2026-07-28 `_meta` fields added and
   * `input_required` rounds answered, in that era). Rejects with `RpcError` for an error reply.
   */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /** Sends a notification. */
  notify(method: string, params?: JsonObject): void;
  /** Closes the connection; pending requests reject. Safe to call twice. */
  close(): Promise<void>;
}
