/**
 * Read-only mode: the server serves only the tools annotated `readOnlyHint: true`. `tools/list`
 * lists only those (in every revision: the filter reads the tool definitions, since 2024-11-05
 * tools carry no annotations on the wire), and a `tools/call` of any other tool gets the same
 * error as a tool that does not exist, so a client cannot tell a hidden tool from a missing one.
 * Resources, prompts and the other methods are untouched.
 *
 * Spec: MCP 2025-03-26, Server / Tools (`ToolAnnotations.readOnlyHint`: "the tool does not modify
 * its environment"); MCP 2025-11-25, Server / Tools ("Error Handling": unknown tool).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { RequestContext } from '../server/context.js';
import type { Middleware, Next } from '../server/middleware.js';
import { unknownTool } from '../server/tool-call.js';

/** True when `ctx`'s server has a tool named `name` annotated `readOnlyHint: true`. */
function readOnlyTool(ctx: RequestContext, name: unknown): boolean {
  return typeof name === 'string' && ctx.server.tools.get(name)?.annotations?.readOnlyHint === true;
}

/**
 * A middleware that serves only read-only tools (see the module docs). A page of `tools/list` may
 * hold fewer tools than the page size (even none) when it had hidden ones; its `nextCursor` still
 * leads on. Put it before any middleware that must not see hidden tools' calls.
 * @example
 * createServer({ info, tools, middleware: [readOnly()] });
 */
export function readOnly(): Middleware {
  return (ctx: RequestContext, next: Next): JsonObject | Promise<JsonObject> => {
    if (ctx.method === 'tools/call') {
      const name = ctx.params?.name;
      if (!readOnlyTool(ctx, name)) throw unknownTool(String(name));
      return next();
    }
    if (ctx.method !== 'tools/list') return next();
    return next().then((result) => {
      const tools = Array.isArray(result.tools) ? result.tools : [];
      const shown = tools.filter((tool) => readOnlyTool(ctx, (tool as JsonObject | null)?.name));
      return { ...result, tools: shown };
    });
  };
}
