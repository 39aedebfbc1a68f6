/**
 * A guess of a file's media type from its extension, for the `mimeType` of workspace resources.
 * The table is short on purpose: common source, text, image, audio and archive types. Whether a
 * file is sent as `text` or `blob` is decided from its bytes, not from this guess.
 *
 * Spec: RFC 6838 (media type names); IANA media types registry; MCP 2025-11-25, Server /
 * Resources (`mimeType` on `Resource` and `ResourceContents`).
 * @module
 */

/** Extension (lower case, without the dot) to media type. */
const BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['txt', 'text/plain'],
  ['log', 'text/plain'],
  ['md', 'text/markdown'],
  ['markdown', 'text/markdown'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['css', 'text/css'],
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
  ['js', 'text/javascript'],
  ['mjs', 'text/javascript'],
  ['cjs', 'text/javascript'],
  ['jsx', 'text/javascript'],
  ['ts', 'text/x-typescript'],
  ['mts', 'text/x-typescript'],
  ['cts', 'text/x-typescript'],
  ['tsx', 'text/x-typescript'],
  ['py', 'text/x-python'],
  ['rs', 'text/x-rust'],
  ['go', 'text/x-go'],
  ['java', 'text/x-java'],
  ['c', 'text/x-c'],
  ['h', 'text/x-c'],
  ['cpp', 'text/x-c++'],
  ['hpp', 'text/x-c++'],
  ['rb', 'text/x-ruby'],
  ['sh', 'text/x-shellscript'],
  ['json', 'application/json'],
  ['jsonl', 'application/jsonl'],
  ['xml', 'application/xml'],
  ['yaml', 'application/yaml'],
  ['yml', 'application/yaml'],
  ['toml', 'application/toml'],
  ['svg', 'image/svg+xml'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['ico', 'image/vnd.microsoft.icon'],
  ['mp3', 'audio/mpeg'],
  ['wav', 'audio/wav'],
  ['ogg', 'audio/ogg'],
  ['mp4', 'video/mp4'],
  ['pdf', 'application/pdf'],
  ['zip', 'application/zip'],
  ['gz', 'application/gzip'],
  ['tar', 'application/x-tar'],
  ['wasm', 'application/wasm'],
]);

/** True for media types whose content is text (so a file that is not UTF-8 contradicts it). */
function isTextual(type: string): boolean {
  return (
    type.startsWith('text/') ||
    type === 'image/svg+xml' ||
    /^application\/(json|jsonl|xml|yaml|toml)$/.test(type)
  );
}

/**
 * Guesses the media type of the file `name` (a path or a base name) from its extension.
 * @param isText whether the bytes are UTF-8 text. Unknown extensions give `text/plain` for text and
 *   `application/octet-stream` otherwise; a textual type (such as `.txt`) on bytes that are not
 *   text also gives `application/octet-stream`.
 * @example
 * guessMimeType('src/index.ts', true); // 'text/x-typescript'
 * guessMimeType('logo.png', false);    // 'image/png'
 */
export function guessMimeType(name: string, isText: boolean): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const known = dot > 0 ? BY_EXTENSION.get(base.slice(dot + 1).toLowerCase()) : undefined;
  if (known === undefined) return isText ? 'text/plain' : 'application/octet-stream';
  if (!isText && isTextual(known)) return 'application/octet-stream';
  return known;
}
