/**
 * `baremcp call [--server <module> | -- <command...>] <tool> [json-args]`: acts as a client:
 * spawns the server, does the handshake, calls one tool and prints the result. With
 * `--read <uri>` it reads one resource instead (`resources/read`), with
 * `--prompt <name> [json-args]` it gets one prompt (`prompts/get`); `--json` prints the raw result.
 *
 * Spec: MCP 2025-11-25, Server / Tools, Server / Resources ("Reading Resources"), Server /
 * Prompts ("Getting a Prompt").
 * @module
 */
import { fileURLToPath } from 'node:url';
import { isObject, type JsonObject } from '../../protocol/messages.js';
import { UsageError, optionString, type ParsedArgs } from '../args.js';
import { describeExit, ServerExitError, spawnStdioClient, type StdioClient } from '../client.js';

/** The running `baremcp` script (works from the module build and from the bundle alike). */
const MAIN = process.argv[1] ?? fileURLToPath(new URL('../main.js', import.meta.url));

/** The command that starts the server `call` and `check` talk to. */
export function serverCommand(args: ParsedArgs): [string, string[]] {
  if (args.rest !== undefined && args.rest.length > 0) {
    return [args.rest[0] as string, args.rest.slice(1)];
  }
  const module = optionString(args, 'server');
  if (module !== undefined) return [process.execPath, [MAIN, 'serve', module]];
  const root = optionString(args, 'root');
  return [process.execPath, root === undefined ? [MAIN] : [MAIN, '--root', root]];
}

/**
 * Parses the JSON arguments of `call` (of a tool, or of a prompt with `what: 'prompt'`).
 * @throws {UsageError} for bad JSON or a non-object.
 */
export function parseToolArguments(text: string | undefined, what = 'tool'): JsonObject {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the ${what} arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) {
    throw new UsageError(
      `the ${what} arguments must be a JSON object, e.g. '{"path":"README.md"}'`,
    );
  }
  return value as JsonObject;
}

/**
 * The value of `--read` or `--prompt`: `--read=<uri>` gives it inline; `--read <uri>` (a flag,
 * as the argv parser sees it) takes the first positional. Undefined when the option is absent.
 * @throws {UsageError} when the option is given without a value.
 */
function takeOption(
  args: ParsedArgs,
  name: 'read' | 'prompt',
  example: string,
): string | undefined {
  const value = args.options.get(name);
  if (value === undefined) return undefined;
  const taken = value === true ? args.positionals.shift() : value;
  if (taken === undefined || taken === '') {
    throw new UsageError(`call: --${name} needs a value, e.g. ${example}`);
  }
  return taken;
}

/** Decoded length in bytes of a base64 string (RFC 4648 §4). */
function base64Bytes(blob: string): number {
  const padding = blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((blob.length * 3) / 4) - padding);
}

/** `<blob N bytes mimeType>` for binary data that is not printed. */
function blobLabel(kind: string, data: unknown, mimeType: unknown): string {
  const bytes = typeof data === 'string' ? base64Bytes(data) : 0;
  return `<${kind} ${bytes} bytes${typeof mimeType === 'string' ? ` ${mimeType}` : ''}>`;
}

/** The text, with a line break added when it does not end in one, for printing. */
function line(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}

/** The printed form of one `ResourceContents`: its text, or a label for a blob. */
function contentsText(contents: unknown): string {
  if (!isObject(contents)) return line(JSON.stringify(contents));
  if (typeof contents.text === 'string') return line(contents.text);
  return line(blobLabel('blob', contents.blob, contents.mimeType));
}

/** The printed form of one content block of a prompt message. */
function blockText(block: unknown): string {
  if (!isObject(block)) return line(JSON.stringify(block));
  switch (block.type) {
    case 'text':
      return line(String(block.text));
    case 'image':
    case 'audio':
      return line(blobLabel(block.type, block.data, block.mimeType));
    case 'resource_link':
      return line(`<resource_link ${String(block.uri)}>`);
    case 'resource':
      return contentsText(block.resource);
    default:
      return line(JSON.stringify(block));
  }
}

/**
 * Prints a `ReadResourceResult`: each content's text, or `<blob N bytes mimeType>`; when there are
 * several contents, each comes after a `[uri]` line.
 */
function printRead(result: JsonObject): void {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  for (const item of contents) {
    if (contents.length > 1) {
      process.stdout.write(`[${isObject(item) ? String(item.uri) : '?'}]\n`);
    }
    process.stdout.write(contentsText(item));
  }
}

