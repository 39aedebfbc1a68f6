/**
 * URI reference resolution for `$id` and `$ref`: pure string work, nothing is ever fetched.
 *
 * Spec: RFC 3986 §5.2 (relative resolution, dot-segment removal), Appendix B (the split regex);
 * JSON Schema 2020-12 Core §8.2 (base URI), §8.2.1 (`$id`).
 * @module
 */

const SPLIT = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

interface UriParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

function split(uri: string): UriParts {
  const m = SPLIT.exec(uri) as RegExpExecArray;
  return { scheme: m[1], authority: m[2], path: m[3], query: m[4], fragment: m[5] };
}

function removeDotSegments(path: string): string {
  if (path.indexOf('.') === -1) return path;
  const input = path.split('/');
  const out: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const seg = input[i];
    const last = i === input.length - 1;
    if (seg === '.') {
      if (last) out.push('');
    } else if (seg === '..') {
      if (out.length > 1 || (out.length === 1 && out[0] !== '')) out.pop();
      if (last) out.push('');
    } else {
      out.push(seg);
    }
  }
  return out.join('/');
}

function join(p: UriParts): string {
  let out = '';
  if (p.scheme !== undefined) out += p.scheme + ':';
  if (p.authority !== undefined) out += '//' + p.authority;
  out += p.path;
  if (p.query !== undefined) out += '?' + p.query;
  if (p.fragment !== undefined) out += '#' + p.fragment;
  return out;
}

/**
 * Resolves `reference` against the absolute URI `base` (RFC 3986 §5.2.2) and returns the
 * target URI, fragment included. Works for any scheme, including `urn:` and `file:`.
 */
export function resolveUri(reference: string, base: string): string {
  const r = split(reference);
  if (r.scheme !== undefined) return join({ ...r, path: removeDotSegments(r.path) });
  const b = split(base);
  const t: UriParts = { ...r, scheme: b.scheme };
  if (r.authority !== undefined) {
    t.path = removeDotSegments(r.path);
  } else {
    t.authority = b.authority;
    if (r.path === '') {
      t.path = b.path;
      t.query = r.query !== undefined ? r.query : b.query;
    } else if (r.path[0] === '/') {
      t.path = removeDotSegments(r.path);
    } else {
      const merged =
        b.authority !== undefined && b.path === ''
          ? '/' + r.path
          : b.path.slice(0, b.path.lastIndexOf('/') + 1) + r.path;
      t.path = removeDotSegments(merged);
    }
  }
  return join(t);
}

/** Splits a URI at its first `#` into the URI without fragment and the fragment (`''` if none). */
export function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf('#');
  return hash === -1 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash + 1)];
}
