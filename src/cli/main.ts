#!/usr/bin/env node
/**
 * The `baremcp` command line.
 *
 *   baremcp [--root DIR]                 serve the built-in workspace example over stdio
 *   baremcp serve <module> [--http [--port N] [--host H]]  serve a module's default export over stdio or HTTP
 *   baremcp call [--server <module> | -- <command...>] <tool> [json-args]
 *   baremcp check [<module> | -- <command...>] [--profile P] [--json]
 *
 * Exit codes: 0 success; 1 a tool answered isError, or check found violations; 2 a usage error
 * (bad arguments, bad JSON, missing module); 3 the server failed (could not start, protocol error).
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError } from './args.js';

const HELP = `baremcp: Model Context Protocol servers with zero runtime dependencies

Usage:
  baremcp [--root DIR]             serve the built-in read-only workspace example over stdio
                                   (DIR defaults to the working directory)
  baremcp serve <module> [--http [--port N] [--host H]]
                                   serve the default export of <module> over stdio, or with --http
                                   over Streamable HTTP at http://H:N/mcp (127.0.0.1:3000): a server
                                   from createServer(...) or an object { info?, tools: [...] }
    --state-secret S               with --http: the secret every replica shares to sign
                                   requestState (env BAREMCP_STATE_SECRET, preferred)
    --allowed-host H               with --http: a Host name clients or a proxy use; repeatable,
                                   * for any (env BAREMCP_ALLOWED_HOSTS, comma-separated)
    --health[=PATH]                with --http: GET PATH (/healthz) answers 200, 503 when closing
  baremcp call [--server <module> | --root DIR | -- <command...>] <tool> [json-args]
                                   start a server, call one tool, print the result (--json: raw)
  baremcp call [...] --read <uri>  read one resource: its text, or <blob N bytes type> (--json: raw)
  baremcp call [...] --prompt <name> [json-args]
                                   get one prompt and print its messages (--json: raw)
  baremcp check [<module> | -- <command...>] [--profile openai|anthropic|gemini|mcp] [--json]
                                   lint every tool's schemas against vendors' strict modes
  baremcp init <dir>               write a new server package (one tool, a test, a README) in <dir>
  baremcp --help | --version

Exit codes: 0 ok, 1 tool error or violations found, 2 usage error, 3 server failure.
`;

/** This package's version, from the nearest package.json above this file named "baremcp". */
function version(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'baremcp' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: keep climbing
    }
    if (dir.pathname === '/') return 'unknown';
  }
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['root', 'server', 'profile', 'port', 'host', 'state-secret', 'allowed-host']);
  if (args.options.has('version')) {
    process.stdout.write(version() + '\n');
    return 0;
  }
  const [command, ...positionals] = args.positionals;
  if (args.options.has('help') || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  args.positionals = positionals;
  switch (command) {
    case undefined:
      await (await import('./commands/serve.js')).runServe(args, undefined);
      return 0;
    case 'serve': {
      const module = positionals[0];
      if (module === undefined) throw new UsageError('serve: name the module to serve, e.g. baremcp serve ./server.js');
      await (await import('./commands/serve.js')).runServe(args, module);
      return 0;
    }
    case 'call':
      return (await import('./commands/call.js')).runCall(args);
    case 'check':
      return (await import('./commands/check.js')).runCheck(args);
    case 'init':
      return (await import('./commands/init.js')).runInit(args);
    default:
      throw new UsageError(`unknown command "${command}" (see baremcp --help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`baremcp: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`baremcp: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 3;
    }
  },
);
