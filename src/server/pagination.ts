/**
 * Cursor pagination for list methods: opaque cursors that encode an offset.
 *
 * Spec: MCP 2025-11-25, Server / Utilities / Pagination (an invalid cursor is `-32602`).
 * @module
 */
import { ErrorCode, RpcError } from '../protocol/errors.js';
import type { JsonObject, JsonValue } from '../protocol/messages.js';

const PREFIX = 'bmcp1:';

/** Encodes an offset as an opaque cursor string. */
export function encodeCursor(offset: number): string {
  return btoa(PREFIX + offset);
}

/**
 * Decodes a cursor from `params.cursor`; `undefined` means the first page.
 * @throws {RpcError} `-32602` when the cursor was not made by this server.
 */
export function decodeCursor(cursor: JsonValue | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor === 'string') {
    let text = '';
    try {
      text = atob(cursor);
    } catch {
      text = '';
    }
    if (text.startsWith(PREFIX)) {
      const offset = Number(text.slice(PREFIX.length));
      if (Number.isSafeInteger(offset) && offset >= 0) return offset;
    }
  }
  throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of a previous page');
}

/**
 * Returns one page of `items` as `{ [key]: page, nextCursor? }`.
 * @param pageSize items per page, at least 1.
 */
export function paginate<T extends JsonValue>(
  key: string,
  items: readonly T[],
  params: JsonObject | undefined,
  pageSize: number,
): JsonObject {
  const offset = decodeCursor(params?.cursor);
  const end = offset + pageSize;
  const result: JsonObject = { [key]: items.slice(offset, end) };
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return result;
}
