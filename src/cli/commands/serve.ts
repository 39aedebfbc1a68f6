/**
 * `baremcp serve <module>` and `baremcp [--root DIR]`: serve a module, or the built-in workspace
 * example, over stdio, or with `--http [--port N] [--host H]` over Streamable HTTP (with the
 * operator's `--state-secret`, `--allowed-host` and `--health`, see `http-options.ts`).
 * @module
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type Server } from '../../server/server.js';
import { installStdoutGuard } from '../../transport/stdout-guard.js';
import { serveStdio } from '../../transport/stdio.js';
import { optionString, UsageError, type ParsedArgs } from '../args.js';
import { loadServerModule } from '../load.js';

/**
 * Builds the built-in example server for `root` (default: the working directory): the workspace
 * tools, its files as resources (`file:///{+path}`) and the `review_file` prompt. The example is
 * imported only here, so serving a user's module never loads it.
 * @throws {UsageError} when `root` does not exist.
 */
export async function createExampleServer(root: string): Promise<Server> {
  const { createWorkspacePrompts, createWorkspaceResources, createWorkspaceTools, workspaceInfo } =
    await import('../../examples/workspace/index.js');
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
    tools: createWorkspaceTools(real),
    resources: createWorkspaceResources(real),
    prompts: createWorkspacePrompts(real),
  });
}

/** Options that only make sense with `--http` (read by `http-options.ts`). */
const HTTP_ONLY_OPTIONS: readonly string[] = ['state-secret', 'allowed-host', 'health'];

/** Serves a module (`serve <module>`) or the example (no module). Resolves when serving ends. */
export async function runServe(args: ParsedArgs, modulePath: string | undefined): Promise<void> {
  const http = args.options.has('http');
  // The guard goes first: a user's module may print while it loads (over HTTP, stdout is free).
  if (!http) installStdoutGuard();
  const server =
    modulePath === undefined
      ? await createExampleServer(optionString(args, 'root') ?? process.cwd())
      : await loadServerModule(modulePath);
  const what = modulePath ?? `the workspace example on ${optionString(args, 'root') ?? process.cwd()}`;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const counts = [
    plural(server.tools.size, 'tool'),
    ...(server.resources.size > 0 ? [plural(server.resources.size, 'resource') + ' or template' + (server.resources.size === 1 ? '' : 's')] : []),
    ...(server.prompts.size > 0 ? [plural(server.prompts.size, 'prompt')] : []),
  ].join(', ');
  if (http) return serveOverHttp(server, args, what, counts);
  const httpOnly = HTTP_ONLY_OPTIONS.find((name) => args.options.has(name));
  if (httpOnly !== undefined) throw new UsageError(`--${httpOnly} needs --http`);
  const session = serveStdio(server);
  process.stderr.write(`baremcp: serving ${what} on stdio (${counts}); waiting for a client\n`);
  await session.closed;
}

/** `--http [--port N] [--host H]`: serves Streamable HTTP until SIGINT/SIGTERM, then closes. */
async function serveOverHttp(
  server: Server,
  args: ParsedArgs,
  what: string,
  counts: string,
): Promise<void> {
  const portText = optionString(args, 'port') ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port ${portText}: expected a port number (0-65535)`);
  }
  const host = optionString(args, 'host') ?? '127.0.0.1';
  // Loaded only here, with the HTTP transport: neither is part of the CLI's own file.
  const { serveHttp } = await import('../../transport/http.js');
  const { applyHttpOptions } = await import('../http-options.js');
  const operator = applyHttpOptions(args, process.env, server, host);
  const serving = await serveHttp(server, { port, host, ...operator });
  const health = operator.healthPath === undefined ? '' : `; health at ${new URL(operator.healthPath, serving.url).href}`;
  process.stderr.write(
    `baremcp: serving ${what} over Streamable HTTP at ${serving.url} (${counts})${health}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void serving.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
