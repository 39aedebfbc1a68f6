/**
 * The server: its identity, its tools, its method table, and the connections it serves.
 *
 * Spec: MCP 2025-11-25, Server / Overview; Basic / Lifecycle ("Capability Negotiation").
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult, Implementation } from '../protocol/types.js';
import { Connection, type ConnectOptions, type ListKind, type Reply } from './connection.js';
import type { RequestContext } from './context.js';
import { RequestStateCodec } from './request-state.js';
import { complete, hasCompletions } from './completion.js';
import type { PromptDefinition } from './prompt.js';
import { PromptRegistry } from './prompts.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from './resource.js';
import { ResourceRegistry } from './resources.js';
import type { ToolDefinition } from './tool.js';
import { ToolRegistry, type ArgumentPipeline, type ToolLimits } from './tools.js';
import { DEFAULT_MAX_DEPTH } from '../protocol/limits.js';
import { createArgumentPipeline } from './arguments.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { LIST_KINDS } from './subscriptions.js';

/**
 * A request handler in the method table: `params` in, `result` out. Throw an `RpcError` for a
 * protocol error; anything else thrown becomes `-32603`.
 */
export type MethodHandler = (
  params: JsonObject | undefined,
  ctx: RequestContext,
  connection: Connection,
) => JsonObject | Promise<JsonObject>;

/** Options for {@link createServer}. */
export interface ServerOptions {
  /** `serverInfo`: the server's name and version (and, from 2025-06-18, title etc.). */
  info: Implementation;
  /** The tools to serve; checked when the server is created. */
  tools?: readonly ToolDefinition<never>[];
  /**
   * Static resources, and resource templates (objects with a `uriTemplate`), to serve.
   * @see ResourceDefinition, ResourceTemplateDefinition
   */
  resources?: readonly (ResourceDefinition | ResourceTemplateDefinition)[];
  /** More resource templates (may also be given in `resources`). */
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  /** The prompts to serve. */
  prompts?: readonly PromptDefinition[];
  /** Sent as `instructions` in the `initialize` result. */
  instructions?: string;
  /**
   * Items per page in list results.
   * @default 100
   */
  pageSize?: number;
  /**
   * The secret that signs 2026-07-28 `requestState` (HMAC-SHA-256). Replicas that must resume each
   * other's multi round-trip requests share it. A string is taken as UTF-8.
   * @default 32 random bytes per server
   */
  stateSecret?: Uint8Array | string;
  /**
   * How long a `requestState` stays valid, in milliseconds.
   * @default 600000 (10 minutes)
   */
  requestStateTtlMs?: number;
  /**
   * Time-out for a request to a legacy client (elicitation, sampling, roots), in milliseconds.
   * @default 120000
   */
  inputTimeoutMs?: number;
  /**
   * `ttlMs` on cacheable 2026-07-28 results (lists, `resources/read`, `server/discover`).
   * @default 0 (immediately stale)
   */
  cacheTtlMs?: number;
  /**
   * Coerce loosely typed tool arguments (`"5"` to `5` where the schema says integer, and its
   * kin), reporting each coercion on stderr. A tool's own `coerce` wins.
   * @default true
   */
  coerce?: boolean;
  /**
   * Also report coercions in each result's `_meta["dev.baremcp/coercions"]` (a client can ask for
   * that per call by sending `_meta: { "dev.baremcp/coercions": true }`).
   * @default false
   */
  reportCoercions?: boolean;
  /**
   * Assert `format` keywords (date-time, email, uri, ...) when validating arguments.
   * @default false (formats are annotations, as JSON Schema 2020-12 says)
   */
  formatAssertion?: boolean;
  /**
   * Validate arguments and `structuredContent` with JavaScript generated from each schema
   * (`new Function`) where the platform allows it (not in Cloudflare Workers or under a strict
   * CSP, where the interpreter runs instead); `false` always interprets. Same verdicts either way.
   * @default generated at a schema's 4th validation
   */
  codegen?: boolean;
  /**
   * Largest nesting depth of a request's `params`; deeper requests get `-32602`.
   * @default 100
   */
  maxDepth?: number;
  /**
   * Server-wide tool time-out in milliseconds (a tool's own `timeoutMs` wins); 0 for none. A tool
   * that runs out of time gets its signal aborted and the call an `isError` result.
   * @default 0
   */
  toolTimeoutMs?: number;
  /**
   * Largest tool result, in characters of text and base64 data; a larger one becomes an `isError`
   * result (the model can ask for less).
   * @default 16777216 (16 Mi)
   */
  maxResultSize?: number;
  /**
   * Where diagnostics go (one line each). Never stdout.
   * @default console.error
   */
  report?: (line: string) => void;
}

