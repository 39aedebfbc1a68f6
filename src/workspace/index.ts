/**
 * baremcp's built-in example server: read-only tools over one directory (the workspace), its
 * files as resources (`file:///{+path}`), and a `review_file` prompt. `baremcp` serves it by
 * default with `--root DIR`.
 *
 * Every path a tool, resource read, prompt or completion receives is confined to the root with
 * symbolic links resolved (paths.ts), and what is then opened is checked inside the root by its
 * descriptor, not its path (open-inside.ts), so a folder swapped for a symbolic link meanwhile
 * is never followed. Every call is bounded: bytes read and scanned, entries listed, matches,
 * search time and threads (search-pool.ts), and a 30 s time-out per tool call. Every tool failure
 * is an `isError` result whose text tells the model what to do next, and a path refused for a
 * resource reads as "not found".
 *
 * Spec: MCP 2025-11-25, Server / Tools, Server / Resources, Server / Prompts, Server / Utilities /
 * Completion.
 * @module
 * @example
 * const tools = createWorkspaceTools(process.cwd(), { maxResults: 50 });
 * const listing = await tools[0].run({ path: '.' }, { signal: AbortSignal.timeout(5000) });
 * const server = createServer({
 *   info: workspaceInfo,
 *   tools,
 *   resources: createWorkspaceResources(process.cwd()),
 *   prompts: createWorkspacePrompts(process.cwd()),
 * });
 */
import { availableParallelism } from 'node:os';
import type { Implementation } from '../protocol/types.js';
import type { ToolDefinition, ToolReturn } from '../server/tool.js';
import type { PromptDefinition } from '../server/prompt.js';
import type { ResourceTemplateDefinition } from '../server/resource.js';
import { fileInfoTool } from './file-info.js';
import { listDirectoryTool } from './list-directory.js';
import { openWorkspaceRoot, type WorkspaceRoot } from './paths.js';
import { reviewFilePrompt } from './prompts.js';
import { readTextFileTool } from './read-text-file.js';
import { filesTemplate } from './resources.js';
import { searchTextTool } from './search-text.js';

/** What `run` may return: plain text, content blocks, or a full `CallToolResult`. */
export type WorkspaceToolReturn = ToolReturn;

/**
 * A workspace tool: baremcp's tool definition (MCP 2025-11-25, `Tool`) with its arguments as a
 * plain record. Every workspace tool is `readOnlyHint: true` and returns failures as `isError`
 * results rather than throwing.
 */
export type WorkspaceTool = ToolDefinition<Record<string, unknown>>;

/** Limits for the workspace tools, resources and prompts; see `createWorkspaceTools`. */
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
  /**
   * Largest file `resources/read` (and the `review_file` prompt) returns whole; larger files are
   * refused with `-32603`. @default 1048576 (1 MiB)
   */
  maxResourceBytes?: number;
  /**
   * Most bytes `read_text_file` scans looking for its `startLine`; past it, the call is an
   * `isError` result pointing to `tail` and `search_text`. @default 67108864 (64 MiB)
   */
  maxScanBytes?: number;
  /**
   * Time-out of each workspace tool call, in milliseconds (the tools' own `timeoutMs`, which wins
   * over the server's `toolTimeoutMs`): past it the call is an `isError` result and its signal
   * aborts. @default 30000
   */
  toolTimeoutMs?: number;
  /**
   * Most worker threads `search_text` runs at once; further searches wait in a queue.
   * @default the number of CPUs less one, between 1 and 4
   */
  searchThreads?: number;
  /**
   * Most searches waiting for a thread; past it a search is an `isError` result asking to try
   * again. @default 64
   */
  maxQueuedSearches?: number;
}

/** The root and the limits with defaults filled in, shared by every tool of one workspace. */
export interface WorkspaceContext {
  root: WorkspaceRoot;
  maxReadBytes: number;
  maxResults: number;
  searchTimeMs: number;
  maxSearchFileBytes: number;
  maxResourceBytes: number;
  maxScanBytes: number;
  toolTimeoutMs: number;
  searchThreads: number;
  maxQueuedSearches: number;
}

/** Name and version the workspace server reports (MCP 2025-11-25, `Implementation`). */
export const workspaceInfo: Implementation = { name: 'baremcp-workspace', version: '0.1.0' };

