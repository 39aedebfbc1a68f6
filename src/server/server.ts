/**
 * The server: the API a server author uses. Its identity, its tools, resources and prompts (each
 * a registry with symmetric `add`/`remove` that announce list changes), its middleware and tool
 * hooks, its extensions and custom methods, and the connections it serves. How a request is
 * served lives in `pipeline.ts`; what a connection holds, in `connection.ts`.
 *
 * Spec: MCP 2025-11-25, Server / Overview; Basic / Lifecycle ("Capability Negotiation");
 * MCP 2026-07-28, Basic / Versioning ("Extension Negotiation"); SEP-2133 (Extensions).
 * @module
 */
import type { RpcError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/messages.js';
import type { Implementation } from '../protocol/types.js';
import { DEFAULT_MAX_DEPTH } from '../protocol/limits.js';
import { Broadcaster, type BusHandler, type BusMessage, type EventBus } from './event-bus.js';
import { createArgumentPipeline } from './arguments.js';
import { hasCompletions } from './completion.js';
import { ServerConnection, type Connection, type ConnectOptions, type ListKind, type Reply } from './connection.js';
import { coreMethods } from './core-methods.js';
import type { Era } from './era.js';
import { checkExtension, checkMethodName, checkMethodOptions, wrapEntry, type ExtensionDefinition } from './extensions.js';
import type { MethodEntry, RequestTarget } from './methods.js';
import type { JsonRpcNotification, JsonValue } from '../protocol/messages.js';
import type { SubscriptionTopic } from './subscriptions.js';
import type { AdmissionRequest, Middleware } from './middleware.js';
import { Pipeline } from './pipeline.js';
import { PromptRegistry } from './prompts.js';
import { RequestStateCodec } from './request-state.js';
import { ResourceRegistry } from './resources.js';
import { checkCacheHints, type CacheHints } from './result.js';
import {
  DEFAULT_CACHE_SCOPE,
  type MethodHandler,
  type MethodOptions,
  type ServerOptions,
} from './server-options.js';
import { checkToolHook, type ToolHook } from './tool-call.js';
import { ToolRegistry } from './tools.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import { LIST_KINDS } from './subscriptions.js';
import { LiveList } from './live-list.js';
import { writeStderr } from './stderr.js';

/**
 * The bytes of a `stateSecret` (a string is UTF-8), or undefined when none was given.
 * @throws {TypeError} for an empty secret or another type; `where` starts the message.
 */
function secretBytes(secret: unknown, where: string): Uint8Array | undefined {
  if (secret === undefined) return undefined;
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new TypeError(`${where}: the secret must be a non-empty string or Uint8Array`);
  }
  return bytes;
}

/** An MCP server. Create with {@link createServer}. */
export class Server {
  /** The `serverInfo` as given. */
  readonly info: Implementation;
  /** The `instructions` as given. */
  readonly instructions: string | undefined;
  /** The tool registry: `add(...tools)`, `remove(name)`, `get(name)`, `list()`. */
  readonly tools: ToolRegistry;
  /** The resource and resource-template registry: `add(...definitions)`, `remove(uri)`, ... */
  readonly resources: ResourceRegistry;
  /** The prompt registry: `add(...prompts)`, `remove(name)`, ... */
  readonly prompts: PromptRegistry;
  /** Items per page in list results. */
  readonly pageSize: number;

  readonly #report: (line: string) => void;
  readonly #table = new Map<string, MethodEntry>();
  readonly #middleware: Middleware[] = [];
  readonly #toolHooks: ToolHook[] = [];
  readonly #extensions = new Map<string, ExtensionDefinition>();
  readonly #topics = new Map<string, SubscriptionTopic>();
  readonly #cache = new Map<string, CacheHints>();
  readonly #cacheTtlMs: number;
  readonly #pipeline: Pipeline;
  readonly #requestStates: RequestStateCodec;
  readonly #capabilities = new Map<Era, JsonObject>();
  /** Methods an extension wrapped. */
  readonly #wrapped = new Set<string>();
  #default: ServerConnection | undefined;
  /** Open connections (a list, not a Set: every 2026-07-28 POST adds and removes one, see live-list.ts). */
  readonly #connections = new LiveList<ServerConnection>();
  readonly #broadcaster: Broadcaster;

