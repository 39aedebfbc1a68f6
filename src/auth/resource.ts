/**
 * This server's identity as an OAuth protected resource: its canonical URI (the `resource` of
 * its metadata and the audience its tokens must name) and where its Protected Resource Metadata
 * lives (the well-known suffix inserted before the resource's path).
 *
 * Spec: RFC 8707 §2 (an absolute URI without a fragment); MCP 2026-07-28, Basic / Authorization
 * ("Canonical Server URI": lower-case scheme and host, no trailing slash); RFC 9728 §3.1
 * (`/.well-known/oauth-protected-resource` inserted between host and path), §3.3 (`resource`
 * identical to the identifier the URL was built from).
 * @module
 */

/** The well-known suffix of Protected Resource Metadata (RFC 9728 §3). */
export const PRM_SUFFIX = '/.well-known/oauth-protected-resource';

/**
 * The canonical form of a resource URI: lower-case scheme and host (as `URL` gives them), no
 * default port, no trailing slash on an empty path.
 * @throws {TypeError} for a string that is not an absolute http(s) URI, or one with a fragment
 *   or credentials.
 */
export function canonicalResource(uri: string, where: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new TypeError(`${where}: ${JSON.stringify(uri)} is not an absolute URI (e.g. https://mcp.example.com/mcp)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${where}: ${JSON.stringify(uri)} must be an https URI`);
  }
  if (uri.includes('#')) throw new TypeError(`${where}: ${JSON.stringify(uri)} must not have a fragment (RFC 8707 §2)`);
  if (url.username !== '' || url.password !== '') throw new TypeError(`${where}: ${JSON.stringify(uri)} must not carry credentials`);
  return canonical(url);
}

function canonical(url: URL): string {
  const path = url.pathname === '/' && url.search === '' ? '' : url.pathname;
  return `${url.origin}${path}${url.search}`;
}

/**
 * True when `uri` (an audience from a token) names the resource `resource` (canonical): equal
 * once both are in canonical form, so that `HTTPS://MCP.example.com/` matches
 * `https://mcp.example.com`. Paths are compared exactly.
 */
export function sameResource(uri: string, resource: string): boolean {
  if (uri === resource) return true;
  try {
    return canonical(new URL(uri)) === resource && !uri.includes('#');
  } catch {
    return false;
  }
}

/** The URL of the Protected Resource Metadata of `resource` (canonical). */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${PRM_SUFFIX}${path}${url.search}`;
}
