/**
 * baremcp's built-in example server: read-only tools over one directory (the workspace).
 * `baremcp` serves it by default with `--root DIR`.
 *
 * Every path a tool receives is confined to the root with symbolic links resolved (paths.ts);
 * every failure is an `isError` result whose text tells the model what to do next.
 *
 * Spec: MCP 2025-11-25, Server / Tools.
 * @module
 * @example
 * const tools = createWorkspaceTools(process.cwd(), { maxResults: 50 });
 * const listing = await tools[0].run({ path: '.' }, { signal: AbortSignal.timeout(5000) });
 */
import type { JsonObject } from '../../protocol/messages.js';
import type {
  CallToolResult,
  ContentBlock,
  Implementation,
  ToolAnnotations,
} from '../../protocol/types.js';
import { fileInfoTool } from './file-info.js';
import { listDirectoryTool } from './list-directory.js';
import { openWorkspaceRoot, type WorkspaceRoot } from './paths.js';
import { readTextFileTool } from './read-text-file.js';
import { searchTextTool } from './search-text.js';

/** What `run` may return: plain text, content blocks, or a full `CallToolResult`. */
export type WorkspaceToolReturn = string | ContentBlock[] | CallToolResult;

/**
 * A tool as a plain object: name, description, hand-written JSON Schemas, hints and `run`.
 * Declared here so this example does not depend on the server module; it has the same fields as
 * baremcp's tool definition (MCP 2025-11-25, `Tool`).
 */
export interface WorkspaceTool {
  /** Unique tool name, 1–64 characters of `[A-Za-z0-9_-]`. */
  name: string;
  /** Human-readable name for user interfaces. */
  title?: string;
  /** What the tool does and when to use it, written for a model. */
  description: string;
  /** JSON Schema 2020-12 for `arguments` (`type: "object"`, `additionalProperties: false`). */
  inputSchema: JsonObject;
  /** JSON Schema 2020-12 for `structuredContent`, when the tool returns structured data. */
  outputSchema?: JsonObject;
  /** Behaviour hints; every workspace tool is `readOnlyHint: true`. */
  annotations?: ToolAnnotations;
  /**
   * Runs the tool. Failures come back as `isError` results rather than throws. `ctx.signal` aborts
   * when the request is cancelled.
   */
  run(
    args: Record<string, unknown>,
    ctx: { signal: AbortSignal },
  ): WorkspaceToolReturn | Promise<WorkspaceToolReturn>;
}

/** Limits for the workspace tools; see `createWorkspaceTools` for defaults. */
export interface WorkspaceOptions {
  /** Most bytes of file text `read_text_file` returns in one call. @default 262144 (256 KiB) */
  maxReadBytes?: number;
  /**
   * Most matches `search_text` returns in one call (its `maxResults` argument can lower it).
   * @default 100
   */
  maxResults?: number;
  /** Wall-clock budget of one `search_text` call, in milliseconds. @default 5000 */
  searchTimeMs?: number;
  /** Files larger than this many bytes are skipped by `search_text`. @default 4194304 (4 MiB) */
  maxSearchFileBytes?: number;
}

/** The root and the limits with defaults filled in, shared by every tool of one workspace. */
export interface WorkspaceContext {
  root: WorkspaceRoot;
  maxReadBytes: number;
  maxResults: number;
  searchTimeMs: number;
  maxSearchFileBytes: number;
}

/** Name and version the workspace server reports (MCP 2025-11-25, `Implementation`). */
export const workspaceInfo: Implementation = { name: 'baremcp-workspace', version: '0.1.0' };

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`createWorkspaceTools: ${name} must be a whole number of at least 1`);
  }
  return value;
}

/**
 * Creates the workspace tools for the directory `root`: `list_directory`, `read_text_file`,
 * `search_text` and `file_info`, all read-only (`readOnlyHint: true`).
 *
 * The root is resolved with `fs.realpath` once, here; paths in later calls are confined to it.
 * @param root Directory to serve, absolute or relative to the working directory.
 * @param options Limits: `maxReadBytes` (default 262144), `maxResults` (default 100),
 *   `searchTimeMs` (default 5000), `maxSearchFileBytes` (default 4194304).
 * @throws {Error} when `root` does not exist or is not a directory.
 * @throws {RangeError} when a limit is not a whole number of at least 1.
 */
export function createWorkspaceTools(
  root: string,
  options: WorkspaceOptions = {},
): WorkspaceTool[] {
  const workspace: WorkspaceContext = {
    root: openWorkspaceRoot(root),
    maxReadBytes: positive(options.maxReadBytes, 256 * 1024, 'maxReadBytes'),
    maxResults: positive(options.maxResults, 100, 'maxResults'),
    searchTimeMs: positive(options.searchTimeMs, 5000, 'searchTimeMs'),
    maxSearchFileBytes: positive(options.maxSearchFileBytes, 4 * 1024 * 1024, 'maxSearchFileBytes'),
  };
  return [
    listDirectoryTool(workspace),
    readTextFileTool(workspace),
    searchTextTool(workspace),
    fileInfoTool(workspace),
  ];
}
