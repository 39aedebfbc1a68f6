/**
 * `baremcp serve <module>` and `baremcp [--root DIR]`: serve a module, or the built-in workspace
 * example, over stdio, or with `--http [--port N] [--host H]` over Streamable HTTP (with the
 * operator's `--state-secret`, `--allowed-host` and `--health`, see `http-options.ts`), with
 * `--auth-issuer URL [--auth-audience URL] [--public-url URL]` (or `BAREMCP_AUTH_ISSUER`,
 * `BAREMCP_AUTH_AUDIENCE`, `BAREMCP_PUBLIC_URL`) behind OAuth. stdio has no authorization.
 *
 * Spec: MCP 2026-07-28, Basic / Authorization ("Protocol Requirements": HTTP transports SHOULD
 * conform; STDIO SHOULD NOT, and takes credentials from the environment).
 * @module
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type Server } from '../../server/server.js';
import { installStdoutGuard } from '../../transport/stdout-guard.js';
import { isolatedProtocolFd, spawnIsolated } from '../../transport/isolate.js';
import { stdinSession } from '../../transport/stdin-session.js';
import { serveStdio, type StdioSession } from '../../transport/stdio.js';
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
    await import('../../workspace/index.js');
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
const HTTP_ONLY_OPTIONS: readonly string[] = ['state-secret', 'allowed-host', 'health', 'max-in-flight', 'behind-proxy'];

/**
 * What `serve` and `dev` do before loading a module: check the options, then, on stdio, either
 * serve through an isolated child (`--isolate`; resolves `true` once it ended) or guard stdout.
 * @throws {UsageError} from {@link checkServeOptions}.
 */
export async function prepareServing(args: ParsedArgs): Promise<boolean> {
  checkServeOptions(args);
  if (args.options.has('http')) return false;
  // --isolate: the module is loaded and served only in a child whose fd 1 is our stderr.
  if (args.options.has('isolate') && isolatedProtocolFd() === undefined) {
    await spawnIsolated().closed;
    return true;
  }
  // The guard goes first: a user's module may print while it loads (over HTTP, stdout is free).
  installStdoutGuard();
  return false;
}

/** Serves a module (`serve <module>`) or the example (no module). Resolves when serving ends. */
export async function runServe(args: ParsedArgs, modulePath: string | undefined): Promise<void> {
  if (await prepareServing(args)) return;
  const http = args.options.has('http');
  let server: Server;
  try {
    server =
      modulePath === undefined
        ? await createExampleServer(optionString(args, 'root') ?? process.cwd())
        : await loadServerModule(modulePath);
  } catch (error) {
    // A module that serves itself (it called serveStdio while it loaded) needs no default export.
    const own = http ? undefined : stdinSession();
    if (own === undefined || !(error instanceof UsageError)) throw error;
    return leaveToModule(modulePath ?? 'the module', own);
  }
  await serveLoaded(server, args, modulePath ?? `the workspace example on ${optionString(args, 'root') ?? process.cwd()}`);
}

/**
 * Refuses options that need `--http` on stdio (before anything is loaded).
 * @throws {UsageError} for an authorization flag or an HTTP-only option without `--http`.
 */
export function checkServeOptions(args: ParsedArgs): void {
  if (args.options.has('http')) return;
  for (const flag of AUTH_FLAGS) {
    if (args.options.has(flag)) {
      throw new UsageError(`--${flag} needs --http: stdio has no authorization (MCP 2026-07-28, Basic / Authorization)`);
    }
  }
  const httpOnly = HTTP_ONLY_OPTIONS.find((name) => args.options.has(name));
  if (httpOnly !== undefined) throw new UsageError(`--${httpOnly} needs --http`);
}

/**
 * Serves `server` (`what` names it in the banner) over stdio, or with `--http` over Streamable
 * HTTP until SIGINT/SIGTERM; `serve` and `dev` share it. Over stdio the process exits when the
 * client leaves. Call {@link checkServeOptions} first.
 */
