#!/usr/bin/env node
/**
 * The `baremcp` command line.
 *
 *   baremcp [--root DIR]                 serve the built-in workspace example over stdio
 *   baremcp serve <module> [--isolate | --http [--port N] [--host H] [--auth-issuer URL ...]]  serve a module's default export over stdio or HTTP
 *   baremcp dev <module> [serve's options]   serve it, reloading on changes; clients stay connected
 *   baremcp pack <module> [--out FILE]       build an MCP Bundle (.mcpb) of it
 *   baremcp call [--server <module> | -- <command...>] <tool> [json-args]
 *   baremcp check [<module> | -- <command...>] [--profile P] [--json]
 *
 * Exit codes (as docs/cli.md documents them): 0 success; 1 a tool answered isError,
 * or check found violations; 2 a usage error (bad arguments, bad JSON, a module that does not exist
 * or has no server as its default export: `UsageError`); 3 the server failed (a module Node cannot
 * load: `ModuleLoadError`; a server that could not start or answered a protocol error).
 * `call --server` exits 2 when its `serve` did.
 * @module
 */
import { checkOptions, parseArgs, UsageError, type CommandOptions } from './args.js';
import { ownPackage } from './own-copy.js';

const HELP = `baremcp: Model Context Protocol servers with zero runtime dependencies

Usage:
  baremcp [--root DIR]             serve the built-in read-only workspace example over stdio
                                   (DIR defaults to the working directory)
  baremcp serve <module> [--isolate | --http [--port N] [--host H]]
                                   serve the default export of <module> over stdio, or with --http
                                   over Streamable HTTP at http://H:N/mcp (127.0.0.1:3000): a server
                                   from createServer(...) or an object { info?, tools: [...] };
                                   --isolate: from a child process whose stdout is stderr (native
                                   code that prints cannot reach the protocol stream)
    --auth-issuer URL              with --http: accept only OAuth access tokens from this
                                   authorization server (env BAREMCP_AUTH_ISSUER)
    --auth-audience URL            the canonical URI tokens must be for (env BAREMCP_AUTH_AUDIENCE;
                                   default: --public-url, else the served URL)
    --public-url URL               the endpoint's URL as clients reach it, e.g. behind a proxy
                                   (env BAREMCP_PUBLIC_URL)
    --state-secret S               with --http: the secret every replica shares to sign
                                   requestState (env BAREMCP_STATE_SECRET, preferred)
    --allowed-host H               with --http: a Host name clients or a proxy use; repeatable,
                                   * for any (env BAREMCP_ALLOWED_HOSTS, comma-separated)
    --health[=PATH]                with --http: GET PATH (/healthz) answers 200, 503 when closing
    --max-in-flight N              with --http: requests one session (or caller) runs at once;
                                   past it 429 with Retry-After (default 256, as over stdio)
    --behind-proxy                 with --http: clients come through a proxy or balancer (every
                                   one has its address): no per-address session cap
  baremcp dev <module> [serve's options]
                                   serve <module> as serve does, and reload it when it or a file
                                   it imports changes: clients stay connected and get
                                   list_changed; a version that fails to load is reported on
                                   stderr while the last good one goes on serving
  baremcp call [--server <module> | --root DIR | -- <command...>] <tool> [json-args]
                                   start a server, call one tool, print the result (--json: raw)
  baremcp call [...] --read <uri>  read one resource: its text, or <blob N bytes type> (--json: raw)
  baremcp call [...] --prompt <name> [json-args]
                                   get one prompt and print its messages (--json: raw)
  baremcp check [<module> | -- <command...>] [--profile openai|anthropic|gemini|mcp] [--json]
                                   lint every tool's schemas against vendors' strict modes
  baremcp init <dir>               write a new server package (one tool, a test, a README) in <dir>
  baremcp pack <module> [--out FILE]
                                   build an MCP Bundle (.mcpb, Claude Desktop's one-click install)
                                   of <module>: manifest from its info, tools and package.json;
                                   the module, the files and packages it imports, and baremcp
  baremcp --help | --version

Exit codes: 0 ok, 1 tool error or violations found, 2 usage error, 3 server failure.
`;

/**
 * The options each command takes (`''`: the command-less form). `--read` and `--prompt` take
 * their value inline or as the next argument.
 */
const OPTIONS: { readonly [command: string]: CommandOptions } = {
  '': { values: ['root', 'port', 'host', 'state-secret', 'allowed-host', 'health', 'max-in-flight'], flags: ['behind-proxy', 'http'] },
  serve: {
    values: ['port', 'host', 'auth-issuer', 'auth-audience', 'public-url', 'state-secret', 'allowed-host', 'health', 'max-in-flight'],
    flags: ['behind-proxy', 'http', 'isolate'],
  },
  dev: {
    values: ['port', 'host', 'auth-issuer', 'auth-audience', 'public-url', 'state-secret', 'allowed-host', 'health', 'max-in-flight'],
    flags: ['behind-proxy', 'http', 'isolate'],
  },
  call: { values: ['server', 'root', 'read', 'prompt'], flags: ['json', 'verbose'] },
  check: { values: ['server', 'root', 'profile'], flags: ['json', 'verbose'] },
  init: { values: [], flags: [] },
  pack: { values: ['out'], flags: [] },
};

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['root', 'server', 'profile', 'port', 'host', 'auth-issuer', 'auth-audience', 'public-url', 'state-secret', 'allowed-host', 'max-in-flight', 'out']);
  if (args.options.has('version')) {
    process.stdout.write((ownPackage()?.version ?? 'unknown') + '\n');
    return 0;
  }
  const [command, ...positionals] = args.positionals;
  if (args.options.has('help') || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  args.positionals = positionals;
  if (Object.hasOwn(OPTIONS, command ?? '')) checkOptions(args, command, OPTIONS[command ?? ''] as CommandOptions);
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
    case 'dev': {
      const module = positionals[0];
      if (module === undefined) throw new UsageError('dev: name the module to serve, e.g. baremcp dev ./server.js');
      await (await import('./commands/dev.js')).runDev(args, module);
      return 0;
    }
    case 'call':
      return (await import('./commands/call.js')).runCall(args);
    case 'check':
      return (await import('./commands/check.js')).runCheck(args);
    case 'init':
      return (await import('./commands/init.js')).runInit(args);
    case 'pack':
      return (await import('./commands/pack.js')).runPack(args);
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
