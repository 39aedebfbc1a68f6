/**
 * Extensions a server declares, and the names of custom methods. An extension is announced in
 * `capabilities.extensions[id]` with its settings object and may add methods, which only a client
 * that declared the extension can call: per request under 2026-07-28 (in
 * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`), in `initialize` under the
 * legacy revisions. Custom methods outside any extension carry a reverse-DNS vendor prefix.
 *
 * Spec: MCP 2026-07-28, Basic / Versioning ("Extension Negotiation"), Basic / Overview ("`_meta`":
 * key naming rules); SEP-2133 (Extensions).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { Era } from './era.js';
import { isPrefixedName, type MethodEntry } from './methods.js';
import type { MethodHandler } from './server-options.js';

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
  methods?: { readonly [method: string]: MethodHandler };
}

/**
 * Checks an extension before it is added.
 * @throws {TypeError} for an id that is not `{vendor-prefix}/{name}`, one already declared, or
 *   settings that are not an object.
 */
export function checkExtension(extension: ExtensionDefinition, declared: ReadonlyMap<string, unknown>): void {
  const id = extension?.id;
  if (typeof id !== 'string' || !isPrefixedName(id)) {
    throw new TypeError(`extension id ${JSON.stringify(id)} must be {vendor-prefix}/{name}, e.g. "com.example/my-extension"`);
  }
  if (declared.has(id)) throw new TypeError(`extension "${id}" is declared twice`);
  const settings = extension.settings;
  if (settings !== undefined && (typeof settings !== 'object' || settings === null || Array.isArray(settings))) {
    throw new TypeError(`extension "${id}": settings must be an object ({} for none)`);
  }
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
