/**
 * Per-revision wire shaping shared by resources, prompts and completion: fields a revision lacks
 * are left out, and content types a revision lacks are degraded to text. (Result fields of
 * 2026-07-28 are added in one place, `result.ts`.)
 *
 * Spec: MCP schema.ts of 2024-11-05, 2025-03-26 (`AudioContent`, `Annotations`), 2025-06-18
 * (`title`, `_meta`, `ResourceLink`, `Annotations.lastModified`), 2025-11-25 (`icons`).
 * @module
 */
import type { JsonObject, JsonValue } from '../protocol/messages.js';
import { atLeast } from '../protocol/revisions.js';
import type { ContentBlock, ResourceContents } from '../protocol/types.js';

/** Fields of a wire object and the revision that introduced each. */
export type FieldsSince = ReadonlyArray<readonly [field: string, since: string]>;

const ANNOTATIONS_SINCE: FieldsSince = [
  ['audience', '2024-11-05'],
  ['priority', '2024-11-05'],
  ['lastModified', '2025-06-18'],
];

const LINK_SINCE: FieldsSince = [
  ['title', '2025-06-18'],
  ['description', '2025-06-18'],
  ['mimeType', '2025-06-18'],
  ['size', '2025-06-18'],
  ['icons', '2025-11-25'],
  ['annotations', '2025-06-18'],
  ['_meta', '2025-06-18'],
];

/**
 * Copies into `target` each field of `source` listed in `fields` that is defined and that
 * `revision` has; `annotations` are shaped with {@link wireAnnotations}. Returns `target`.
 */
export function copyFields(
  target: JsonObject,
  source: object,
  fields: FieldsSince,
  revision: string,
): JsonObject {
  const from = source as { [key: string]: JsonValue | undefined };
  for (const [field, since] of fields) {
    const value = from[field];
    if (value === undefined || !atLeast(revision, since)) continue;
    if (field === 'annotations') {
      const annotations = wireAnnotations(value, revision);
      if (annotations !== undefined) target.annotations = annotations;
    } else {
      target[field] = value;
    }
  }
  return target;
}

/**
 * `Annotations` without the fields `revision` lacks (`lastModified` before 2025-06-18);
 * undefined when nothing is left.
 */
export function wireAnnotations(annotations: JsonValue, revision: string): JsonObject | undefined {
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations))
    return undefined;
  const out = copyFields({}, annotations, ANNOTATIONS_SINCE, revision);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `TextResourceContents` / `BlobResourceContents` for `revision` (`_meta` from 2025-06-18). */
export function wireResourceContents(contents: ResourceContents, revision: string): JsonObject {
  const out: JsonObject = { uri: contents.uri };
  if (contents.mimeType !== undefined) out.mimeType = contents.mimeType;
  if ('text' in contents) out.text = contents.text;
  else out.blob = contents.blob;
  if (contents._meta !== undefined && atLeast(revision, '2025-06-18')) out._meta = contents._meta;
  return out;
}

/** Shared tail of every content block: `annotations`, and `_meta` from 2025-06-18. */
function withCommon(out: JsonObject, block: ContentBlock, revision: string): JsonObject {
  return copyFields(
    out,
    block,
    [
      ['annotations', '2024-11-05'],
      ['_meta', '2025-06-18'],
    ],
    revision,
  );
}

/**
 * One content block as `revision` knows it. Degrades, rather than drops, what it lacks:
 * `audio` before 2025-03-26 and `resource_link` before 2025-06-18 become a text block that says
 * what was there (a link names its URI, so the client can still read it).
 */
export function wireContent(block: ContentBlock, revision: string): JsonObject {
  switch (block.type) {
    case 'text':
      return withCommon({ type: 'text', text: block.text }, block, revision);
    case 'image':
      return withCommon(
        { type: 'image', data: block.data, mimeType: block.mimeType },
        block,
        revision,
      );
    case 'audio':
      if (!atLeast(revision, '2025-03-26')) {
        return withCommon(
          {
            type: 'text',
            text: `[audio content (${block.mimeType}) left out: protocol revision ${revision} has no audio]`,
          },
          block,
          revision,
        );
      }
      return withCommon(
        { type: 'audio', data: block.data, mimeType: block.mimeType },
        block,
        revision,
      );
    case 'resource_link': {
      if (!atLeast(revision, '2025-06-18')) {
        const label = block.title ?? block.name;
        const about = block.description === undefined ? '' : `: ${block.description}`;
        return withCommon(
          { type: 'text', text: `Resource "${label}" at ${block.uri}${about}` },
          block,
          revision,
        );
      }
      return copyFields(
        { type: 'resource_link', uri: block.uri, name: block.name },
        block,
        LINK_SINCE,
        revision,
      );
    }
    case 'resource':
      return withCommon(
        { type: 'resource', resource: wireResourceContents(block.resource, revision) },
        block,
        revision,
      );
  }
}
