/**
 * `list_directory`: the entries of one folder in the workspace, with their kind and file size.
 *
 * Spec: MCP 2025-11-25, Server / Tools (`outputSchema`, `structuredContent`).
 * @module
 */
import { lstat } from 'node:fs/promises';
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult } from '../protocol/types.js';
import { checkKnownArgs, booleanArg, stringArg } from './args.js';
import { childRef, openInside, readEntries, recheck, statInside } from './open-inside.js';
import { displayPath, resolveInside } from './paths.js';
import { guard, structuredResult, ToolError } from './results.js';
import type { WorkspaceContext, WorkspaceTool } from './index.js';

/** Most entries returned for one folder; the rest are counted in `totalEntries`. */
export const MAX_DIRECTORY_ENTRIES = 1000;
/** Most entries read from one folder; past it the listing is truncated and the count stops. */
export const MAX_SCANNED_ENTRIES = 100_000;

/** The kind of a directory entry; symbolic links are reported as such, not followed. */
type EntryType = 'file' | 'directory' | 'symlink' | 'other';

const ENTRY_TYPES: EntryType[] = ['file', 'directory', 'symlink', 'other'];

const INPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'Folder to list, relative to the workspace root. Default: "." (the root).',
      default: '.',
    },
    includeHidden: {
      type: 'boolean',
      description: 'Also list entries whose name starts with "." (such as .git). Default: false.',
      default: false,
    },
  },
  additionalProperties: false,
};

const OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'The folder listed, relative to the workspace root.' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          type: { type: 'string', enum: ENTRY_TYPES },
          size: { type: 'integer', minimum: 0, description: 'Size in bytes (files only).' },
        },
        required: ['name', 'type'],
        additionalProperties: false,
      },
    },
    totalEntries: {
      type: 'integer',
      minimum: 0,
      description:
        `Entries in the folder, listed or not (counting stops at ${MAX_SCANNED_ENTRIES}; the ` +
        'first entries are then those of the part read).',
    },
    truncated: {
      type: 'boolean',
      description: `True when more than ${MAX_DIRECTORY_ENTRIES} entries.`,
    },
  },
  required: ['path', 'entries', 'totalEntries', 'truncated'],
  additionalProperties: false,
};

function entryType(entry: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  return 'other';
}

/** Builds `list_directory` for one workspace. */
export function listDirectoryTool(workspace: WorkspaceContext): WorkspaceTool {
  return {
    name: 'list_directory',
    title: 'List directory',
    description:
      'List the files and folders directly inside one folder of the workspace (not recursive). ' +
      'Each entry has a name, a type (file, directory, symlink or other) and, for files, the ' +
      'size in bytes. Entries are sorted by name; hidden entries (starting with ".") are left ' +
      `out unless includeHidden is true; at most ${MAX_DIRECTORY_ENTRIES} entries are returned. ` +
      'Paths are relative to the workspace root; use "." for the root.',
    inputSchema: INPUT_SCHEMA,
    outputSchema: OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    timeoutMs: workspace.toolTimeoutMs,
    run: (args): Promise<CallToolResult> => {
      let shown = String(args.path ?? '.');
      return guard(
        () => shown,
        async () => {
          checkKnownArgs(args, ['path', 'includeHidden']);
          const requested = stringArg(args, 'path', '.');
          const includeHidden = booleanArg(args, 'includeHidden', false);
          const target = await resolveInside(workspace.root, requested);
          shown = target.display;
          let folder;
          try {
            folder = await openInside(workspace.root, target.real, shown, 'directory');
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
            // Either the path names a file, or a segment before its end is one.
            const { info } = await statInside(workspace.root, target.real, shown);
            throw new ToolError(
              info.isFile()
                ? `'${shown}' is a file, not a folder. Use read_text_file to read it or ` +
                    'file_info to inspect it.'
                : `'${shown}' is not a folder (it may be a device, a pipe or a socket). Use ` +
                    'file_info to inspect it.',
            );
          }
          try {
            const { entries: read, complete } = await readEntries(folder, MAX_SCANNED_ENTRIES);
            const all = read
              .filter((entry) => includeHidden || !entry.name.startsWith('.'))
              .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
            const listed = all.slice(0, MAX_DIRECTORY_ENTRIES);
            const entries = await Promise.all(
              listed.map(async (entry): Promise<JsonObject> => {
                const type = entryType(entry);
                if (type !== 'file') return { name: entry.name, type };
                try {
                  const { size } = await lstat(childRef(folder, entry.name));
                  return { name: entry.name, type, size };
                } catch {
                  return { name: entry.name, type }; // removed while listing
                }
              }),
            );
            await recheck(folder); // the sizes were looked up through it
            return structuredResult({
              path: displayPath(workspace.root, folder.real),
              entries,
              totalEntries: all.length,
              truncated: all.length > listed.length || !complete,
            });
          } finally {
            await folder.handle.close();
          }
        },
      );
    },
  };
}