/** An MCP server. Create with {@link createServer}. */
export class Server {
  /** The `serverInfo` as given. */
  readonly info: Implementation;
  /** The `instructions` as given. */
  readonly instructions: string | undefined;
  /** The tool registry. */
  readonly tools: ToolRegistry;
  /** The resource and resource-template registry. */
  readonly resources: ResourceRegistry;
  /** The prompt registry. */
  readonly prompts: PromptRegistry;
  /** Items per page in list results. */
  readonly pageSize: number;
  /** Signs and verifies `requestState`. */
  readonly requestStates: RequestStateCodec;
  /** Lifetime of a `requestState`, in milliseconds. */
  readonly requestStateTtlMs: number;
  /** Time-out for requests to a legacy client, in milliseconds. */
  readonly inputTimeoutMs: number;
  /** `ttlMs` on cacheable 2026-07-28 results. */
  readonly cacheTtlMs: number;
  /** Largest nesting depth of a request's `params`. */
  readonly maxDepth: number;
  /** Limits applied to every tool call. */
  readonly toolLimits: ToolLimits;

  readonly #report: (line: string) => void;
  readonly #methods = new Map<string, MethodHandler>();
  #pipeline: ArgumentPipeline;
  readonly #reportCoercions: boolean;
  #default: Connection | undefined;
  readonly #connections = new Set<Connection>();

