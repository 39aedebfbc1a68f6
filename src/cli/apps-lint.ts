/**
 * The MCP Apps lints of `baremcp check`: a tool's `_meta.ui` (a `ui://` `resourceUri` the server
 * has, the flat `ui/resourceUri` key in step with it, a valid `visibility`, no app-only tool
 * without a resource) and each `ui://` resource's MIME type and `_meta.ui` (CSP domains that are
 * origins). It reads the server through MCP requests (in process or over stdio), so what it
 * checks is what a host sees. Findings are `mcp`-profile rows, rule ids `apps.*`.
 *
 * Spec: MCP Apps 2026-01-26 (SEP-1865), "UI Resource Format" (`ui://`, `text/html;profile=mcp-app`,
 * `McpUiResourceCsp`), "Resource Discovery" ("Resource MUST exist on the server", visibility).
 * @module
 */
import { isObject, type JsonObject, type JsonValue } from '../protocol/messages.js';
import { APP_MIME_TYPE } from '../extensions/apps.js';
import type { Server } from '../server/server.js';
import { compileUriTemplate } from '../server/uri-template.js';
import type { ToolViolation } from '../schema/strict-toolset.js';

/** Sends one request and resolves to its result; rejects on an error reply. */
export type Requester = (method: string, params?: JsonObject) => Promise<JsonObject>;

/** What the lints read of a server. */
export interface AppsInventory {
  tools: JsonObject[];
  resources: JsonObject[];
  /** The `uriTemplate` of every resource template. */
  templates: string[];
  /** The `contents` of each `ui://` resource read (listed or referenced); absent: not readable. */
  contents: Map<string, JsonObject[]>;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
/** An origin as a CSP source: scheme, host (an optional `*.` wildcard label), optional port. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?\/?$/;

/** Every item of a paginated list (`tools`, `resources`, `resourceTemplates`); [] when refused. */
async function listAll(request: Requester, method: string, field: string): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let cursor: JsonValue | undefined;
  try {
    for (let page = 0; page < 1000; page++) {
      const result = await request(method, cursor === undefined ? {} : { cursor });
      items.push(...((Array.isArray(result[field]) ? result[field] : []) as JsonObject[]));
      cursor = result.nextCursor;
      if (typeof cursor !== 'string') break;
    }
  } catch {
    // A server without that capability: nothing to list.
  }
  return items;
}

/** A tool's `_meta.ui` (when an object) and its flat `_meta["ui/resourceUri"]`. */
function uiOf(tool: JsonObject): { ui: JsonObject | undefined; flat: JsonValue | undefined } {
  const meta = isObject(tool._meta) ? (tool._meta as JsonObject) : {};
  return { ui: isObject(meta.ui) ? (meta.ui as JsonObject) : undefined, flat: meta['ui/resourceUri'] };
}

/**
 * Reads the tools and, when a tool carries MCP Apps metadata, the resources, templates and every
 * `ui://` resource listed or pointed at (a server without apps costs one `tools/list`).
 */
export async function readApps(request: Requester): Promise<AppsInventory> {
  const tools = await listAll(request, 'tools/list', 'tools');
  if (!tools.some((tool) => { const { ui, flat } = uiOf(tool); return ui !== undefined || flat !== undefined; })) {
    return { tools, resources: [], templates: [], contents: new Map() };
  }
  const resources = await listAll(request, 'resources/list', 'resources');
  const templates = (await listAll(request, 'resources/templates/list', 'resourceTemplates'))
    .map((t) => t.uriTemplate).filter((t): t is string => typeof t === 'string');
  const uris = new Set(resources.map((r) => r.uri).filter((u): u is string => typeof u === 'string' && u.startsWith('ui://')));
  for (const tool of tools) {
    const { ui, flat } = uiOf(tool);
    for (const uri of [ui?.resourceUri, flat]) if (typeof uri === 'string' && uri.startsWith('ui://')) uris.add(uri);
  }
  const contents = new Map<string, JsonObject[]>();
  for (const uri of uris) {
    try {
      const result = await request('resources/read', { uri });
      if (Array.isArray(result.contents)) contents.set(uri, result.contents as JsonObject[]);
    } catch {
      // Not readable: reported as missing when a tool points at it.
    }
  }
  return { tools, resources, templates, contents };
}

/** A request function over an in-process connection to `server` (after `initialize`). */
export async function serverRequester(server: Server): Promise<Requester> {
  const connection = server.connect();
  let id = 0;
  const request: Requester = async (method, params) => {
    const reply = await connection.handle({ jsonrpc: '2.0', id: ++id, method, ...(params === undefined ? {} : { params }) });
    if (reply === null || Array.isArray(reply) || !('result' in reply)) throw new Error(`${method} failed`);
    return reply.result;
  };
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'baremcp-check', version: '0' } });
  return request;
}

