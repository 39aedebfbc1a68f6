/**
 * Extensions a server declares, and the names of custom methods. An extension is announced in
 * `capabilities.extensions[id]` with its settings object and may add methods, which only a client
 * that declared the extension can call: per request under 2026-07-28 (in
 * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`), in `initialize` under the
 * legacy revisions. Custom methods outside any extension carry a reverse-DNS vendor prefix.
 *
 * Besides methods, an extension may wrap methods the table already has (`wrap`: how the tasks
 * extension answers `tools/call` with a task), and add keys to the `subscriptions/listen`
 * filter (`subscriptions`: its notifications, sent with `Server.notifySubscribers`).
 *
 * Spec: MCP 2026-07-28, Basic / Versioning ("Extension Negotiation"), Basic / Overview ("`_meta`":
 * key naming rules); SEP-2133 (Extensions).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { RequestContext } from './context.js';
import type { BusMessage } from './event-bus.js';
import type { Server } from './server.js';
import type { Era } from './era.js';
import { isPrefixedName, type MethodEntry } from './methods.js';
import type { MethodHandler, MethodOptions } from './server-options.js';
import type { SubscriptionTopic } from './subscriptions.js';

/** A method an extension adds, with its options (or give the handler alone). */
export interface ExtensionMethod extends Pick<MethodOptions, 'required' | 'nameParam' | 'cacheScope'> {
  /** Serves the method. */
  run: MethodHandler;
}

/**
 * Wraps an existing method of the table, inside the middleware chain: it sees the request's
 * params and context and calls `next` to serve the method as before, with the same context or
 * one derived from it (`Object.create(ctx, ...)`: its own `signal`, say), and may answer
 * otherwise. Each call of `next` runs the method's handler (call it once).
 * @example
 * // Answer tools/call for one tool from a cache.
 * const wrap: MethodWrapper = (params, ctx, next) =>
 *   params?.name === 'weather' && cache.has(ctx) ? cache.get(ctx) : next();
 */
export type MethodWrapper = (
  params: JsonObject | undefined,
  ctx: RequestContext,
  next: (ctx?: RequestContext) => Promise<JsonObject>,
) => JsonObject | Promise<JsonObject>;

/** An extension the server supports. */
export interface ExtensionDefinition {
  /** The extension identifier, `{vendor-prefix}/{name}`, e.g. `io.modelcontextprotocol/ui`. */
  id: string;
  /**
   * The settings object announced in `capabilities.extensions[id]`.
   * @default {}
   */
  settings?: JsonObject;
  /**
   * The eras in which the extension is announced and its methods exist (an extension defined
   * only for 2026-07-28 is not announced in `initialize`).
   * @default ['legacy', 'modern']
   */
  eras?: readonly Era[];
  /** Methods the extension adds, by name, as its specification names them. */
  methods?: { readonly [method: string]: MethodHandler | ExtensionMethod };
  /**
   * Wrappers around methods the table already has (core methods or other extensions'), by name;
   * they run in every era, for every client (the wrapper decides what applies).
   */
  wrap?: { readonly [method: string]: MethodWrapper };
  /** Keys the extension adds to the `notifications` filter of `subscriptions/listen`. */
  subscriptions?: { readonly [filterKey: string]: SubscriptionTopic };
  /**
   * Handlers of messages other replicas publish on the event bus (`Server.broadcast`), by type:
   * how an extension's state changes on one replica reach the others (the tasks extension's task
   * status, say).
   */
  broadcasts?: { readonly [type: string]: (message: BusMessage, server: Server) => void };
}

/**
 * Checks an extension before it is added.
 * @throws {TypeError} for an id that is not `{vendor-prefix}/{name}`, one already declared,
 *   settings that are not an object, a wrapper of a method the table lacks or that is not a
 *   function, or a subscription key another extension (or the core filter) already has.
 */
export function checkExtension(
  extension: ExtensionDefinition,
  declared: ReadonlyMap<string, unknown>,
  table: ReadonlyMap<string, MethodEntry>,
  topics: ReadonlyMap<string, unknown>,
): void {
  const id = extension?.id;
  if (typeof id !== 'string' || !isPrefixedName(id)) {
    throw new TypeError(`extension id ${JSON.stringify(id)} must be {vendor-prefix}/{name}, e.g. "com.example/my-extension"`);
  }
  if (declared.has(id)) throw new TypeError(`extension "${id}" is declared twice`);
  const settings = extension.settings;
  if (settings !== undefined && (typeof settings !== 'object' || settings === null || Array.isArray(settings))) {
    throw new TypeError(`extension "${id}": settings must be an object ({} for none)`);
  }
  for (const [method, wrapper] of Object.entries(extension.wrap ?? {})) {
    if (!table.has(method)) throw new TypeError(`extension "${id}": cannot wrap ${method}, which the server does not have`);
    if (typeof wrapper !== 'function') throw new TypeError(`extension "${id}": the wrapper of ${method} must be a function (params, ctx, next) => result`);
  }
  for (const [key, topic] of Object.entries(extension.subscriptions ?? {})) {
    if (CORE_FILTER_KEYS.includes(key) || topics.has(key)) throw new TypeError(`extension "${id}": the subscription key "${key}" is already taken`);
    if (typeof topic?.accept !== 'function') throw new TypeError(`extension "${id}": subscription "${key}" needs accept(value, ctx)`);
  }
}

/** The keys of the core `subscriptions/listen` filter (MCP 2026-07-28, `SubscriptionFilter`). */
const CORE_FILTER_KEYS: readonly string[] = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions'];

/** Wraps `entry`'s handler in `wrapper` (see {@link MethodWrapper}). */
export function wrapEntry(entry: MethodEntry, wrapper: MethodWrapper): MethodEntry {
  return {
    ...entry,
    run: (params, ctx, request) => wrapper(params, ctx, async (inner = ctx) => entry.run(params, inner, request)),
  };
}

/**
 * Checks the name of a custom method before it is added.
 * @throws {TypeError} for a name without a vendor prefix (outside an extension), a method the
 *   table already has, or an extension that is not declared.
 */
export function checkMethodName(
  name: string,
  extension: string | undefined,
  table: ReadonlyMap<string, MethodEntry>,
  extensions: ReadonlyMap<string, unknown>,
): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError('server.method: the method name must be a non-empty string');
  if (table.has(name)) throw new TypeError(`server.method: method "${name}" already exists`);
  if (extension !== undefined) {
    if (!extensions.has(extension)) {
      throw new TypeError(`server.method: "${name}" names extension "${extension}", which the server does not declare (add it with server.extension first)`);
    }
    return;
  }
  if (!isPrefixedName(name)) {
    throw new TypeError(`server.method: a custom method needs a reverse-DNS vendor prefix and a slash, e.g. "com.example/${name.replace(/^.*\//, '')}" (got "${name}")`);
  }
}
