/**
 * `baremcp call [--server <module> | -- <command...>] <tool> [json-args]`: acts as a client:
 * spawns the server, does the handshake, calls one tool and prints the result.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { isObject, type JsonObject } from '../../protocol/messages.js';
import { UsageError, optionString, type ParsedArgs } from '../args.js';
import { spawnStdioClient } from '../client.js';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

/** The command that starts the server `call` and `check` talk to. */
export function serverCommand(args: ParsedArgs): [string, string[]] {
  if (args.rest !== undefined && args.rest.length > 0) return [args.rest[0] as string, args.rest.slice(1)];
  const module = optionString(args, 'server');
  if (module !== undefined) return [process.execPath, [MAIN, 'serve', module]];
  const root = optionString(args, 'root');
  return [process.execPath, root === undefined ? [MAIN] : [MAIN, '--root', root]];
}

/** Parses the JSON arguments of `call`. @throws {UsageError} for bad JSON or a non-object. */
export function parseToolArguments(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the tool arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError('the tool arguments must be a JSON object, e.g. \'{"path":"README.md"}\'');
  return value as JsonObject;
}

/** Runs `call`; returns the exit code (0 ok, 1 when the tool answered `isError`). */
export async function runCall(args: ParsedArgs): Promise<number> {
  const [tool, json] = args.positionals;
  if (tool === undefined) throw new UsageError('call: name the tool to call, e.g. baremcp call read_text_file \'{"path":"README.md"}\'');
  const toolArgs = parseToolArguments(json);
  const [command, commandArgs] = serverCommand(args);
  const client = await spawnStdioClient(command, commandArgs, { stderr: args.options.has('verbose') ? 'inherit' : 'ignore' });
  try {
    const result = await client.request('tools/call', { name: tool, arguments: toolArgs });
    if (args.options.has('json')) {
      process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    } else {
      const blocks = Array.isArray(result.content) ? result.content : [];
      for (const block of blocks) {
        if (isObject(block) && block.type === 'text') process.stdout.write(String(block.text) + '\n');
        else process.stdout.write(JSON.stringify(block) + '\n');
      }
    }
    return result.isError === true ? 1 : 0;
  } finally {
    await client.close();
  }
}
