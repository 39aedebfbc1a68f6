/**
 * The resource registry and the `resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe` and `resources/unsubscribe` methods.
 *
 * Spec: MCP 2025-11-25, Server / Resources (not found: `-32002` with `data.uri`); MCP 2026-07-28,
 * Server / Resources (not found: `-32602` with `data.uri`; never an empty `contents`; caching);
 * Server / Utilities / Pagination.
 * @module
 */
import { WireCache } from './wire-cache.js';
import { ErrorCode, RpcError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';
import type { RequestContext } from './context.js';
import { paginate } from './pagination.js';
import { readContents } from './resource-contents.js';
import {
  checkResource,
  checkTemplate,
  ResourceDefinitionError,
  wireResource,
  wireTemplate,
  type CompiledTemplate,
  type ResourceDefinition,
  type ResourceReturn,
  type ResourceTemplateDefinition,
} from './resource.js';
import { isUri } from './uri.js';
import { checkCacheHints, finishResult, wireResourceContents, type CacheHints } from './wire.js';

/** Options for a {@link ResourceRegistry}. */
export interface ResourceRegistryOptions {
  /**
   * Caching hints on `resources/list` and `resources/templates/list` at 2026-07-28. Default:
   * none here, so the server's own defaults apply.
   */
  listCache?: CacheHints;
  /** Caching hints on `resources/read` results at 2026-07-28. Default: the server's. */
  readCache?: CacheHints;
}

/**
 * The "resource not found" error for `revision`: `-32002` up to 2025-11-25, `-32602` from
 * 2026-07-28; both with `data: { uri }`.
 */
export function resourceNotFound(uri: string, revision: string): RpcError {
  const code = atLeast(revision, '2026-07-28')
    ? ErrorCode.InvalidParams
    : ErrorCode.ResourceNotFound;
  return new RpcError(code, `Resource not found: ${uri}`, { uri });
}

function readUri(params: JsonObject | undefined, method: string): string {
  const uri = params?.uri;
  if (typeof uri !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, `${method}: params.uri must be a string`);
  }
  if (!isUri(uri)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `${method}: ${JSON.stringify(uri)} is not a valid URI (RFC 3986)`,
      { uri },
    );
  }
  return uri;
}

