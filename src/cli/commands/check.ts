/**
 * `baremcp check [<module> | -- <command...>] [--profile P[,P...]] [--json] [--verbose]`: lints
 * every tool's `inputSchema` (and, for `mcp`, `outputSchema`) and name against vendors' strict
 * tool modes and against what MCP clients refuse, and prints one row per violation.
 *
 * Where the tools come from:
 * - `check <module>` (or `--server <module>`): the module is loaded in this process, nothing is
 *   spawned; its tools are read as the server would serve them.
 * - `check -- <command...>`: spawns any stdio MCP server, does the handshake and `tools/list`
 *   (every page), then closes it. The server's stderr is shown only with `--verbose`.
 * - `check` alone: the built-in workspace example (on `--root DIR`, default the working directory).
 *
 * Profiles: `mcp` by default; `--profile all` or a list adds vendors' strict modes. With `mcp`,
 * every schema's keywords are linted too (`keyword-lint.ts`: a misspelled keyword is an error
 * with "did you mean", another unknown keyword a warning, a `$schema` naming 2020-12 a warning),
 * and MCP Apps metadata (`apps-lint.ts`): tools' `_meta.ui` and the `ui://` resources they open,
 * read from the server as a host would.
 *
 * Exit codes: 0 no error-severity violation in the selected profiles (warnings do not count);
 * 1 at least one; 2 a usage error (unknown profile, a module and a command both given); 3 the
 * server could not be started or did not answer `tools/list`.
 * Spec: MCP 2025-11-25, Server / Tools (`tools/list`, `Tool`); the rules as cited in
 * `src/schema/strict-rules.ts`; MCP Apps 2026-01-26 (SEP-1865) for the `apps.*` rules.
 * @module
 */
import { isObject, type JsonObject } from '../../protocol/messages.js';
import { isOneOf, notOneOf } from '../../protocol/names.js';
import { LATEST_LEGACY_REVISION } from '../../protocol/revisions.js';
import type { JsonSchema } from '../../protocol/types.js';
import { servedOutputSchema } from '../../server/output-schema.js';
import { servedSchema } from '../../server/tool-schema.js';
import { isStandardSchema } from '../../schema/standard-schema.js';
import { formatViolationsTable } from '../../schema/strict-report.js';
import { STRICT_PROFILES, type StrictProfile } from '../../schema/strict-subset.js';
import {
  findToolSetViolations, type ToolSchemas, type ToolViolation,
} from '../../schema/strict-toolset.js';
import { findKeywordViolations } from '../../schema/keyword-lint.js';
import { installStdoutGuard, writeProtocol } from '../../transport/stdout-guard.js';
import type { Server } from '../../server/server.js';
import { lintApps, readApps, serverRequester } from '../apps-lint.js';
import { optionString, UsageError, type ParsedArgs } from '../args.js';
import { describeExit, ServerExitError, spawnStdioClient, type StdioClient } from '../client.js';

/** What `check --json` prints: the number of tools read, the profiles checked, every violation. */
export interface CheckReport {
  /** How many tools the server listed. */
  tools: number;
  /** The profiles checked, in report order. */
  profiles: StrictProfile[];
  /** Every violation, grouped by tool (in `tools/list` order), then by profile. */
  violations: ToolViolation[];
}

/** Thrown when the server cannot be started or does not answer `tools/list`; exit code 3. */
class ServerFailure extends Error {}

/**
 * Every value given to the valued option `--<name>` in `argv` before a `--`, in order, as
 * `--name value` or `--name=value` (the shared parser keeps only the last of repeated options).
 */
export function repeatedOption(argv: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg === `--${name}` && i + 1 < argv.length) values.push(argv[++i] as string);
    else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  }
  return values;
}

/** The profiles checked without `--profile`: what MCP clients refuse, whatever the model. */
export const DEFAULT_PROFILES: readonly StrictProfile[] = ['mcp'];

/**
 * Parses `--profile` values: each a profile name, `all`, or a comma list of them
 * (`openai,anthropic`); no value means {@link DEFAULT_PROFILES} (`mcp`: a vendor's strict mode
 * applies only to tools sent strict, and no object schema meets both OpenAI's and Gemini's).
 * Returns the profiles in `STRICT_PROFILES` order, each once.
 * @throws {UsageError} for an empty or unknown profile name.
 */
