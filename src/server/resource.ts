/**
 * The resource and resource template definitions an author writes, the checks run on them, and
 * their wire forms per revision.
 *
 * Spec: MCP 2025-11-25, Server / Resources ("Resource", "Resource Templates", "Annotations",
 * "Security Considerations"); schema.ts `Resource`, `ResourceTemplate`; RFC 6570 (templates).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { Annotations, Icon } from '../protocol/types.js';
import type { Completer } from './completion.js';
import type { RequestContext } from './context.js';
import { isUri } from './uri.js';
import { compileUriTemplate, UriTemplateError, type UriTemplate } from './uri-template.js';
import { copyFields, type FieldsSince } from './wire.js';

/** One item `read` may return; `uri` defaults to the URI read, `mimeType` to the definition's. */
export type ResourceContentsReturn =
  | { uri?: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri?: string; mimeType?: string; blob: string | Uint8Array; _meta?: JsonObject };

/**
 * What `read` may return:
 * - a string: one text content with the definition's `mimeType`;
 * - a Uint8Array: one base64 `blob` content;
 * - `{ text }` or `{ blob }` (blob as base64 or bytes), or an array of them (several contents);
 * - `{ contents: [...], _meta? }`: a full `ReadResourceResult`;
 * - `undefined`, `null` or an empty array: not found (the spec forbids an empty `contents`).
 */
export type ResourceReturn =
  | string
  | Uint8Array
  | ResourceContentsReturn
  | ResourceContentsReturn[]
  | { contents: ResourceContentsReturn[]; _meta?: JsonObject }
  | undefined
  | null;

/** Fields shared by resources and templates. */
interface ResourceCommon {
  /** Programmatic name; also the display name when `title` is absent. */
  name: string;
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  mimeType?: string;
  /** Sent from 2025-11-25. */
  icons?: Icon[];
  /** `lastModified` is sent from 2025-06-18. */
  annotations?: Annotations;
  /** Sent from 2025-06-18. */
  _meta?: JsonObject;
}

/**
 * A static resource with a fixed URI.
 * @example
 * const readme: ResourceDefinition = {
 *   uri: 'file:///README.md', name: 'README.md', mimeType: 'text/markdown',
 *   read: () => '# Hello',
 * };
 */
export interface ResourceDefinition extends ResourceCommon {
  /** An absolute URI (RFC 3986), unique within the server. */
  uri: string;
  /** Size in bytes of the raw content, if known. */
  size?: number;
  read(ctx: RequestContext): ResourceReturn | Promise<ResourceReturn>;
}

/**
 * A family of resources named by a URI template. `read` gets the matched, percent-decoded
 * variables. For templates that map to files, pass each value through `safeRelativePath`.
 * @example
 * const files: ResourceTemplateDefinition = {
 *   uriTemplate: 'file:///{+path}', name: 'files',
 *   read: ({ path }) => { const rel = safeRelativePath(path); return rel && readBelowRoot(rel); },
 *   complete: { path: (value) => listNames(value) },
 * };
 */
export interface ResourceTemplateDefinition extends ResourceCommon {
  /** An RFC 6570 template with `{var}` (one segment) and `{+var}` (may span `/`) expressions. */
  uriTemplate: string;
  read(
    params: Record<string, string>,
    ctx: RequestContext,
  ): ResourceReturn | Promise<ResourceReturn>;
  /** Completers for template variables, for `completion/complete` with `ref/resource`. */
  complete?: { [variable: string]: Completer };
}

/** Thrown when a resource or template definition is unusable; the message names it and the fix. */
export class ResourceDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceDefinitionError';
  }
}

/** A checked template with its compiled matcher. */
export interface CompiledTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly template: UriTemplate;
}

const RESOURCE_SINCE: FieldsSince = [
  ['title', '2025-06-18'],
  ['description', '2024-11-05'],
  ['mimeType', '2024-11-05'],
  ['size', '2024-11-05'],
  ['icons', '2025-11-25'],
  ['annotations', '2024-11-05'],
  ['_meta', '2025-06-18'],
];