function positive(
  value: number | undefined,
  fallback: number,
  name: string,
  caller: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${caller}: ${name} must be a whole number of at least 1`);
  }
  return value;
}

/** One thread per CPU but one (kept for the server's own thread), at least 1 and at most 4. */
function defaultSearchThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** Resolves the root and fills in the default limits. */
function openWorkspace(root: string, options: WorkspaceOptions, caller: string): WorkspaceContext {
  const limit = (value: number | undefined, fallback: number, name: string): number =>
    positive(value, fallback, name, caller);
  return {
    root: openWorkspaceRoot(root),
    maxReadBytes: limit(options.maxReadBytes, 256 * 1024, 'maxReadBytes'),
    maxResults: limit(options.maxResults, 100, 'maxResults'),
    searchTimeMs: limit(options.searchTimeMs, 5000, 'searchTimeMs'),
    maxSearchFileBytes: limit(options.maxSearchFileBytes, 4 * 1024 * 1024, 'maxSearchFileBytes'),
    maxResourceBytes: limit(options.maxResourceBytes, 1024 * 1024, 'maxResourceBytes'),
    maxScanBytes: limit(options.maxScanBytes, 64 * 1024 * 1024, 'maxScanBytes'),
    toolTimeoutMs: limit(options.toolTimeoutMs, 30_000, 'toolTimeoutMs'),
    searchThreads: limit(options.searchThreads, defaultSearchThreads(), 'searchThreads'),
    maxQueuedSearches: limit(options.maxQueuedSearches, 64, 'maxQueuedSearches'),
  };
}

/**
 * Creates the workspace tools for the directory `root`: `list_directory`, `read_text_file`,
 * `search_text` and `file_info`, all read-only (`readOnlyHint: true`).
 *
 * The root is resolved with `fs.realpath` once, here; paths in later calls are confined to it.
 * @param root Directory to serve, absolute or relative to the working directory.
 * @param options Limits: `maxReadBytes` (default 262144), `maxScanBytes` (default 67108864),
 *   `maxResults` (default 100), `searchTimeMs` (default 5000), `maxSearchFileBytes` (default
 *   4194304), `toolTimeoutMs` (default 30000), `searchThreads` (default: CPUs less one, 1 to 4),
 *   `maxQueuedSearches` (default 64).
 * @throws {Error} when `root` does not exist or is not a directory.
 * @throws {RangeError} when a limit is not a whole number of at least 1.
 */
export function createWorkspaceTools(
  root: string,
  options: WorkspaceOptions = {},
): WorkspaceTool[] {
  const workspace = openWorkspace(root, options, 'createWorkspaceTools');
  return [
    listDirectoryTool(workspace),
    readTextFileTool(workspace),
    searchTextTool(workspace),
    fileInfoTool(workspace),
  ];
}

/**
 * Creates the workspace resources for the directory `root`: one template, `file:///{+path}`,
 * where `path` is relative to the root (`file:///src/index.ts`). A read returns UTF-8 files as
 * `text` and other files as a base64 `blob`, each with a `mimeType` guessed from the extension;
 * files over `maxResourceBytes` (default 1 MiB) are refused with `-32603`. Paths with `..`, NUL,
 * backslashes, absolute paths, and paths leading outside the root (also through symbolic links or
 * into a sibling folder sharing the root's name) are "not found" (`-32002`; `-32602` at
 * 2026-07-28). `completion/complete` on `path` lists the matching entries of the folder typed so
 * far (at most 100).
 *
 * Spec: MCP 2025-11-25, Server / Resources; Server / Utilities / Completion.
 * @param root Directory to serve, absolute or relative to the working directory.
 * @param options Only `maxResourceBytes` applies here.
 * @throws {Error} when `root` does not exist or is not a directory.
 * @throws {RangeError} when a limit is not a whole number of at least 1.
 */
export function createWorkspaceResources(
  root: string,
  options: WorkspaceOptions = {},
): ResourceTemplateDefinition[] {
  return [filesTemplate(openWorkspace(root, options, 'createWorkspaceResources'))];
}

/**
 * Creates the workspace prompts for the directory `root`: `review_file` (arguments `path`,
 * required, and `focus`), whose messages ask for a review and embed the file as a resource.
 * Its `path` argument completes like the resource template's. A path that is not a readable
 * file inside the root is `-32602`.
 *
 * Spec: MCP 2025-11-25, Server / Prompts; Server / Utilities / Completion.
 * @param root Directory to serve, absolute or relative to the working directory.
 * @param options Only `maxResourceBytes` applies here.
 * @throws {Error} when `root` does not exist or is not a directory.
 * @throws {RangeError} when a limit is not a whole number of at least 1.
 */
export function createWorkspacePrompts(
  root: string,
  options: WorkspaceOptions = {},
): PromptDefinition[] {
  return [reviewFilePrompt(openWorkspace(root, options, 'createWorkspacePrompts'))];
}
