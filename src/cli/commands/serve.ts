/**
 * `baremcp serve <module>` and `baremcp [--root DIR]`: serve a module, or the built-in workspace
 * example, over stdio.
 * @module
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createWorkspacePrompts,
  createWorkspaceResources,
  createWorkspaceTools,
  workspaceInfo,
} from '../../examples/workspace/index.js';
import { createServer, type Server } from '../../server/server.js';
import type { ToolDefinition } from '../../server/tool.js';
import { installStdoutGuard } from '../../transport/stdout-guard.js';
import { serveStdio } from '../../transport/stdio.js';
import { optionString, UsageError, type ParsedArgs } from '../args.js';
import { loadServerModule } from '../load.js';

/**
 * Builds the built-in example server for `root` (default: the working directory): the workspace
 * tools, its files as resources (`file:///{+path}`) and the `review_file` prompt.
 * @throws {UsageError} when `root` does not exist.
 */
export function createExampleServer(root: string): Server {
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch {
    throw new UsageError(`--root ${root}: no such directory`);
  }
  return createServer({
    info: workspaceInfo,
    instructions:
      `Read-only access to the files under ${real}. Paths are relative to that root; a file ` +
      'is also a resource at file:///<path>.',
    tools: createWorkspaceTools(real) as unknown as ToolDefinition<never>[],
    resources: createWorkspaceResources(real),
    prompts: createWorkspacePrompts(real),
  });
}

/** Serves a module (`serve <module>`) or the example (no module). Resolves when serving ends. */
export async function runServe(args: ParsedArgs, modulePath: string | undefined): Promise<void> {
  // The guard goes first: a user's module may print while it loads.
  installStdoutGuard();
  const server =
    modulePath === undefined
      ? createExampleServer(optionString(args, 'root') ?? process.cwd())
      : await loadServerModule(modulePath);
  const session = serveStdio(server);
  const what = modulePath ?? `the workspace example on ${optionString(args, 'root') ?? process.cwd()}`;
  const counts = `${server.tools.size} tools, ${server.resources.size} resources and templates, ${server.prompts.size} prompts`;
  process.stderr.write(`baremcp: serving ${what} on stdio (${counts}); waiting for a client\n`);
  await session.closed;
}
