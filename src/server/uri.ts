/**
 * Resource URI checks: the RFC 3986 shape of an absolute URI, and a guard for template values
 * that name files under a root (no path traversal).
 *
 * Spec: RFC 3986 §2 (characters), §3 (syntax: `scheme ":" hier-part ["?" query] ["#" fragment]`),
 * §3.3 (dot-segments); MCP 2025-11-25, Server / Resources ("Security Considerations": servers MUST
 * validate all resource URIs); MCP 2026-07-28, same section (sanitize file paths).
 * @module
 */

/** `scheme ":"` then only unreserved, reserved and `%XX` (RFC 3986 §2.1–2.3, §3.1). */
const URI_SHAPE =
  /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/**
 * True when `value` has the shape of an absolute URI (RFC 3986 §3): a scheme, a colon, and
 * only characters a URI may hold, with every `%` starting a two-hex-digit escape and at most
 * one `#`. Spaces, control characters, non-ASCII characters, `\`, `{`, `}`, `<`, `>`, `"`, `|`,
 * `^` and `` ` `` must be percent-encoded. No network or file access.
 * @example
 * isUri('file:///project/src/main.rs'); // true
 * isUri('file:///my file.txt');         // false: encode the space as %20
 */
export function isUri(value: unknown): value is string {
  if (typeof value !== 'string' || !URI_SHAPE.test(value)) return false;
  const hash = value.indexOf('#');
  return hash === -1 || value.indexOf('#', hash + 1) === -1;
}

/** Decodes `%XX` escapes until none is left (or one is malformed); every stage is returned. */
function decodingStages(value: string): string[] | undefined {
  const stages = [value];
  let current = value;
  for (let round = 0; round < 4 && /%[0-9A-Fa-f]{2}/.test(current); round++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    stages.push(current);
  }
  return /%[0-9A-Fa-f]{2}/.test(current) ? undefined : stages;
}

/** True when one stage of the value could step outside the root once used as a path. */
function escapes(stage: string): boolean {
  if (/[\u0000-\u001f\u007f\\]/.test(stage)) return true;
  if (stage.startsWith('/') || /^[A-Za-z]:/.test(stage)) return true;
  return stage.split('/').some((segment) => segment === '..');
}

/**
 * Checks a template value that names a file below a root (such as `path` from `file:///{+path}`)
 * and returns it as a clean relative path: segments joined by `/`, with empty and `.` segments
 * removed. Returns undefined, so that the caller answers "not found", when the value or any
 * percent-decoding of it (repeated, against double encoding):
 * - has a `..` segment,
 * - has a NUL or other control character, or a backslash,
 * - is absolute (`/etc`) or starts with a drive letter (`C:`),
 * - has a malformed `%` escape or is empty after cleaning.
 *
 * Pure string work: the caller still joins it to its root and, where links matter, checks the
 * real path stays inside (a symbolic link can point anywhere).
 * @example
 * safeRelativePath('src/main.rs');   // 'src/main.rs'
 * safeRelativePath('src/../../etc'); // undefined
 * safeRelativePath('%2e%2e/secret'); // undefined
 */
export function safeRelativePath(value: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const stages = decodingStages(value);
  if (stages === undefined || stages.some(escapes)) return undefined;
  const clean = value
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
  return clean === '' ? undefined : clean;
}
