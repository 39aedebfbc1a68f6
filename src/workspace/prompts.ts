/**
 * The workspace prompts: `review_file`, a review request with the file embedded as a resource.
 *
 * Spec: MCP 2025-11-25, Server / Prompts ("Getting a Prompt", "Embedded Resources", "Error
 * Handling": invalid arguments are `-32602`); Server / Utilities / Completion.
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import type { EmbeddedResource } from '../protocol/types.js';
import { toBase64 } from '../server/content.js';
import type { PromptDefinition, PromptMessageReturn } from '../server/prompt.js';
import { readWorkspaceFile } from './file-contents.js';
import { completeWorkspacePath } from './path-completer.js';
import type { WorkspaceContext } from './index.js';

/**
 * Builds `review_file` for one workspace: arguments `path` (required, relative to the root) and
 * `focus` (optional); it returns two user messages, the request and the file as an embedded
 * resource (`text`, or a base64 `blob` for a binary file).
 * `prompts/get` answers `-32602` when `path` is not a readable file inside the root, and `-32603`
 * when the file is over the size cap.
 */
export function reviewFilePrompt(workspace: WorkspaceContext): PromptDefinition {
  return {
    name: 'review_file',
    title: 'Review a file',
    description:
      'Ask for a careful review of one file of the workspace: bugs, unclear code and missing ' +
      'error handling. The file is embedded in the message.',
    arguments: [
      {
        name: 'path',
        title: 'File',
        description: 'The file to review, relative to the workspace root (such as src/index.ts).',
        required: true,
      },
      {
        name: 'focus',
        title: 'Focus',
        description: 'What to look at most closely, such as "error handling". Optional.',
      },
    ],
    complete: { path: (value) => completeWorkspacePath(workspace.root, value) },
    get: async ({ path, focus }) => {
      const file = await readWorkspaceFile(workspace.root, path ?? '', workspace.maxResourceBytes);
      if (file === undefined) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `review_file: '${path}' is not a readable file inside the workspace; give a path ` +
            'relative to the workspace root, such as README.md.',
          { argument: 'path' },
        );
      }
      const embedded: EmbeddedResource = {
        type: 'resource',
        resource:
          'text' in file
            ? { uri: file.uri, mimeType: file.mimeType, text: file.text }
            : { uri: file.uri, mimeType: file.mimeType, blob: toBase64(file.bytes) },
      };
      const focusText =
        focus === undefined || focus.trim() === '' ? '' : ` Pay particular attention to: ${focus}.`;
      const messages: PromptMessageReturn[] = [
        {
          role: 'user',
          content:
            `Please review the file ${file.path} (${file.mimeType}, ${file.size} bytes), ` +
            'embedded below. Point out bugs, unclear code and missing error handling, citing ' +
            `line numbers, and suggest concrete fixes.${focusText}`,
        },
        { role: 'user', content: embedded },
      ];
      return { description: `Review of ${file.path}`, messages };
    },
  };
}