  constructor(options: ServerOptions) {
    if (typeof options?.info?.name !== 'string' || typeof options.info.version !== 'string') {
      throw new TypeError('createServer: info must be { name: string, version: string }');
    }
    this.info = options.info;
    this.instructions = options.instructions;
    this.pageSize = Math.max(1, options.pageSize ?? 100);
    this.#report = options.report ?? ((line) => writeStderr(`[baremcp] ${line}`));
    this.#broadcaster = new Broadcaster(this.#report);
    this.#broadcaster.on('list_changed', (m) => {
      if (isOneOf(m.list, LIST_KINDS)) this.#listChangedHere(m.list);
    });
    this.#broadcaster.on('resources/updated', (m) => {
      if (typeof m.uri === 'string') this.#resourceUpdatedHere(m.uri);
    });
    this.#cacheTtlMs = Math.max(0, options.cacheTtlMs ?? 0);
    for (const [method, hints] of Object.entries(options.cache ?? {})) {
      if (!Object.prototype.hasOwnProperty.call(DEFAULT_CACHE_SCOPE, method)) {
        throw new TypeError(`createServer: cache: ${JSON.stringify(method)} is not a cacheable method (choose from ${Object.keys(DEFAULT_CACHE_SCOPE).join(', ')})`);
      }
      this.#cache.set(method, checkCacheHints(hints as CacheHints, `createServer: cache["${method}"]`));
    }
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const argumentPipeline = createArgumentPipeline({
      coerce: options.coerce ?? true,
      formatAssertion: options.formatAssertion === true,
      codegen: options.codegen === false ? false : undefined,
      report: this.#report,
    });
    for (const [i, hook] of (options.toolHooks ?? []).entries()) {
      this.#toolHooks.push(checkToolHook(hook, `createServer: toolHooks[${i}]`));
    }
    this.tools = new ToolRegistry(options.tools ?? [], {
      pipeline: argumentPipeline,
      report: this.#report,
      limits: {
        timeoutMs: options.toolTimeoutMs ?? 0,
        maxResultSize: options.maxResultSize ?? 16 * 1024 * 1024,
        maxDepth,
      },
      reportCoercions: options.reportCoercions === true,
      hooks: this.#toolHooks,
    });
    const given = options.resources ?? [];
    this.resources = new ResourceRegistry([...given, ...(options.resourceTemplates ?? [])]);
    this.prompts = new PromptRegistry(options.prompts ?? []);
    this.tools.onListChanged(() => this.listChanged('tools'));
    this.resources.onListChanged(() => this.listChanged('resources'));
    this.prompts.onListChanged(() => this.listChanged('prompts'));
    for (const entry of coreMethods(this)) this.#table.set(entry.method, entry);
    for (const [i, middleware] of (options.middleware ?? []).entries()) {
      if (typeof middleware !== 'function') {
        throw new TypeError(`createServer: middleware[${i}] is not a function: a middleware is a function (ctx, next) => result`);
      }
      this.#middleware.push(middleware);
    }
    for (const extension of options.extensions ?? []) this.extension(extension);
    if (!this.#wrapped.has('tools/call')) {
      for (const tool of this.tools.list()) {
        if (tool.taskSupport === 'required') this.#report(`tool "${tool.name}" requires running as a task, but no extension (the tasks extension) handles tools/call: add tasksExtension() to extensions`);
      }
    }
    if (options.bus !== undefined) void this.#broadcaster.use(options.bus);
    this.#requestStates = new RequestStateCodec(secretBytes(options.stateSecret, 'createServer: stateSecret'));
    this.#pipeline = new Pipeline({
      server: this,
      info: this.info,
      table: this.#table,
      middleware: this.#middleware,
      capabilities: (era) => this.capabilities(era),
      cacheHints: (method, scope) => this.#cache.get(method) ?? { ttlMs: this.#cacheTtlMs, cacheScope: scope },
      maxDepth,
      batch: {
        maxItems: Math.max(1, options.maxBatchItems ?? 100),
        maxReplyBytes: Math.max(1024, options.maxBatchReplyBytes ?? 16 * 1024 * 1024),
      },
      requestStates: this.#requestStates,
      requestStateTtlMs: options.requestStateTtlMs ?? 600_000,
      inputTimeoutMs: options.inputTimeoutMs ?? 120_000,
      report: this.#report,
    });
  }

  /**
   * The capabilities announced in `initialize` (`legacy`) and `server/discover` (`modern`): only
   * what is implemented, and the extensions the server supports in that era (`extensions`, when
   * it has any).
   */
  capabilities(era: Era = 'modern'): JsonObject {
    let capabilities = this.#capabilities.get(era);
    if (capabilities === undefined) {
      capabilities = this.#computeCapabilities(era);
      this.#capabilities.set(era, capabilities);
    }
    return capabilities;
  }

  /**
   * Adds a middleware around every request (after those already added: it runs inside them).
   * @see Middleware
   */
  use(middleware: Middleware): this {
    if (typeof middleware !== 'function') throw new TypeError('server.use: a middleware is a function (ctx, next) => result');
    this.#middleware.push(middleware);
    return this;
  }

  /**
   * Adds hooks around every tool call (after those already added). @see ToolHook
   * @throws {TypeError} for a hook without `before`/`after`, with another key, or whose
   *   `before`/`after` is not a function.
   */
  useToolHook(hook: ToolHook): this {
    this.#toolHooks.push(checkToolHook(hook, 'server.useToolHook'));
    return this;
  }

  /**
   * Adds a custom method. Its name must carry a reverse-DNS vendor prefix of the author's own and a
   * slash (`com.example/search`; not one MCP reserves, such as `io.modelcontextprotocol/`), unless
   * it belongs to an extension (whose specification names it).
   * @throws {TypeError} for a name without a prefix, a method that already exists, an
   *   extension the server does not support, or `eras`/`cacheScope` that are not baremcp's names.
   */
  method(name: string, handler: MethodHandler, options: MethodOptions = {}): this {
    checkMethodName(name, options.extension, this.#table, this.#extensions);
    checkMethodOptions(options, `server.method: ${name}`);
    if (typeof handler !== 'function') throw new TypeError(`server.method: the handler of ${name} must be a function (params, ctx) => result`);
    this.#table.set(name, {
      method: name,
      eras: options.eras ?? ['legacy', 'modern'],
      ...(options.extension === undefined ? {} : { extension: options.extension }),
      ...(options.cacheScope === undefined ? {} : { cacheScope: options.cacheScope }),
      ...(options.required === undefined ? {} : { required: options.required }),
      ...(options.nameParam === undefined ? {} : { nameParam: options.nameParam }),
      run: (params, ctx) => handler(params, ctx),
    });
    return this;
  }

  /**
   * Declares support for an extension: it is announced in `capabilities.extensions[id]` (in the
   * eras it names); its methods are added, callable only by clients that declare it; its
   * wrappers wrap the methods they name; its subscription keys join the `subscriptions/listen`
   * filter.
   * @throws {TypeError} for an id that is not `{vendor-prefix}/{name}`, an extension declared twice,
   *   a method that already exists, a wrapper of a method that does not, or a subscription key
   *   already taken.
   */
  extension(extension: ExtensionDefinition): this {
    checkExtension(extension, this.#extensions, this.#table, this.#topics);
    const eras = extension.eras ?? ['legacy', 'modern'];
    const methods = Object.entries(extension.methods ?? {}).map(
      ([name, method]) => [name, typeof method === 'function' ? { run: method } : method] as const,
    );
    // Every method is checked before anything is added: a refused extension changes nothing.
    const pending = new Map([[extension.id, extension]]);
    for (const [name, method] of methods) {
      checkMethodName(name, extension.id, this.#table, pending);
      if (typeof method?.run !== 'function') throw new TypeError(`server.extension: method ${name} of "${extension.id}" needs run(params, ctx)`);
    }
    this.#extensions.set(extension.id, extension);
    for (const [name, { run, ...options }] of methods) {
      this.method(name, run, { ...options, extension: extension.id, eras });
    }
    for (const [name, wrapper] of Object.entries(extension.wrap ?? {})) {
      this.#table.set(name, wrapEntry(this.#table.get(name) as MethodEntry, wrapper));
      this.#wrapped.add(name);
    }
    for (const [key, topic] of Object.entries(extension.subscriptions ?? {})) this.#topics.set(key, topic);
    for (const [type, handler] of Object.entries(extension.broadcasts ?? {})) {
      this.#broadcaster.on(type, (message) => handler(message, this));
    }
    this.#capabilities.clear();
    return this;
  }

  /** The notification topics extensions added to `subscriptions/listen`, by filter key. */
  get topics(): ReadonlyMap<string, SubscriptionTopic> {
    return this.#topics;
  }

  /**
   * Sends `notification` on every open `subscriptions/listen` (on every connection) whose filter
   * has the extension key `key` with an agreed value that `matches` (see `SubscriptionTopic`);
   * each copy carries its subscription id in `_meta`.
   */
  notifySubscribers(key: string, matches: (agreed: JsonValue) => boolean, notification: JsonRpcNotification): void {
    for (const connection of this.#connections.values()) connection.notifySubscribers(key, matches, notification);
  }

  /** The param that the `Mcp-Name` header mirrors for `method` (from the method table), if any. */
  nameParam(method: string): string | undefined {
    return this.#pipeline.entry(method)?.nameParam;
  }

  /**
   * What a transport may learn of a request before running it: what it addresses (for the
   * `Mcp-Name` and `Mcp-Param-*` headers, and the scopes authorization checks), from the method
   * table. Undefined for a method without a target, or a target that does not exist.
   */
  target(method: string, params: JsonObject | undefined): RequestTarget | undefined {
    return this.#pipeline.entry(method)?.target?.(params);
  }

  /**
   * Runs the admission checks of the middleware (`Middleware.admit`), in order, on a request whose
   * body was not read yet, and returns the first refusal (undefined: go on). The Streamable HTTP
   * handler calls it before reading each POST's body. A check that throws is reported and skipped.
   */
  admit(request: AdmissionRequest): RpcError | undefined {
    for (const middleware of this.#middleware) {
      if (middleware.admit === undefined) continue;
      try {
        const refusal = middleware.admit(request);
        if (refusal !== undefined) return refusal;
      } catch (error) {
        this.#report(`admission check failed (the request goes on): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    return undefined;
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
    this.#resourceUpdatedHere(uri);
    void this.#broadcaster.publish({ type: 'resources/updated', uri });
  }

  #resourceUpdatedHere(uri: string): void {
    for (const connection of this.#connections.values()) connection.resourceUpdated(uri);
  }

  /**
   * Sends `notifications/<kind>/list_changed` to every open connection that may receive it. The
   * registries call it on every add and remove.
   * @throws {TypeError} when `kind` is not one of `tools`, `prompts`, `resources`.
   */
  listChanged(kind: ListKind): void {
    if (!isOneOf(kind, LIST_KINDS)) throw new TypeError(`listChanged: ${notOneOf('list kind', kind, LIST_KINDS)}`);
    this.#listChangedHere(kind);
    void this.#broadcaster.publish({ type: 'list_changed', list: kind });
  }

  #listChangedHere(kind: ListKind): void {
    this.#capabilities.clear();
    for (const connection of this.#connections.values()) connection.listChanged(kind);
  }

  /**
   * Links this server to its other replicas through `bus` (or, with undefined, unlinks it), as the
   * `bus` option does: list changes, resource updates, task status and the stray messages of
   * legacy sessions reach every replica. Resolves once the subscription is active.
   * @throws {TypeError} for a bus without `publish` and `subscribe`.
   * @see EventBus
   */
  useEventBus(bus: EventBus | undefined): Promise<void> {
    return this.#broadcaster.use(bus);
  }

  /** The event bus, when one is set. */
  get bus(): EventBus | undefined {
    return this.#broadcaster.bus;
  }

  /** Resolves once the event bus subscription is active (at once without a bus). */
  busReady(): Promise<void> {
    return this.#broadcaster.ready();
  }

  /** This server's node id among its replicas (unique per server object): the `origin` of what it publishes. */
  get nodeId(): string {
    return this.#broadcaster.nodeId;
  }

  /**
   * Publishes `message` to the other replicas on the event bus (nothing without one). A failure
   * of the bus is reported, never thrown.
   */
  broadcast(message: BusMessage): Promise<void> {
    return this.#broadcaster.publish(message);
  }

  /** Calls `handler` with each message of `type` another replica publishes; returns the unsubscribe. */
  onBroadcast(type: string, handler: BusHandler): () => void {
    return this.#broadcaster.on(type, handler);
  }

  /**
   * True when the server has a `stateSecret` (given to {@link createServer} or
   * {@link useStateSecret}); false while a key random to this process signs `requestState`, which
   * no other replica can verify.
   */
  get hasStateSecret(): boolean {
    return this.#requestStates.shared;
  }

  /**
   * Sets the secret that signs 2026-07-28 `requestState`, as the `stateSecret` option does: for a
   * server built without one, from a command line or the environment (`baremcp serve
   * --state-secret`, `BAREMCP_STATE_SECRET`). Call it before serving: states signed with the
   * previous key no longer verify. A string is taken as UTF-8.
   * @throws {TypeError} for an empty secret, or one that is neither a string nor a Uint8Array.
   */
  useStateSecret(secret: Uint8Array | string): this {
    this.#requestStates.rekey(secretBytes(secret, 'server.useStateSecret') as Uint8Array);
    return this;
  }

  /** Writes one diagnostic line (to stderr by default). */
  report(line: string): void {
    this.#report(line);
  }

  /** Opens a connection with its own state (revision, client identity, requests in flight). */
  connect(options?: ConnectOptions): Connection {
    const connection = new ServerConnection(this.#pipeline, options);
    const entry = this.#connections.add(connection);
    connection.onclose = () => entry.remove();
    return connection;
  }

  /**
   * Handles one message on the server's default connection: the pure dispatcher.
   * Resolves to the reply, or `null` for a notification or a response. Never rejects.
   */
  handle(message: unknown): Promise<Reply> {
    this.#default ??= this.connect() as ServerConnection;
    return this.#default.handle(message);
  }

  #computeCapabilities(era: Era): JsonObject {
    const capabilities: JsonObject = { logging: {} };
    if (hasCompletions({ prompts: this.prompts, resources: this.resources })) capabilities.completions = {};
    if (this.prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (this.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.tools.size > 0) capabilities.tools = { listChanged: true };
    if (this.#extensions.size > 0) {
      const extensions: JsonObject = {};
      for (const [id, extension] of this.#extensions) {
        if ((extension.eras ?? ['legacy', 'modern']).includes(era)) extensions[id] = extension.settings ?? {};
      }
      if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
    }
    return capabilities;
  }
}

/**
 * Creates a server.
 * @throws {TypeError} when `info` is missing, or an option names something unknown.
 * @throws {ToolDefinitionError} when a tool definition is unusable (the message names the tool).
 * @example
 * const server = createServer({ info: { name: 'demo', version: '1.0.0' }, tools: [echo] });
 * const reply = await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
 */
export function createServer(options: ServerOptions): Server {
  return new Server(options);
}
