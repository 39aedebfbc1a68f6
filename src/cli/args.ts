/**
 * A small argv parser: `--flag`, `--key value`, `--key=value`, positionals, and everything after
 * `--` kept apart; and the check that a command was given only the options it takes.
 * @module
 */
import { notOneOf } from '../protocol/names.js';

/** Parsed command line. */
export interface ParsedArgs {
  /** Positional arguments, in order. */
  positionals: string[];
  /** Options by name (without dashes); `true` for a bare flag. A repeated option: its last value. */
  options: Map<string, string | true>;
  /** Every value each valued option was given, in order (for repeatable options). */
  values: Map<string, string[]>;
  /** Arguments after a `--`, or undefined when there was none. */
  rest: string[] | undefined;
}

/** Thrown for a command line that cannot be used; the CLI prints it and exits with code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The one short option (`-h`, for `--help`). */
const SHORT_OPTIONS = ['-h'];

/**
 * Parses `argv` (without the node and script paths).
 * @param valued names of options that take a value (`--port 3000`); others are flags.
 * @throws {UsageError} when a valued option has no value, or for a short option other than `-h`.
 */
export function parseArgs(argv: readonly string[], valued: readonly string[]): ParsedArgs {
  const result: ParsedArgs = { positionals: [], options: new Map(), values: new Map(), rest: undefined };
  const keep = (name: string, value: string): void => {
    result.options.set(name, value);
    result.values.set(name, [...(result.values.get(name) ?? []), value]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      result.rest = argv.slice(i + 1);
      break;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) {
        keep(name, arg.slice(eq + 1));
      } else if (valued.includes(name)) {
        const value = argv[i + 1];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        keep(name, value);
        i++;
      } else {
        result.options.set(name, true);
      }
    } else if (arg === '-h') {
      result.options.set('help', true);
    } else if (arg.startsWith('-') && arg.length > 1) {
      throw new UsageError(notOneOf('option', arg, SHORT_OPTIONS) + '; long options start with --');
    } else {
      result.positionals.push(arg);
    }
  }
  return result;
}

/** The string value of option `name`, or undefined. @throws {UsageError} for a bare flag. */
export function optionString(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** Flags every command takes (`--help`, `--version`). */
export const GLOBAL_FLAGS: readonly string[] = ['help', 'version'];

/** The options one command takes (names without dashes). */
export interface CommandOptions {
  /** Options that take a value (`--port 3000`, `--port=3000`). */
  values: readonly string[];
  /** Bare flags (`--json`); `--json=yes` is refused. */
  flags: readonly string[];
}

/**
 * Refuses an option `command` does not take, and a value given to a bare flag: an unknown or
 * misspelt option is an error, never ignored. `command` prefixes the message (`serve: `), or
 * nothing for the command-less form.
 * @throws {UsageError} e.g. `serve: unknown option "--prot" (choose from --http, --port, --host, --help)`.
 */
export function checkOptions(args: ParsedArgs, command: string | undefined,
  known: CommandOptions): void {
  const prefix = command === undefined ? '' : `${command}: `;
  const names = [...known.values, ...known.flags];
  for (const [name, value] of args.options) {
    if (known.flags.includes(name) || GLOBAL_FLAGS.includes(name)) {
      if (value !== true) throw new UsageError(`${prefix}--${name} takes no value (got --${name}=${value})`);
    } else if (!names.includes(name)) {
      const choices = [...names, ...GLOBAL_FLAGS].map((n) => `--${n}`);
      throw new UsageError(prefix + notOneOf('option', `--${name}`, choices));
    }
  }
}

/** Every value of a repeatable option `name`, in order (`[]` when absent). */
export function optionStrings(args: ParsedArgs, name: string): string[] {
  return args.values.get(name) ?? [];
}