const TEMPLATE_SINCE: FieldsSince = RESOURCE_SINCE.filter(([field]) => field !== 'size');

function checkCommon(what: string, definition: ResourceCommon): void {
  if (typeof definition.name !== 'string' || definition.name.length === 0) {
    throw new ResourceDefinitionError(`${what}: name must be a non-empty string`);
  }
  for (const field of ['title', 'description', 'mimeType'] as const) {
    const value = definition[field];
    if (value !== undefined && typeof value !== 'string') {
      throw new ResourceDefinitionError(`${what}: ${field} must be a string`);
    }
  }
  if (definition.icons !== undefined && !Array.isArray(definition.icons)) {
    throw new ResourceDefinitionError(`${what}: icons must be an array of { src }`);
  }
  if (typeof (definition as { read?: unknown }).read !== 'function') {
    throw new ResourceDefinitionError(`${what}: read must be a function`);
  }
}

/**
 * Checks a static resource definition.
 * @throws {ResourceDefinitionError} when `uri` is not an absolute URI (RFC 3986 shape), `name`
 *   is missing, `size` is not a non-negative integer, or `read` is not a function.
 */
export function checkResource(resource: ResourceDefinition): ResourceDefinition {
  if (typeof resource !== 'object' || resource === null) {
    throw new ResourceDefinitionError('a resource must be an object');
  }
  if (!isUri(resource.uri)) {
    throw new ResourceDefinitionError(
      `resource ${JSON.stringify(resource.uri)}: uri must be an absolute URI (RFC 3986), with ` +
        'spaces and non-ASCII characters percent-encoded',
    );
  }
  checkCommon(`resource "${resource.uri}"`, resource);
  if (resource.size !== undefined && !(Number.isSafeInteger(resource.size) && resource.size >= 0)) {
    throw new ResourceDefinitionError(
      `resource "${resource.uri}": size must be an integer >= 0 (bytes)`,
    );
  }
  return resource;
}

/**
 * Checks a template definition and compiles its URI template.
 * @throws {ResourceDefinitionError} for an unsupported or malformed template, a missing name or
 *   `read`, or a completer named after no variable of the template.
 */
export function checkTemplate(template: ResourceTemplateDefinition): CompiledTemplate {
  if (typeof template !== 'object' || template === null) {
    throw new ResourceDefinitionError('a resource template must be an object');
  }
  const what = `resource template ${JSON.stringify(template.uriTemplate)}`;
  let compiled: UriTemplate;
  try {
    compiled = compileUriTemplate(template.uriTemplate);
  } catch (error) {
    if (error instanceof UriTemplateError) throw new ResourceDefinitionError(error.message);
    throw error;
  }
  if (!isUri(compiled.expand(Object.fromEntries(compiled.variables.map((v) => [v, 'x']))))) {
    throw new ResourceDefinitionError(
      `${what}: expanding it does not give an absolute URI (RFC 3986)`,
    );
  }
  checkCommon(what, template);
  for (const [variable, completer] of Object.entries(template.complete ?? {})) {
    if (!compiled.variables.includes(variable)) {
      throw new ResourceDefinitionError(
        `${what}: complete.${variable} names no variable of the template (it has ${compiled.variables.join(', ') || 'none'})`,
      );
    }
    if (typeof completer !== 'function') {
      throw new ResourceDefinitionError(`${what}: complete.${variable} must be a function`);
    }
  }
  return { definition: template, template: compiled };
}

/** The `Resource` object for `revision`, with the fields it lacks left out. */
export function wireResource(resource: ResourceDefinition, revision: string): JsonObject {
  return copyFields({ uri: resource.uri, name: resource.name }, resource, RESOURCE_SINCE, revision);
}

/** The `ResourceTemplate` object for `revision`, with the fields it lacks left out. */
export function wireTemplate(template: ResourceTemplateDefinition, revision: string): JsonObject {
  return copyFields(
    { uriTemplate: template.uriTemplate, name: template.name },
    template,
    TEMPLATE_SINCE,
    revision,
  );
}