/** Prints a `GetPromptResult`: each message as `[role]` (and the resource URI) and its content. */
function printPrompt(result: JsonObject): void {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    const content = message.content;
    const uri =
      isObject(content) && content.type === 'resource' && isObject(content.resource)
        ? ` ${String(content.resource.uri)}`
        : '';
    process.stdout.write(`[${String(message.role)}]${uri}\n${blockText(content)}`);
  }
}

/** Prints a `CallToolResult`: text blocks as text, other blocks as JSON. */
function printToolResult(result: JsonObject): void {
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const block of blocks) {
    if (isObject(block) && block.type === 'text') process.stdout.write(String(block.text) + '\n');
    else process.stdout.write(JSON.stringify(block) + '\n');
  }
}

/** What one `call` asks the server for, and how its result is printed. */
interface CallRequest {
  method: 'tools/call' | 'resources/read' | 'prompts/get';
  params: JsonObject;
  print(result: JsonObject): void;
}

const READ_EXAMPLE = 'baremcp call --read file:///README.md';
const PROMPT_EXAMPLE = 'baremcp call --prompt review_file \'{"path":"README.md"}\'';
const TOOL_EXAMPLE = 'baremcp call read_text_file \'{"path":"README.md"}\'';

/** Reads the command line into one request. @throws {UsageError} for a malformed one. */
function callRequest(args: ParsedArgs): CallRequest {
  const uri = takeOption(args, 'read', READ_EXAMPLE);
  const prompt = takeOption(args, 'prompt', PROMPT_EXAMPLE);
  if (uri !== undefined && prompt !== undefined) {
    throw new UsageError('call: give --read or --prompt, not both');
  }
  if (uri !== undefined) {
    const extra = args.positionals[0];
    if (extra !== undefined) throw new UsageError(`call --read: unexpected argument "${extra}"`);
    return { method: 'resources/read', params: { uri }, print: printRead };
  }
  if (prompt !== undefined) {
    const [json, extra] = args.positionals;
    if (extra !== undefined) throw new UsageError(`call --prompt: unexpected argument "${extra}"`);
    const promptArgs = parseToolArguments(json, 'prompt');
    for (const [name, value] of Object.entries(promptArgs)) {
      if (typeof value !== 'string') {
        throw new UsageError(
          `call --prompt: argument "${name}" must be a string (prompt arguments are strings)`,
        );
      }
    }
    const params = { name: prompt, arguments: promptArgs };
    return { method: 'prompts/get', params, print: printPrompt };
  }
  const [tool, json] = args.positionals;
  if (tool === undefined) throw new UsageError(`call: name the tool to call, e.g. ${TOOL_EXAMPLE}`);
  const params = { name: tool, arguments: parseToolArguments(json) };
  return { method: 'tools/call', params, print: printToolResult };
}

/**
 * Prints why the server died before replying; returns the exit code. Our own `serve` (`--server`,
 * `--root`, the example) already says what went wrong in its own words, so its stderr is shown as
 * it is and its usage errors (exit 2: a missing module, no default export) stay exit 2; any other
 * server gets a line saying how it ended, then the end of its stderr, and exit 3.
 */
function reportExit(error: ServerExitError, args: ParsedArgs, command: string,
  commandArgs: string[]): number {
  const own = args.rest === undefined || args.rest.length === 0;
  const verbose = args.options.has('verbose');
  if (own && error.stderr !== '') {
    process.stderr.write(error.stderr + '\n');
  } else {
    const ours = ['baremcp', ...commandArgs.slice(1)].join(' ');
    const label = own ? `the server (${ours})` : [command, ...commandArgs].join(' ');
    process.stderr.write(`baremcp: ${describeExit(error, label, verbose)}\n`);
  }
  return own && error.exitCode === 2 ? 2 : 3;
}

/**
 * Runs `call`; returns the exit code (0 ok, 1 when the tool answered `isError`; 2 or 3 when the
 * server died before replying, see {@link reportExit}). An error reply (unknown tool or prompt,
 * resource not found) rejects: the CLI prints it and exits with 3.
 * @throws {UsageError} for a malformed command line or JSON arguments.
 */
export async function runCall(args: ParsedArgs): Promise<number> {
  const request = callRequest(args);
  const [command, commandArgs] = serverCommand(args);
  // Piped (not shown) unless --verbose: kept for the report if the server dies.
  const stderr = args.options.has('verbose') ? 'inherit' : 'pipe';
  let client: StdioClient;
  try {
    client = await spawnStdioClient(command, commandArgs, { stderr });
  } catch (error) {
    if (error instanceof ServerExitError) return reportExit(error, args, command, commandArgs);
    throw error;
  }
  try {
    const result = await client.request(request.method, request.params);
    if (args.options.has('json')) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else request.print(result);
    return request.method === 'tools/call' && result.isError === true ? 1 : 0;
  } finally {
    await client.close();
  }
}
