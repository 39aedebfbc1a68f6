/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): a tool that opens an interactive HTML view,
 * served as a `ui://` resource. The extension is announced in both eras; a client without it gets
 * the tool's text (a result with no text gains one, so the model always reads something).
 *
 * Spec: SEP-1865; MCP Apps 2026-01-26 ("UI Resource Format", "Resource Discovery", "Visibility",
 * "Client<>Server Capability Negotiation", "Graceful Degradation").
 * @module baremcp/apps
 */
import type { JsonObject } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import type { CallToolResult } from '../protocol/types.js';
import type { RequestContext } from '../server/context.js';
import type { ExtensionDefinition } from '../server/extensions.js';
import type { ResourceDefinition } from '../server/resource.js';
import { toCallToolResult } from '../server/tool-call.js';
import type { ToolDefinition } from '../server/tool.js';

/** The extension identifier. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML page. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** `_meta.ui` of an app's resource: the origins it may reach, permissions, its sandbox origin. */
export interface AppResourceUi {
  csp?: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
  permissions?: { camera?: JsonObject; microphone?: JsonObject; geolocation?: JsonObject; clipboardWrite?: JsonObject };
  domain?: string;
  prefersBorder?: boolean;
}

/** An app's HTML page: a `ui://` URI, a name, and the HTML (or a function that makes it). */
export interface AppResourceInput extends Pick<ResourceDefinition, 'name' | 'title' | 'description'> {
  uri: `ui://${string}`;
  html: string | ((ctx: RequestContext) => string | Promise<string>);
  ui?: AppResourceUi;
}

/** The extension to declare (announced in `capabilities.extensions` in both eras). */
export function appsExtension(): ExtensionDefinition {
  return { id: APPS_EXTENSION };
}

/** The client's MCP Apps settings (`{ mimeTypes }`) when it can show apps, else undefined. */
export function appsSupport(ctx: RequestContext): JsonObject | undefined {
  const settings = (ctx.client.capabilities.extensions as JsonObject | undefined)?.[APPS_EXTENSION] as JsonObject | undefined;
  const types = settings?.mimeTypes;
  return settings !== undefined && (!Array.isArray(types) || types.includes(APP_MIME_TYPE)) ? settings : undefined;
}

/**
 * A `ui://` resource serving `html` as `text/html;profile=mcp-app`, its `_meta.ui` in the listing
 * and on the content. @throws {TypeError} for a URI that is not `ui://`.
 */
export function appResource(input: AppResourceInput): ResourceDefinition {
  const { uri, html, ui = {}, ...rest } = input;
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) throw new TypeError(`appResource: uri must start with ui:// (got ${JSON.stringify(uri)})`);
  const _meta = { ui: ui as JsonObject };
  return {
    ...rest, uri, mimeType: APP_MIME_TYPE, _meta,
    read: async (ctx) => ({ contents: [{ uri, mimeType: APP_MIME_TYPE, text: typeof html === 'string' ? html : await html(ctx), _meta }] }),
  };
}

const VISIBILITY: readonly ('model' | 'app')[] = ['model', 'app']; // who may call an app's tool

/**
 * `tool`, opening the app at `ui.resourceUri`: `_meta.ui` (`resourceUri`, `visibility`) mirrored
 * to the flat `_meta["ui/resourceUri"]` older hosts read. For a client without MCP Apps, a result
 * with no text block gains one (its `structuredContent` as JSON, or a sentence saying so).
 * @throws {TypeError} for a `resourceUri` that is not `ui://`, or a `visibility` that is not a
 *   non-empty array of `model`/`app`.
 */
export function appTool<T extends ToolDefinition<never>>(tool: T, ui: { resourceUri: `ui://${string}`; visibility?: ('model' | 'app')[] }): T {
  const where = `appTool: tool ${JSON.stringify(tool?.name)}`;
  if (typeof ui?.resourceUri !== 'string' || !ui.resourceUri.startsWith('ui://')) {
    throw new TypeError(`${where}: resourceUri must start with ui:// (got ${JSON.stringify(ui?.resourceUri)})`);
  }
  const visibility: unknown = ui.visibility;
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0)) {
    throw new TypeError(`${where}: visibility must be a non-empty array of "model" and/or "app"`);
  }
  for (const v of visibility ?? []) if (!isOneOf(v, VISIBILITY)) throw new TypeError(`${where}: ${notOneOf('visibility', v, VISIBILITY)}`);
  const run = tool.run as (args: unknown, ctx: RequestContext) => Promise<CallToolResult> | CallToolResult;
  return {
    ...tool,
    _meta: { ...tool._meta, ui: { ...ui }, 'ui/resourceUri': ui.resourceUri },
    run: async (args: never, ctx: RequestContext) => {
      const result = toCallToolResult(await run(args, ctx));
      if (appsSupport(ctx) !== undefined || result.content.some((block) => block.type === 'text')) return result;
      const text = result.structuredContent === undefined ? `${tool.title ?? tool.name} shows an interactive view, which this client cannot display.` : JSON.stringify(result.structuredContent);
      return { ...result, content: [...result.content, { type: 'text', text }] };
    },
  };
}
