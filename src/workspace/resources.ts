/**
 * The workspace's files as resources: one template, `file:///{+path}`, whose `path` is relative
 * to the root. Text files are read as `text`, other files as a base64 `blob`, each with a guessed
 * `mimeType`; paths are confined to the root (file-contents.ts) and complete to the entries of
 * the folder typed so far (path-completer.ts).
 *
 * Spec: MCP 2025-11-25, Server / Resources ("Resource Templates", "Reading Resources",
 * "Security Considerations"); Server / Utilities / Completion; RFC 6570 §3.2.3 (`{+path}`).
 * @module
 */
import type { ResourceTemplateDefinition } from '../server/resource.js';
import { readWorkspaceFile } from './file-contents.js';
import { completeWorkspacePath } from './path-completer.js';
import type { WorkspaceContext } from './index.js';

/** The URI template of the workspace files. */
export const FILES_TEMPLATE = 'file:///{+path}';

/** Builds the `file:///{+path}` template for one workspace. */
export function filesTemplate(workspace: WorkspaceContext): ResourceTemplateDefinition {
  const maxBytes = workspace.maxResourceBytes;
  return {
    uriTemplate: FILES_TEMPLATE,
    name: 'workspace-files',
    title: 'Workspace files',
    description:
      'Any file in the workspace, by its path relative to the workspace root (such as ' +
      `file:///src/index.ts). Text files come as text, others as base64; files over ${maxBytes} ` +
      'bytes are refused. Paths outside the root are not found.',
    read: async ({ path }) => {
      const file = await readWorkspaceFile(workspace.root, path ?? '', maxBytes);
      if (file === undefined) return undefined; // the registry answers "resource not found"
      return 'text' in file
        ? { mimeType: file.mimeType, text: file.text }
        : { mimeType: file.mimeType, blob: file.bytes };
    },
    complete: { path: (value) => completeWorkspacePath(workspace.root, value) },
  };
}
