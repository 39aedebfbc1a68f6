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
import { wireResourceContents } from './wire.js';

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

/** True for a template definition (it has a `uriTemplate`). */
function isTemplate(definition: ResourceDefinition | ResourceTemplateDefinition): definition is ResourceTemplateDefinition {
  return typeof (definition as { uriTemplate?: unknown })?.uriTemplate === 'string';
}

/** The registry of a server's resources and templates; wire forms are cached per revision. */
export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates = new Map<string, CompiledTemplate>();
  readonly #wire = new WireCache();
  readonly #wireTemplates = new WireCache();
  readonly #listeners = new Set<() => void>();

  /**
   * @param definitions static resources and templates (objects with a `uriTemplate`).
   * @throws {ResourceDefinitionError} for an unusable or duplicate definition.
   */
  constructor(definitions: readonly (ResourceDefinition | ResourceTemplateDefinition)[] = []) {
    this.#add(definitions);
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

  /**
   * Every static resource, then every template, as given, each in registration order (the keys
   * `remove` takes: a resource's `uri`, a template's `uriTemplate`).
   */
  definitions(): (ResourceDefinition | ResourceTemplateDefinition)[] {
    return [...this.#resources.values(), ...[...this.#templates.values()].map((t) => t.definition)];
  }

  /** True when `uri` is a static resource or matches a template (no read is run). */
  knows(uri: string): boolean {
    if (this.#resources.has(uri)) return true;
    for (const { template } of this.#templates.values())
      if (template.match(uri) !== undefined) return true;
    return false;
  }

  /**
   * Adds static resources and templates (objects with a `uriTemplate`) on a live server, all or
   * none; list-changed listeners run.
   * @throws {ResourceDefinitionError} when one is unusable or its URI or `uriTemplate` is taken.
   */
  add(...definitions: (ResourceDefinition | ResourceTemplateDefinition)[]): void {
    this.#add(definitions);
    this.#changed();
  }

  /**
   * Removes the static resource with this URI, or the template with this `uriTemplate`; true when
   * there was one (listeners then run).
   */
  remove(uriOrTemplate: string): boolean {
    const removed = this.#resources.delete(uriOrTemplate) || this.#templates.delete(uriOrTemplate);
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
    return paginate('resources', wire, params, pageSize);
  }

  /** `resources/templates/list`: one page of `ResourceTemplate` objects for the revision. */
  listTemplates(params: JsonObject | undefined, ctx: RequestContext, pageSize: number): JsonObject {
    const revision = ctx.protocolVersion;
    const wire = this.#wireTemplates.get(revision, () =>
      [...this.#templates.values()].map((t) => wireTemplate(t.definition, revision)),
    );
    return paginate('resourceTemplates', wire, params, pageSize);
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
   * Checks the URI of `resources/subscribe` and `resources/unsubscribe` and returns it.
   * @throws {RpcError} `-32602` for a missing or malformed URI; not found (see
   *   {@link resourceNotFound}) when `mustExist` and the URI is neither a static resource nor
   *   matches a template.
   */
  subscriptionUri(params: JsonObject | undefined, ctx: RequestContext, method: string, mustExist: boolean): string {
    const uri = readUri(params, method);
    if (mustExist && !this.knows(uri)) throw resourceNotFound(uri, ctx.protocolVersion);
    return uri;
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
    return result;
  }

  #add(definitions: readonly (ResourceDefinition | ResourceTemplateDefinition)[]): void {
    const resources = new Map<string, ResourceDefinition>();
    const templates = new Map<string, CompiledTemplate>();
    for (const definition of definitions) {
      if (isTemplate(definition)) {
        const compiled = checkTemplate(definition);
        const key = definition.uriTemplate;
        if (this.#templates.has(key) || templates.has(key)) {
          throw new ResourceDefinitionError(`resource template "${key}" is defined twice`);
        }
        templates.set(key, compiled);
      } else {
        checkResource(definition);
        if (this.#resources.has(definition.uri) || resources.has(definition.uri)) {
          throw new ResourceDefinitionError(`resource "${definition.uri}" is defined twice`);
        }
        resources.set(definition.uri, definition);
      }
    }
    for (const [uri, resource] of resources) this.#resources.set(uri, resource);
    for (const [key, template] of templates) this.#templates.set(key, template);
  }

  #changed(): void {
    this.#wire.clear();
    this.#wireTemplates.clear();
    for (const listener of [...this.#listeners]) listener();
  }
}