/** Every MCP Apps finding in `inventory`: tools first (in list order), then resources. */
export function lintApps(inventory: AppsInventory): ToolViolation[] {
  const rows: ToolViolation[] = [];
  const add = (tool: string, rule: string, path: string, keyword: string, remedy: string, severity: 'error' | 'warning' = 'error'): void => {
    rows.push({ tool, profile: 'mcp', rule: `apps.${rule}`, path, keyword, remedy, severity });
  };
  const listed = new Set(inventory.resources.map((r) => r.uri));
  const templates = inventory.templates.flatMap((t) => {
    try {
      return [compileUriTemplate(t)];
    } catch {
      return [];
    }
  });
  const exists = (uri: string): boolean =>
    listed.has(uri) || inventory.contents.has(uri) || templates.some((t) => t.match(uri) !== undefined);
  inventory.tools.forEach((tool, i) => {
    const name = typeof tool.name === 'string' ? tool.name : `(unnamed #${i})`;
    const { ui, flat } = uiOf(tool);
    if (ui === undefined && flat === undefined) return;
    const uri = ui?.resourceUri ?? flat;
    const path = ui?.resourceUri === undefined ? '_meta.ui/resourceUri' : '_meta.ui.resourceUri';
    if (ui?.resourceUri !== undefined && flat !== undefined && flat !== ui.resourceUri) {
      add(name, 'legacy-key', '_meta.ui/resourceUri', 'ui/resourceUri', `make it equal to _meta.ui.resourceUri (${JSON.stringify(ui.resourceUri)}); appTool() mirrors them`);
    } else if (flat !== undefined && ui?.resourceUri === undefined) {
      add(name, 'legacy-key-only', path, 'ui/resourceUri', 'also set _meta.ui.resourceUri (the flat key is deprecated)', 'warning');
    }
    if (uri !== undefined && (typeof uri !== 'string' || !uri.startsWith('ui://'))) {
      add(name, 'resource-uri-scheme', path, 'resourceUri', `use a ui:// URI (got ${JSON.stringify(uri)})`);
    } else if (typeof uri === 'string' && !exists(uri)) {
      add(name, 'resource-missing', path, 'resourceUri', `add the resource ${uri} (the server lists no resource with that URI)`);
    }
    const visibility = ui?.visibility;
    if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app'))) {
      add(name, 'visibility', '_meta.ui.visibility', 'visibility', 'use a non-empty array of "model" and/or "app"');
    } else if (Array.isArray(visibility) && !visibility.includes('model') && uri === undefined) {
      add(name, 'app-only-without-resource', '_meta.ui.visibility', 'visibility', 'give the app-only tool the resourceUri of the app that calls it');
    }
    for (const key of ['csp', 'permissions']) {
      if (ui?.[key] !== undefined) add(name, 'tool-resource-meta', `_meta.ui.${key}`, key, `move ${key} to the resource's _meta.ui (hosts ignore it on a tool)`, 'warning');
    }
  });
  const resourceRows = (uri: string, where: string, item: JsonObject): void => {
    if (item.mimeType !== undefined && item.mimeType !== APP_MIME_TYPE) {
      add(uri, 'mime-type', `${where}mimeType`, 'mimeType', `serve ${APP_MIME_TYPE} (got ${JSON.stringify(item.mimeType)})`);
    }
    const ui = isObject(item._meta) ? (item._meta as JsonObject).ui : undefined;
    const csp = isObject(ui) ? (ui as JsonObject).csp : undefined;
    if (!isObject(csp)) return;
    for (const key of CSP_KEYS) {
      const domains = (csp as JsonObject)[key];
      if (domains === undefined) continue;
      if (!Array.isArray(domains)) {
        add(uri, 'csp-domain', `${where}_meta.ui.csp.${key}`, key, 'use an array of origins, e.g. ["https://api.example.com"]');
        continue;
      }
      domains.forEach((domain, j) => {
        if (typeof domain !== 'string' || !ORIGIN.test(domain)) {
          add(uri, 'csp-domain', `${where}_meta.ui.csp.${key}[${j}]`, key, `use an origin (scheme://host[:port], a *. subdomain wildcard at most), not ${JSON.stringify(domain)}`);
        }
      });
    }
  };
  for (const resource of inventory.resources) {
    if (typeof resource.uri === 'string' && resource.uri.startsWith('ui://')) resourceRows(resource.uri, '', resource);
  }
  for (const [uri, items] of inventory.contents) {
    items.forEach((item, j) => {
      if (item.mimeType === undefined) add(uri, 'mime-type', `contents[${j}].mimeType`, 'mimeType', `serve ${APP_MIME_TYPE}`);
      resourceRows(uri, `contents[${j}].`, item);
    });
  }
  return rows;
}
