/**
 * A small argv parser: `--flag`, `--key value`, `--key=value`, positionals, and everything after
 * `--` kept apart.
 * @module
 */

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

/**
 * Parses `argv` (without the node and script paths).
 * @param valued names of options that take a value (`--port 3000`); others are flags.
 * @throws {UsageError} when a valued option has no value.
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

/** Every value of a repeatable option `name`, in order (`[]` when absent). */
export function optionStrings(args: ParsedArgs, name: string): string[] {
  return args.values.get(name) ?? [];
}