export function parseProfiles(values: readonly string[]): StrictProfile[] {
  if (values.length === 0) return [...DEFAULT_PROFILES];
  const wanted = new Set<string>();
  for (const name of values.flatMap((v) => v.split(',')).map((n) => n.trim())) {
    if (name === 'all') {
      for (const p of STRICT_PROFILES) wanted.add(p);
      continue;
    }
    if (!isOneOf(name, STRICT_PROFILES)) {
      throw new UsageError(`check: ${notOneOf('profile', name, [...STRICT_PROFILES, 'all'])}`);
    }
    wanted.add(name);
  }
  return STRICT_PROFILES.filter((p) => wanted.has(p));
}

/**
 * Reads wire `Tool` objects (a `tools/list` result) as the checker wants them. A tool without a
 * string `name` is named `(unnamed #i)`; an `inputSchema` that is not a schema (missing, a string)
 * is checked as `{}`, so that the `mcp` root rule reports it.
 */
export function toToolSchemas(tools: readonly JsonObject[]): ToolSchemas[] {
  const asSchema = (v: unknown): JsonSchema | undefined =>
    typeof v === 'boolean' || isObject(v) ? (v as JsonSchema) : undefined;
  return tools.map((tool, i) => {
    const output = asSchema(tool.outputSchema);
    return {
      name: typeof tool.name === 'string' ? tool.name : `(unnamed #${i})`,
      inputSchema: asSchema(tool.inputSchema) ?? {},
      ...(output === undefined ? {} : { outputSchema: output }),
    };
  });
}

/**
 * Checks `tools` under each of `profiles` (tool-set limits included) and returns the violations
 * grouped by tool in list order, then by profile in the order given; within one tool and profile
 * the checker's document order is kept.
 */
export function checkTools(tools: readonly ToolSchemas[],
  profiles: readonly StrictProfile[]): ToolViolation[] {
  const order = new Map<string, number>();
  tools.forEach((t, i) => {
    if (!order.has(t.name)) order.set(t.name, i);
  });
  const rows = profiles.flatMap((p) => findToolSetViolations(tools, p));
  // Unknown and misspelled keywords, and a $schema that draft-07 clients refuse: with `mcp`.
  if (profiles.includes('mcp')) rows.push(...findKeywordViolations(tools));
  const rank = (v: ToolViolation): number =>
    (order.get(v.tool) ?? 0) * profiles.length + profiles.indexOf(v.profile);
  // Array.prototype.sort is stable, so equal ranks keep the checker's order.
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** One line summing up `report`: tools read and, per profile, errors and warnings. */
export function summaryLine(report: CheckReport): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = report.profiles.map((p) => {
    const mine = report.violations.filter((v) => v.profile === p);
    const errors = mine.filter((v) => v.severity === 'error').length;
    const warnings = mine.length - errors;
    const counts = [
      ...(errors > 0 ? [plural(errors, 'error')] : []),
      ...(warnings > 0 ? [plural(warnings, 'warning')] : []),
    ];
    return `${p}: ${counts.length === 0 ? 'ok' : counts.join(', ')}`;
  });
  return `${plural(report.tools, 'tool')} checked; ${parts.join('; ')}`;
}

/** What a source yields: its tools, and its MCP Apps findings (none unless asked for). */
interface Collected {
  tools: ToolSchemas[];
  apps: ToolViolation[];
}

/** The MCP Apps findings of a server in this process. */
async function lintServerApps(server: Server): Promise<ToolViolation[]> {
  return lintApps(await readApps(await serverRequester(server)));
}

/**
 * Spawns `command`, lists every tool (and, with `apps`, lints its MCP Apps metadata), closes it.
 * @throws {ServerFailure} on any failure.
 */
async function listSpawned(command: string, commandArgs: string[],
  verbose: boolean, apps: boolean): Promise<{ wire: JsonObject[]; apps: ToolViolation[] }> {
  let client: StdioClient;
  try {
    client = await spawnStdioClient(command, commandArgs, {
      stderr: verbose ? 'inherit' : 'pipe', clientName: 'baremcp-check',
    });
  } catch (error) {
    if (error instanceof ServerExitError) {
      throw new ServerFailure(describeExit(error, [command, ...commandArgs].join(' '), verbose));
    }
    const message = (error as Error).message;
    throw new ServerFailure(
      message.startsWith('could not start') ? message : `could not start ${command}: ${message}`,
    );
  }
  try {
    let wire: JsonObject[];
    try {
      wire = await client.listTools();
    } catch (error) {
      throw new ServerFailure(`${command} did not list its tools: ${(error as Error).message}`);
    }
    return { wire, apps: apps ? lintApps(await readApps((m, p) => client.request(m, p))) : [] };
  } finally {
    await client.close(1000);
  }
}