  constructor(options: ServerOptions) {
    if (typeof options?.info?.name !== 'string' || typeof options.info.version !== 'string') {
      throw new TypeError('createServer: info must be { name: string, version: string }');
    }
    this.info = options.info;
    this.instructions = options.instructions;
    this.pageSize = Math.max(1, options.pageSize ?? 100);
    const secret = options.stateSecret;
    this.requestStates = new RequestStateCodec(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);
    this.requestStateTtlMs = options.requestStateTtlMs ?? 600_000;
    this.inputTimeoutMs = options.inputTimeoutMs ?? 120_000;
    this.cacheTtlMs = Math.max(0, options.cacheTtlMs ?? 0);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.toolLimits = {
      timeoutMs: options.toolTimeoutMs ?? 0,
      maxResultSize: options.maxResultSize ?? 16 * 1024 * 1024,
      maxDepth: this.maxDepth,
    };
    this.#report = options.report ?? ((line) => console.error(`[baremcp] ${line}`));
    this.#reportCoercions = options.reportCoercions === true;
    this.#pipeline = createArgumentPipeline({
      coerce: options.coerce ?? true,
      formatAssertion: options.formatAssertion === true,
      codegen: options.codegen === false ? false : undefined,
      report: this.#report,
    });
    this.tools = new ToolRegistry(options.tools ?? []);
    for (const tool of this.tools.list()) this.#pipeline.compile?.(tool);
    const given = options.resources ?? [];
    const isTemplate = (r: ResourceDefinition | ResourceTemplateDefinition): r is ResourceTemplateDefinition =>
      typeof (r as { uriTemplate?: unknown }).uriTemplate === 'string';
    this.resources = new ResourceRegistry(
      given.filter((r): r is ResourceDefinition => !isTemplate(r)),
      [...given.filter(isTemplate), ...(options.resourceTemplates ?? [])],
    );
    this.prompts = new PromptRegistry(options.prompts ?? []);
    this.resources.onListChanged(() => this.listChanged('resources'));
    this.prompts.onListChanged(() => this.listChanged('prompts'));
    const m = this.#methods;
    m.set('tools/list', (params, ctx) => this.tools.listPage(params, ctx.protocolVersion, this.pageSize));
    m.set('tools/call', (params, ctx) => this.callTool(params, ctx));
    m.set('resources/list', (params, ctx) => this.resources.list(params, ctx, this.pageSize));
    m.set('resources/templates/list', (params, ctx) => this.resources.listTemplates(params, ctx, this.pageSize));
    m.set('resources/read', (params, ctx) => this.resources.read(params, ctx));
    m.set('resources/subscribe', (params, ctx, c) => this.resources.subscribe(params, ctx, c.id));
    m.set('resources/unsubscribe', (params, ctx, c) => this.resources.unsubscribe(params, ctx, c.id));
    m.set('prompts/list', (params, ctx) => this.prompts.list(params, ctx, this.pageSize));
    m.set('prompts/get', (params, ctx) => this.prompts.get(params, ctx));
    m.set('completion/complete', (params, ctx) => complete(params, ctx, { prompts: this.prompts, resources: this.resources }));
  }

  /** The capabilities announced in `initialize` and `server/discover`: only what is implemented. */
  capabilities(): JsonObject {
    const capabilities: JsonObject = { logging: {} };
    if (hasCompletions({ prompts: this.prompts, resources: this.resources })) capabilities.completions = {};
    if (this.prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (this.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.tools.size > 0) capabilities.tools = { listChanged: true };
    return capabilities;
  }

  /**
   * Adds tools to the live server and tells every connected client (`notifications/tools/list_changed`).
   * @throws {ToolDefinitionError} for an unusable definition or a duplicate name.
   */
  addTool(...tools: ToolDefinition<never>[]): void {
    this.tools.add(tools);
    try {
      for (const tool of tools) this.#pipeline.compile?.(this.tools.get(tool.name) as ToolDefinition<never>);
    } catch (error) {
      for (const tool of tools) this.tools.remove(tool.name);
      throw error;
    }
    this.listChanged('tools');
  }

  /** Removes a tool from the live server and tells every connected client; returns whether it existed. */
  removeTool(name: string): boolean {
    const removed = this.tools.remove(name);
    if (removed) this.listChanged('tools');
    return removed;
  }

  /** The lists this server can announce changes of (those it serves). */
  listKinds(): ListKind[] {
    const kinds: ListKind[] = [];
    if (this.tools.size > 0) kinds.push('tools');
    if (this.prompts.size > 0) kinds.push('prompts');
    if (this.resources.size > 0) kinds.push('resources');
    return kinds;
  }

  /**
   * Tells subscribed clients that the resource at `uri` changed (`notifications/resources/updated`):
   * legacy clients that sent `resources/subscribe`, and 2026-07-28 subscriptions that list the URI.
   */
  resourceUpdated(uri: string): void {
    const legacy = new Set(this.resources.subscribers(uri));
    for (const connection of this.#connections) connection.resourceUpdated(uri, legacy.has(connection.id));
  }

  /**
   * Sends `notifications/<kind>/list_changed` to every open connection that may receive it.
   * @throws {TypeError} when `kind` is not one of `tools`, `prompts`, `resources`.
   */
  listChanged(kind: ListKind): void {
    if (!isOneOf(kind, LIST_KINDS)) throw new TypeError(`listChanged: ${notOneOf('list kind', kind, LIST_KINDS)}`);
    for (const connection of this.#connections) connection.listChanged(kind);
  }

  /** The handler for `method`, or undefined (the dispatcher answers `-32601`). */
  method(method: string): MethodHandler | undefined {
    return this.#methods.get(method);
  }

  /** Replaces the argument pipeline (coercion and validation) used by `tools/call`. */
  setArgumentPipeline(pipeline: ArgumentPipeline): void {
    this.#pipeline = pipeline;
  }

  /** Runs `tools/call` with this server's argument pipeline. */
  callTool(params: JsonObject | undefined, ctx: RequestContext): Promise<JsonObject> {
    return this.tools.call(params, ctx, this.#pipeline, this.#report, this.toolLimits, this.#reportCoercions) as Promise<CallToolResult & JsonObject>;
  }

  /** Writes one diagnostic line (to stderr by default). */
  report(line: string): void {
    this.#report(line);
  }

  /** Opens a connection with its own state (revision, client identity, requests in flight). */
  connect(options?: ConnectOptions): Connection {
    const connection = new Connection(this, options);
    this.#connections.add(connection);
    connection.onclose = () => {
      this.#connections.delete(connection);
      this.resources.dropSubscriber(connection.id);
    };
    return connection;
  }

  /**
   * Handles one message on the server's default connection: the pure dispatcher.
   * Resolves to the reply, or `null` for a notification or a response. Never rejects.
   */
  handle(message: unknown): Promise<Reply> {
    this.#default ??= this.connect();
    return this.#default.handle(message);
  }
}

/**
 * Creates a server.
 * @throws {TypeError} when `info` is missing.
 * @throws {ToolDefinitionError} when a tool definition is unusable (the message names the tool).
 * @example
 * const server = createServer({ info: { name: 'demo', version: '1.0.0' }, tools: [echo] });
 * const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
 */
export function createServer(options: ServerOptions): Server {
  return new Server(options);
}
