/**
 * The MCP data shapes the server produces and reads: implementation info, content blocks,
 * tools and tool results. Field names are the spec's.
 *
 * Spec: MCP 2025-11-25 schema.ts (`Implementation`, `ContentBlock`, `Tool`, `CallToolResult`).
 * @module
 */
import type { JsonObject, JsonValue } from './messages.js';

/** An icon for a server, tool, resource or prompt (MCP 2025-11-25, `Icon`). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Name and version of a server or client (MCP 2025-11-25, `Implementation`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** Audience, priority and modification time hints on content (MCP 2025-11-25, `Annotations`). */
export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** Plain text content. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** Base64 image content. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** Base64 audio content (from 2025-03-26). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A resource as `resources/list` lists it (MCP 2025-11-25, `Resource`). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A resource template as `resources/templates/list` lists it (MCP 2025-11-25, `ResourceTemplate`). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A link to a resource the client may read (from 2025-06-18): a `Resource` with its type. */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** The contents of a resource, as text or base64 blob. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

/** A resource embedded in a result. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** Any content block (MCP 2025-11-25, `ContentBlock`). */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * The result of `tools/call` (MCP 2025-11-25, Server / Tools, `CallToolResult`). From 2026-07-28
 * `structuredContent` may be any JSON value; before, the server sends a value that is not an
 * object as `{ result: value }` (see `outputSchema`).
 */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonValue;
  isError?: boolean;
  _meta?: JsonObject;
}

/** Behaviour hints for a tool (MCP 2025-11-25, `ToolAnnotations`). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A JSON Schema literal as written by hand. Kept as a plain JSON object so that it is served
 * exactly as written; the validator reads it as data.
 */
export type JsonSchema = { [keyword: string]: JsonValue } | boolean;

/** A tool as it appears on the wire in `tools/list` (MCP 2025-11-25, `Tool`). */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}
