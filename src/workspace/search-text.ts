/**
 * `search_text`: find lines matching a literal string or a regular expression in the workspace.
 * The search runs on a bounded pool of worker threads with a bounded queue (search-pool.ts,
 * search-worker.ts), bounded in matches and in time, and stopped at once when the request is
 * cancelled.
 *
 * Spec: MCP 2025-11-25, Server / Tools (`outputSchema`, `structuredContent`); Basic / Utilities /
 * Cancellation.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult } from '../protocol/types.js';
import { booleanArg, checkKnownArgs, positiveIntegerArg, stringArg } from './args.js';
import { statInside } from './open-inside.js';
import { resolveInside } from './paths.js';
import { CANCELLED, errorResult, guard, structuredResult, ToolError } from './results.js';
import { SearchPool } from './search-pool.js';
import type { SearchJob } from './search-worker.js';
import type { WorkspaceContext, WorkspaceTool } from './index.js';

const WORKER_URL = new URL('./search-worker.js', import.meta.url);
const ARG_NAMES = ['query', 'regex', 'path', 'caseSensitive', 'maxResults'];

function inputSchema(maxResults: number): JsonObject {
  return {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        description: 'Text to find, or a regular expression when regex is true.',
      },
      regex: {
        type: 'boolean',
        description: 'Treat query as a JavaScript regular expression. Default: false.',
        default: false,
      },
      path: {
        type: 'string',
        description: 'Folder or file to search, relative to the workspace root. Default: ".".',
        default: '.',
      },
      caseSensitive: {
        type: 'boolean',
        description: 'Match upper and lower case exactly. Default: false.',
        default: false,
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        description: `Most matching lines to return (at most ${maxResults}).`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

const OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'The folder or file searched, relative to the root.' },
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          line: { type: 'integer', minimum: 1 },
          column: { type: 'integer', minimum: 1 },
          text: { type: 'string', description: 'The line, or an excerpt around the match.' },
        },
        required: ['path', 'line', 'column', 'text'],
        additionalProperties: false,
      },
    },
    truncated: { type: 'boolean', description: 'True when the search stopped before the end.' },
    truncatedReason: { type: 'string', enum: ['maxResults', 'timeLimit'] },
    filesSearched: { type: 'integer', minimum: 0 },
    filesSkipped: { type: 'integer', minimum: 0, description: 'Binary, too large or unreadable.' },
  },
  required: ['path', 'matches', 'truncated', 'filesSearched', 'filesSkipped'],
  additionalProperties: false,
};

/** Escapes every character that has a meaning in a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Builds `search_text` for one workspace. */
export function searchTextTool(workspace: WorkspaceContext): WorkspaceTool {
  const pool = new SearchPool({
    workerUrl: WORKER_URL,
    threads: workspace.searchThreads,
    maxQueued: workspace.maxQueuedSearches,
    // A backstop (one file at a time is in memory): room for the file's bytes and text many
    // times over, since one allocation far beyond the limit would end the whole process.
    heapMb: Math.max(64, Math.ceil((workspace.maxSearchFileBytes * 16) / 2 ** 20)),
  });
  return {
    name: 'search_text',
    title: 'Search text',
    description:
      'Find the lines that contain a text (or match a JavaScript regular expression when ' +
      'regex is true) in every text file under a folder of the workspace, or in one file. ' +
      'Returns each matching line with its path, 1-based line and column. Case-insensitive ' +
      `unless caseSensitive is true. At most ${workspace.maxResults} matches and about ` +
      `${workspace.searchTimeMs} ms per call: when truncated is true, narrow the path or the ` +
      `query. Binary files, files over ${workspace.maxSearchFileBytes} bytes, symbolic links ` +
      'and the folders .git and node_modules (unless named in path) are skipped.',
    inputSchema: inputSchema(workspace.maxResults),
    outputSchema: OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    timeoutMs: workspace.toolTimeoutMs,
    run: (args, ctx): Promise<CallToolResult> => {
      let shown = String(args.path ?? '.');
      return guard(
        () => shown,
        async () => {
          checkKnownArgs(args, ARG_NAMES);
          const query = stringArg(args, 'query');
          if (query === '') throw new ToolError('The query is empty; give the text to search for.');
          const isRegex = booleanArg(args, 'regex', false);
          const caseSensitive = booleanArg(args, 'caseSensitive', false);
          const limit = Math.min(
            positiveIntegerArg(args, 'maxResults') ?? workspace.maxResults,
            workspace.maxResults,
          );
          const flags = caseSensitive ? '' : 'i';
          const source = isRegex ? query : escapeRegExp(query);
          try {
            new RegExp(source, flags);
          } catch (error) {
            throw new ToolError(
              `${(error as Error).message}. Fix the pattern, or set regex to false to search ` +
                'for the text literally.',
            );
          }
          const target = await resolveInside(workspace.root, stringArg(args, 'path', '.'));
          shown = target.display;
          // A clear "does not exist" before the search waits for a worker.
          await statInside(workspace.root, target.real, shown);
          if (ctx?.signal?.aborted) return errorResult(CANCELLED);
          const job: SearchJob = {
            root: { real: workspace.root.real, byDescriptor: workspace.root.byDescriptor },
            start: target.real,
            source,
            flags,
            limit: limit + 1, // one more than shown tells whether there were more
            maxFileBytes: workspace.maxSearchFileBytes,
            timeMs: workspace.searchTimeMs,
            counters: new SharedArrayBuffer(8),
          };
          const outcome = await pool.run(job, ctx?.signal);
          if (outcome.stoppedBy === 'cancelled') return errorResult(CANCELLED);
          const more = outcome.matches.length > limit;
          const structured: JsonObject = {
            path: shown,
            matches: outcome.matches.slice(0, limit),
            truncated: more || outcome.stoppedBy === 'time',
          };
          if (more) structured.truncatedReason = 'maxResults';
          else if (outcome.stoppedBy === 'time') structured.truncatedReason = 'timeLimit';
          structured.filesSearched = outcome.filesSearched;
          structured.filesSkipped = outcome.filesSkipped;
          return structuredResult(structured);
        },
      );
    },
  };
}
