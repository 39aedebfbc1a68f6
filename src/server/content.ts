/**
 * Builders for every content block, for tool results and prompt messages, plus `json()` for tools
 * with an `outputSchema`. Blocks are built in the newest form; the server shapes them for the
 * client's revision when it sends them (see `wireContent`).
 *
 * Spec: MCP 2025-11-25 schema.ts (`TextContent`, `ImageContent`, `AudioContent`, `ResourceLink`,
 * `EmbeddedResource`, `Annotations`); Server / Tools ("Structured Content": a tool that returns
 * structured content SHOULD also return it serialized as a text block).
 * @module
 */
import { isObject, type JsonObject } from '../protocol/messages.js';
import { isOneOf, notOneOf } from '../protocol/names.js';
import type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from '../protocol/types.js';

/** Optional fields every content block may carry. */
export interface ContentOptions {
  /** Audience, priority and last-modified hints for the client. */
  annotations?: Annotations;
  /** Implementation metadata (sent from protocol revision 2025-06-18 on). */
  _meta?: JsonObject;
}

/** Every content block `type` (MCP 2025-11-25 schema.ts, `ContentBlock`), in the spec's order. */
export const CONTENT_TYPES: readonly ContentBlock['type'][] = ['text', 'image', 'audio', 'resource_link', 'resource'];

/**
 * Why `block` is not a content block a client can read, or undefined when its `type` is one of
 * {@link CONTENT_TYPES}: `unknown content type "txt" (choose from text, image, …)`. Only the
 * `type` is checked (an unknown type makes a client refuse the whole result).
 */
export function contentBlockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return `not a content block (an object with a "type": ${CONTENT_TYPES.join(', ')})`;
  return isOneOf(block.type, CONTENT_TYPES) ? undefined : notOneOf('content type', block.type, CONTENT_TYPES);
}

/** The first problem {@link contentBlockProblem} finds in `content`, as `content[i]: …`. */
export function contentProblem(content: readonly unknown[]): string | undefined {
  for (let i = 0; i < content.length; i++) {
    const problem = contentBlockProblem(content[i]);
    if (problem !== undefined) return `content[${i}]: ${problem}`;
  }
  return undefined;
}

/** Binary data: a base64 string (sent as is) or raw bytes (encoded here). */
export type BinaryData = string | Uint8Array;

/**
 * Encodes bytes as standard base64 (RFC 4648 §4, with padding), without Node's `Buffer`.
 * @example toBase64(new TextEncoder().encode('hi')); // 'aGk='
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

function base64(data: BinaryData, what: string): string {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return toBase64(data);
  throw new TypeError(`${what}: data must be a base64 string or a Uint8Array`);
}

function withOptions<T extends object>(block: T, options: ContentOptions | undefined): T {
  if (options?.annotations !== undefined)
    (block as ContentOptions).annotations = options.annotations;
  if (options?._meta !== undefined) (block as ContentOptions)._meta = options._meta;
  return block;
}

/**
 * A text block.
 * @example text('Done.', { annotations: { audience: ['user'] } })
 */
export function text(value: string, options?: ContentOptions): TextContent {
  return withOptions({ type: 'text', text: String(value) }, options);
}

/**
 * An image block. `data` is base64 or raw bytes; `mimeType` such as `image/png`.
 * @throws {TypeError} when `data` is neither a string nor a Uint8Array.
 */
export function image(data: BinaryData, mimeType: string, options?: ContentOptions): ImageContent {
  return withOptions({ type: 'image', data: base64(data, 'image'), mimeType }, options);
}

/**
 * An audio block (protocol revision 2025-03-26 on; older clients get a text block saying it was
 * left out). `data` is base64 or raw bytes; `mimeType` such as `audio/wav`.
 * @throws {TypeError} when `data` is neither a string nor a Uint8Array.
 */
export function audio(data: BinaryData, mimeType: string, options?: ContentOptions): AudioContent {
  return withOptions({ type: 'audio', data: base64(data, 'audio'), mimeType }, options);
}

/**
 * A link to a resource the client may read with `resources/read` (protocol revision 2025-06-18
 * on; older clients get a text block naming the URI).
 * @example resourceLink({ uri: 'file:///README.md', name: 'README.md', mimeType: 'text/markdown' })
 */
export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  if (typeof link?.uri !== 'string' || typeof link.name !== 'string') {
    throw new TypeError('resourceLink: uri and name must be strings');
  }
  return { type: 'resource_link', ...link };
}

/**
 * A resource embedded in the result: its URI with its text or base64 `blob`.
 * @example embeddedResource({ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' })
 */
export function embeddedResource(
  contents: ResourceContents,
  options?: ContentOptions,
): EmbeddedResource {
  if (typeof contents?.uri !== 'string' || !('text' in contents || 'blob' in contents)) {
    throw new TypeError('embeddedResource: contents must be { uri, text } or { uri, blob }');
  }
  return withOptions({ type: 'resource', resource: contents }, options);
}

/**
 * A tool result carrying `value` as `structuredContent` plus the same JSON in a text block, for
 * tools with an `outputSchema` (clients before 2025-06-18 read the text).
 * @throws {TypeError} when `value` is not a plain JSON object (`structuredContent` is an object).
 * @example return json({ files: 3, bytes: 1024 });
 */
export function json(
  value: JsonObject,
  options?: ContentOptions,
): CallToolResult & { structuredContent: JsonObject } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('json: value must be a JSON object (structuredContent is an object)');
  }
  return { content: [text(JSON.stringify(value), options)], structuredContent: value };
}