export async function serveLoaded(server: Server, args: ParsedArgs, what: string): Promise<void> {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const counts = [
    plural(server.tools.size, 'tool'),
    ...(server.resources.size > 0 ? [plural(server.resources.size, 'resource') + ' or template' + (server.resources.size === 1 ? '' : 's')] : []),
    ...(server.prompts.size > 0 ? [plural(server.prompts.size, 'prompt')] : []),
  ].join(', ');
  if (args.options.has('http')) return serveOverHttp(server, args, what, counts);
  const scoped = scopedNames(server);
  if (scoped.length > 0) {
    process.stderr.write(
      `baremcp: ${scoped.join(', ')} declare${scoped.length === 1 ? 's' : ''} OAuth scopes; stdio has no authorization, so ${scoped.length === 1 ? 'it runs' : 'they run'} unrestricted\n`,
    );
  }
  const own = stdinSession();
  if (own !== undefined) return leaveToModule(what, own);
  const session = serveStdio(server);
  process.stderr.write(`baremcp: serving ${what} on stdio (${counts}); waiting for a client\n`);
  await session.closed;
}

/**
 * Waits on the stdio session a module started itself while it loaded (`serveStdio(server)` at
 * its top level, as a program of its own does): serving it again would answer every request twice.
 */
async function leaveToModule(what: string, session: StdioSession): Promise<void> {
  process.stderr.write(
    `baremcp: ${what} serves itself on stdio (it calls serveStdio); ` +
      'baremcp leaves the serving to it\n',
  );
  await session.closed;
}

/** The flags of authorization (HTTP only). */
const AUTH_FLAGS = ['auth-issuer', 'auth-audience', 'public-url'] as const;

/** The tools and prompts that declare scopes, for the notice that stdio runs them unrestricted. */
function scopedNames(server: Server): string[] {
  return [
    ...server.tools.list().filter((t) => (t.scopes?.length ?? 0) > 0).map((t) => `tool ${t.name}`),
    ...server.prompts.definitions().filter((p) => (p.scopes?.length ?? 0) > 0).map((p) => `prompt ${p.name}`),
  ];
}

/** An option, else its environment variable (`--auth-issuer` ↔ `BAREMCP_AUTH_ISSUER`), else undefined. */
function optionOrEnv(args: ParsedArgs, name: (typeof AUTH_FLAGS)[number]): string | undefined {
  const value = optionString(args, name) ?? process.env[`BAREMCP_${name.toUpperCase().replace(/-/g, '_')}`];
  return value === '' ? undefined : value;
}

/**
 * `--http [--port N] [--host H] [--auth-issuer URL ...]`: serves Streamable HTTP until
 * SIGINT/SIGTERM, then closes.
 */
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
  const issuer = optionOrEnv(args, 'auth-issuer');
  const audience = optionOrEnv(args, 'auth-audience');
  const publicUrl = optionOrEnv(args, 'public-url');
  if (issuer === undefined && audience !== undefined) {
    throw new UsageError('--auth-audience needs --auth-issuer (the authorization server whose tokens to accept)');
  }
  // Loaded only here, with the HTTP transport: neither is part of the CLI's own file.
  const { serveHttp } = await import('../../transport/http.js');
  const { applyHttpOptions } = await import('../http-options.js');
  const operator = applyHttpOptions(args, process.env, server, host);
  let serving: Awaited<ReturnType<typeof serveHttp>>;
  try {
    serving = await serveHttp(server, {
      port,
      host,
      ...operator,
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...(issuer === undefined ? {} : { auth: { issuer, ...(audience === undefined ? {} : { audience }) } }),
    });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const health = operator.healthPath === undefined ? '' : `; health at ${new URL(operator.healthPath, serving.url).href}`;
  process.stderr.write(
    `baremcp: serving ${what} over Streamable HTTP at ${serving.url} (${counts})` +
      (issuer === undefined ? '' : `; OAuth: tokens from ${issuer} for ${audience ?? publicUrl ?? serving.url}`) +
      `${health}\n`,
  );
  const scoped = scopedNames(server);
  if (issuer === undefined && scoped.length > 0) {
    process.stderr.write(`baremcp: ${scoped.join(', ')} declare OAuth scopes, not enforced without --auth-issuer\n`);
  }
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