/**
 * Tool definitions as a Server holds them (`server.tools.list()`), as the checker reads them: an
 * `outputSchema` as a 2025-11-25 client gets it (wrapped in an object when its root is not one;
 * 2026-07-28 clients take any root).
 */
function fromDefinitions(list: readonly { name: string; inputSchema: unknown;
  outputSchema?: unknown }[]): ToolSchemas[] {
  // A zod, valibot or arktype schema is checked as served: converted to JSON Schema.
  const served = (name: string, field: 'inputSchema' | 'outputSchema', schema: unknown): JsonObject =>
    isStandardSchema(schema) ? servedSchema(name, field, schema).schema : (schema as JsonObject);
  return list.map((t) => ({
    name: t.name, inputSchema: served(t.name, 'inputSchema', t.inputSchema),
    ...(t.outputSchema === undefined ? {} : {
      outputSchema: servedOutputSchema(served(t.name, 'outputSchema', t.outputSchema),
        LATEST_LEGACY_REVISION),
    }),
  }));
}

/** The tools to check (and, with `apps`, the MCP Apps findings), from a module, a spawned
 * command or the built-in example. */
async function collectTools(args: ParsedArgs, apps: boolean): Promise<Collected> {
  const positional = args.positionals[0];
  const server = optionString(args, 'server');
  if (args.positionals.length > 1) {
    throw new UsageError(`check: one module at a time (got ${args.positionals.join(', ')})`);
  }
  if (positional !== undefined && server !== undefined) {
    throw new UsageError('check: name the module once, as <module> or as --server <module>');
  }
  const module = positional ?? server;
  if (args.rest !== undefined) {
    if (module !== undefined) {
      throw new UsageError('check: give a module or a command after --, not both');
    }
    const [command, ...commandArgs] = args.rest;
    if (command === undefined) throw new UsageError('check: name the command after --');
    const spawned = await listSpawned(command, commandArgs, args.options.has('verbose'), apps);
    return { tools: toToolSchemas(spawned.wire), apps: spawned.apps };
  }
  // A module may print while it loads; keep stdout for the report.
  installStdoutGuard();
  if (module !== undefined) {
    const { loadServerModule, loadToolDefinitions } = await import('../load.js');
    const tools = fromDefinitions((await loadToolDefinitions(module)) as Parameters<typeof fromDefinitions>[0]);
    // A module whose server cannot be built (a schema it refuses) gets the schema rows only.
    const built = apps ? await loadServerModule(module).catch(() => undefined) : undefined;
    return { tools, apps: built === undefined ? [] : await lintServerApps(built) };
  }
  const { createExampleServer } = await import('./serve.js');
  const root = optionString(args, 'root') ?? process.cwd();
  const example = await createExampleServer(root);
  return { tools: fromDefinitions(example.tools.list()), apps: apps ? await lintServerApps(example) : [] };
}

/**
 * Runs `check`; returns the exit code (0 clean, 1 error-severity violations, 3 server failure).
 * Writes the table and a summary line (or, with `--json`, a {@link CheckReport}) to stdout.
 * @throws {UsageError} for an unknown profile or conflicting sources (the CLI exits with 2).
 */
export async function runCheck(args: ParsedArgs): Promise<number> {
  const last = optionString(args, 'profile');
  // The parser keeps the last --profile only; the command line has them all.
  const given = repeatedOption(process.argv.slice(2), 'profile');
  const values = last === undefined ? [] : given.at(-1) === last ? given : [last];
  const profiles = parseProfiles(values);
  let collected: Collected;
  try {
    collected = await collectTools(args, profiles.includes('mcp'));
  } catch (error) {
    if (!(error instanceof ServerFailure)) throw error;
    process.stderr.write(`baremcp check: ${error.message}\n`);
    return 3;
  }
  const { tools } = collected;
  const violations = [...checkTools(tools, profiles), ...collected.apps];
  const report: CheckReport = { tools: tools.length, profiles, violations };
  const hint = last === undefined
    ? 'Vendor strict modes (for tools sent strict): --profile openai,anthropic,gemini, or --profile all.\n'
    : '';
  const text = args.options.has('json')
    ? JSON.stringify(report, null, 2) + '\n'
    : formatViolationsTable(report.violations) + summaryLine(report) + '\n' + hint;
  writeProtocol(process.stdout, text);
  return report.violations.some((v) => v.severity === 'error') ? 1 : 0;
}
