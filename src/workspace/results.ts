/**
 * Result and error helpers shared by the workspace tools: tool errors come back as `isError`
 * results whose text tells the model what to do next, never as protocol errors.
 *
 * Spec: MCP 2025-11-25, Server / Tools ("Error Handling", "Structured Content").
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult } from '../protocol/types.js';

/** The text of the result for a request cancelled while the tool ran. */
export const CANCELLED = 'The request was cancelled before it finished.';

/** An error whose message is written for the model and is shown to it as is. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** `{ isError: true }` with one text block (MCP 2025-11-25, Server / Tools, "Error Handling"). */
export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * A result with `structuredContent` and the same JSON as a text block, for clients that read only
 * `content` (MCP 2025-11-25, Server / Tools, "Structured Content": SHOULD also return it as text).
 */
export function structuredResult(structured: JsonObject): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

/**
 * Turns a Node file-system error into a sentence a model can act on. `shown` is the path as the
 * model knows it (relative to the root), never the host's absolute path.
 */
export function fileErrorMessage(error: unknown, shown: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `'${shown}' does not exist. Call list_directory on its folder to see what is there.`;
    case 'ENOTDIR':
      return `'${shown}' does not exist: a part of the path before the last '/' is a file.`;
    case 'EISDIR':
      return `'${shown}' is a directory. Use list_directory to see what it contains.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied reading '${shown}'. Try another file.`;
    case 'ELOOP':
      return `'${shown}' is a symbolic link that cannot be followed safely. Use its target.`;
    case 'ENAMETOOLONG':
      return `The path '${shown}' is too long for the file system.`;
    default:
      return `Could not read '${shown}': ${(error as Error | undefined)?.message ?? String(error)}`;
  }
}

/**
 * Runs a tool body and turns anything it throws into an `isError` result: a `ToolError` keeps
 * its message, a file-system error is described by `fileErrorMessage`, and an abort says so.
 */
export async function guard(
  shown: () => string,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolError) return errorResult(error.message);
    if ((error as Error | undefined)?.name === 'AbortError') {
      return errorResult(CANCELLED);
    }
    return errorResult(fileErrorMessage(error, shown()));
  }
}
