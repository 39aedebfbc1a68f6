/**
 * Turns what a resource's `read` returned into the `contents` of a `ReadResourceResult`: fills in
 * `uri` and `mimeType`, encodes bytes as base64, and refuses malformed items.
 *
 * Spec: MCP 2025-11-25, Server / Resources ("Reading Resources", "Resource Contents": text or
 * base64 `blob`); MCP 2026-07-28, Server / Resources (several contents per read; never an empty
 * `contents`); RFC 4648 §4 (base64).
 * @module
 */
import { isObject, type JsonObject } from '../protocol/messages.js';
import type { ResourceContents } from '../protocol/types.js';
import { toBase64 } from './content.js';
import type { ResourceReturn } from './resource.js';
import { isUri } from './uri.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The contents of one read, and the result `_meta` when `read` returned `{ contents, _meta }`. */
export interface ReadContents {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

/** One returned item as `ResourceContents`; a plain Error (a server bug) when malformed. */
function toContents(item: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  const fault = (why: string): Error => new Error(`resource ${uri}: read returned ${why}`);
  if (typeof item === 'string') {
    return mimeType === undefined ? { uri, text: item } : { uri, mimeType, text: item };
  }
  if (item instanceof Uint8Array) return toContents({ blob: item }, uri, mimeType);
  if (!isObject(item)) throw fault(`${item === null ? 'null' : typeof item} among its contents`);
  if (item.uri !== undefined && !isUri(item.uri)) {
    throw fault(`contents with uri ${JSON.stringify(item.uri)}, which is not a URI (RFC 3986)`);
  }
  const hasText = typeof item.text === 'string';
  if (hasText === (item.blob !== undefined)) {
    throw fault('contents without exactly one of text (a string) or blob (base64 or bytes)');
  }
  const out = { uri: item.uri ?? uri } as ResourceContents;
  const type = typeof item.mimeType === 'string' ? item.mimeType : mimeType;
  if (type !== undefined) out.mimeType = type;
  if (hasText) {
    (out as { text: string }).text = item.text as string;
  } else {
    const blob = item.blob instanceof Uint8Array ? toBase64(item.blob) : item.blob;
    if (typeof blob !== 'string' || !BASE64.test(blob)) {
      throw fault('a blob that is neither standard base64 (RFC 4648 §4) nor a Uint8Array');
    }
    (out as { blob: string }).blob = blob;
  }
  if (isObject(item._meta)) out._meta = item._meta as JsonObject;
  return out;
}

/**
 * Normalizes a `read` return value (see `ResourceReturn`) for the resource at `uri`.
 * @param mimeType the definition's `mimeType`, used for items that give none.
 * @returns undefined for "not found": `undefined`, `null`, or no contents at all.
 * @throws {Error} for an item without exactly one of `text`/`blob`, a blob that is not base64,
 *   or an item `uri` that is not a URI.
 */
export function readContents(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadContents | undefined {
  if (value === undefined || value === null) return undefined;
  let items: unknown[];
  let meta: unknown;
  if (Array.isArray(value)) {
    items = value;
  } else if (isObject(value) && 'contents' in value && Array.isArray(value.contents)) {
    items = value.contents;
    meta = value._meta;
  } else {
    items = [value];
  }
  if (items.length === 0) return undefined;
  const contents = items.map((item) => toContents(item, uri, mimeType));
  return isObject(meta) ? { contents, _meta: meta as JsonObject } : { contents };
}
