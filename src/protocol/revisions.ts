/**
 * The published MCP protocol revisions and the `initialize` version negotiation.
 *
 * Spec: MCP 2025-11-25, Basic / Lifecycle ("Version Negotiation"): a server that supports the
 * requested revision echoes it, otherwise it answers the latest revision it supports.
 * @module
 */

/** Every revision that starts with the `initialize` handshake, oldest first. */
export const LEGACY_REVISIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** The newest revision that a client negotiates with `initialize`. */
export const LATEST_LEGACY_REVISION: string = '2025-11-25';

/**
 * Picks the revision to answer to an `initialize` request: the requested one when supported,
 * else the latest supported legacy revision (never an error, never the unknown one).
 */
export function negotiateRevision(requested: string): string {
  return LEGACY_REVISIONS.includes(requested) ? requested : LATEST_LEGACY_REVISION;
}

/**
 * True when `revision` is at least `since` (revisions are ISO dates, so they compare as strings).
 * Used to shape replies: e.g. `structuredContent` only `atLeast(v, '2025-06-18')`.
 */
export function atLeast(revision: string, since: string): boolean {
  return revision >= since;
}

/** Revisions served statelessly, with per-request `_meta` and no handshake (MCP 2026-07-28, SEP-2575). */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/** The latest published revision. */
export const LATEST_REVISION: string = '2026-07-28';

/** Every revision this server speaks, newest first (the `supported` list of `-32022`). */
export const SUPPORTED_REVISIONS: readonly string[] = [...MODERN_REVISIONS, ...LEGACY_REVISIONS].sort().reverse();