/** The registry of a server's resources and templates; wire forms are cached per revision. */
export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates = new Map<string, CompiledTemplate>();
  readonly #wire = new WireCache();
  readonly #wireTemplates = new WireCache();
  readonly #subscriptions = new Map<string, Set<string>>();
  readonly #listeners = new Set<() => void>();
  readonly #listCache: CacheHints | undefined;
  readonly #readCache: CacheHints | undefined;

  /** @throws {ResourceDefinitionError} for an unusable or duplicate definition. */
  constructor(
    resources: readonly ResourceDefinition[] = [],
    templates: readonly ResourceTemplateDefinition[] = [],
    options: ResourceRegistryOptions = {},
  ) {
    this.#listCache = options.listCache && checkCacheHints(options.listCache, 'listCache');
    this.#readCache = options.readCache && checkCacheHints(options.readCache, 'readCache');
    for (const resource of resources) this.#addResource(resource);
    for (const template of templates) this.#addTemplate(template);
  }

  /** Number of static resources plus templates (0: the server has no `resources` capability). */
  get size(): number {
    return this.#resources.size + this.#templates.size;
  }

  /** True when some template declares a completer (the server then announces `completions`). */
  hasCompletions(): boolean {
    for (const { definition } of this.#templates.values()) {
      if (definition.complete !== undefined && Object.keys(definition.complete).length > 0)
        return true;
    }
    return false;
  }

  /** The static resource with this exact URI, or undefined. */
  resource(uri: string): ResourceDefinition | undefined {
    return this.#resources.get(uri);
  }

  /** The template whose `uriTemplate` is exactly this (as `ref/resource` names it), or undefined. */
  template(uriTemplate: string): CompiledTemplate | undefined {
    return this.#templates.get(uriTemplate);
  }

  /** True when `uri` is a static resource or matches a template (no read is run). */
  knows(uri: string): boolean {
    if (this.#resources.has(uri)) return true;
    for (const { template } of this.#templates.values())
      if (template.match(uri) !== undefined) return true;
    return false;
  }

  /**
   * Adds a static resource on a live server; list-changed listeners run.
   * @throws {ResourceDefinitionError} when it is unusable or its URI is taken.
   */
  add(resource: ResourceDefinition): void {
    this.#addResource(resource);
    this.#changed();
  }

  /**
   * Adds a template on a live server; list-changed listeners run.
   * @throws {ResourceDefinitionError} when it is unusable or its `uriTemplate` is taken.
   */
  addTemplate(template: ResourceTemplateDefinition): void {
    this.#addTemplate(template);
    this.#changed();
  }

  /** Removes the static resource with this URI; true when there was one (listeners then run). */
  remove(uri: string): boolean {
    const removed = this.#resources.delete(uri);
    if (removed) this.#changed();
    return removed;
  }

  /** Removes the template with this `uriTemplate`; true when there was one (listeners then run). */
  removeTemplate(uriTemplate: string): boolean {
    const removed = this.#templates.delete(uriTemplate);
    if (removed) this.#changed();
    return removed;
  }

  /**
   * Registers `listener` to run after each add or remove (the server sends
   * `notifications/resources/list_changed`). Returns a function that unregisters it.
   */
  onListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `resources/list`: one page of `Resource` objects shaped for `ctx.protocolVersion`. */
  list(params: JsonObject | undefined, ctx: RequestContext, pageSize: number): JsonObject {
    const revision = ctx.protocolVersion;
    const wire = this.#wire.get(revision, () => [...this.#resources.values()].map((r) => wireResource(r, revision)));
    return finishResult(paginate('resources', wire, params, pageSize), revision, this.#listCache);
  }

  /** `resources/templates/list`: one page of `ResourceTemplate` objects for the revision. */
  listTemplates(params: JsonObject | undefined, ctx: RequestContext, pageSize: number): JsonObject {
    const revision = ctx.protocolVersion;
    const wire = this.#wireTemplates.get(revision, () =>
      [...this.#templates.values()].map((t) => wireTemplate(t.definition, revision)),
    );
    return finishResult(
      paginate('resourceTemplates', wire, params, pageSize),
      revision,
      this.#listCache,
    );
  }

  /**
   * `resources/read`: the static resource with this URI, else the first template (in
   * registration order) that matches and whose `read` returns something.
   * @throws {RpcError} `-32602` when `params.uri` is missing or not a URI; not found (see
   *   {@link resourceNotFound}) when nothing matches or every match returned nothing.
   * @throws {Error} when `read` throws or returns a malformed value (the dispatcher: `-32603`).
   */
  async read(params: JsonObject | undefined, ctx: RequestContext): Promise<JsonObject> {
    const uri = readUri(params, 'resources/read');
    const resource = this.#resources.get(uri);
    if (resource !== undefined) {
      const result = this.#shape(
        await resource.read(ctx),
        uri,
        resource.mimeType,
        ctx.protocolVersion,
      );
      if (result !== undefined) return result;
    }
    for (const { definition, template } of [...this.#templates.values()]) {
      const vars = template.match(uri);
      if (vars === undefined) continue;
      const result = this.#shape(
        await definition.read(vars, ctx),
        uri,
        definition.mimeType,
        ctx.protocolVersion,
      );
      if (result !== undefined) return result;
    }
    throw resourceNotFound(uri, ctx.protocolVersion);
  }

  /**
   * `resources/subscribe`: records that `subscriber` (e.g. a connection id) wants
   * `notifications/resources/updated` for `params.uri`. Idempotent.
   * @throws {RpcError} `-32602` for a missing or malformed URI; not found when the URI is neither
   *   a static resource nor matches a template.
   */
  subscribe(params: JsonObject | undefined, ctx: RequestContext, subscriber: string): JsonObject {
    const uri = readUri(params, 'resources/subscribe');
    if (!this.knows(uri)) throw resourceNotFound(uri, ctx.protocolVersion);
    let set = this.#subscriptions.get(uri);
    if (set === undefined) this.#subscriptions.set(uri, (set = new Set()));
    set.add(subscriber);
    return {};
  }

  /** `resources/unsubscribe`: forgets one subscription; succeeds also when there was none. */
  unsubscribe(
    params: JsonObject | undefined,
    _ctx: RequestContext,
    subscriber: string,
  ): JsonObject {
    const uri = readUri(params, 'resources/unsubscribe');
    const set = this.#subscriptions.get(uri);
    if (set !== undefined && set.delete(subscriber) && set.size === 0) {
      this.#subscriptions.delete(uri);
    }
    return {};
  }

  /** The subscribers of `uri` in subscription order, to send `notifications/resources/updated`. */
  subscribers(uri: string): string[] {
    return [...(this.#subscriptions.get(uri) ?? [])];
  }

  /** Forgets every subscription of `subscriber` (call when its connection closes). */
  dropSubscriber(subscriber: string): void {
    for (const [uri, set] of this.#subscriptions) {
      if (set.delete(subscriber) && set.size === 0) this.#subscriptions.delete(uri);
    }
  }

  #shape(
    value: ResourceReturn,
    uri: string,
    mimeType: string | undefined,
    revision: string,
  ): JsonObject | undefined {
    const read = readContents(value, uri, mimeType);
    if (read === undefined) return undefined;
    const result: JsonObject = {
      contents: read.contents.map((item) => wireResourceContents(item, revision)),
    };
    if (read._meta !== undefined) result._meta = read._meta;
    return finishResult(result, revision, this.#readCache);
  }

  #addResource(resource: ResourceDefinition): void {
    checkResource(resource);
    if (this.#resources.has(resource.uri)) {
      throw new ResourceDefinitionError(`resource "${resource.uri}" is defined twice`);
    }
    this.#resources.set(resource.uri, resource);
  }

  #addTemplate(template: ResourceTemplateDefinition): void {
    const compiled = checkTemplate(template);
    if (this.#templates.has(template.uriTemplate)) {
      throw new ResourceDefinitionError(
        `resource template "${template.uriTemplate}" is defined twice`,
      );
    }
    this.#templates.set(template.uriTemplate, compiled);
  }

  #changed(): void {
    this.#wire.clear();
    this.#wireTemplates.clear();
    for (const listener of [...this.#listeners]) listener();
  }
}
