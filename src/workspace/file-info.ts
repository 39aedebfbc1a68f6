/**
 * `file_info`: kind, size, times and permissions of one path in the workspace.
 *
 * Spec: MCP 2025-11-25, Server / Tools (`outputSchema`, `structuredContent`).
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { CallToolResult } from '../protocol/types.js';
import { checkKnownArgs, stringArg } from './args.js';
import { statInside } from './open-inside.js';
import { displayPath, resolveInside } from './paths.js';
import { guard, structuredResult } from './results.js';
import type { WorkspaceContext, WorkspaceTool } from './index.js';

const INPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File or folder, relative to the workspace root.' },
  },
  required: ['path'],
  additionalProperties: false,
};

const OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'The path with symbolic links resolved, relative to the root.',
    },
    type: { type: 'string', enum: ['file', 'directory', 'other'] },
    size: { type: 'integer', minimum: 0, description: 'Size in bytes.' },
    modified: {
      type: 'string',
      format: 'date-time',
      description: 'Last modification (ISO 8601, UTC).',
    },
    created: {
      type: 'string',
      format: 'date-time',
      description: 'Creation, where the file system records it.',
    },
    permissions: { type: 'string', description: 'POSIX mode bits in octal, such as "644".' },
  },
  required: ['path', 'type', 'size', 'modified', 'permissions'],
  additionalProperties: false,
};

/** Builds `file_info` for one workspace. */
export function fileInfoTool(workspace: WorkspaceContext): WorkspaceTool {
  return {
    name: 'file_info',
    title: 'File info',
    description:
      'Get facts about one file or folder in the workspace without reading it: its type (file, ' +
      'directory or other), size in bytes, last modification time, creation time where the file ' +
      'system records it, and permissions as octal mode bits. Symbolic links are followed ' +
      '(inside the workspace only) and the resolved path is returned. Paths are relative to the ' +
      'workspace root.',
    inputSchema: INPUT_SCHEMA,
    outputSchema: OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    timeoutMs: workspace.toolTimeoutMs,
    run: (args): Promise<CallToolResult> => {
      let shown = String(args.path ?? '');
      return guard(
        () => shown,
        async () => {
          checkKnownArgs(args, ['path']);
          const target = await resolveInside(workspace.root, stringArg(args, 'path'));
          shown = target.display;
          const { info, real } = await statInside(workspace.root, target.real, shown);
          const structured: JsonObject = {
            path: displayPath(workspace.root, real),
            type: info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other',
            size: info.size,
            modified: info.mtime.toISOString(),
          };
          // Linux reports 0 (the epoch) when the file system has no birth time.
          if (info.birthtimeMs > 0) structured.created = info.birthtime.toISOString();
          structured.permissions = (info.mode & 0o7777).toString(8).padStart(3, '0');
          return structuredResult(structured);
        },
      );
    },
  };
}
