/**
 * Finds an authorization server's metadata from its issuer identifier, the way MCP clients do:
 * RFC 8414 with the well-known suffix inserted before the issuer's path, then OpenID Connect
 * Discovery inserted, then appended. A document is used only when its `issuer` is the configured
 * issuer, character for character. The result is cached for its `Cache-Control` lifetime (within
 * bounds), fetched by one request at a time, and a failure is remembered for a while so that a
 * dead authorization server is not asked on every request.
 *
 * Spec: RFC 8414 §3.1 (path insertion), §3.3 (issuer MUST be identical), §5 (OpenID
 * compatibility); OpenID Connect Discovery 1.0 §4; MCP 2026-07-28, Basic / Authorization /
 * Authorization Server Discovery ("Authorization Server Metadata Discovery").
 * @module
 */
import { AuthUnavailableError } from './errors.js';
import { fetchJson, type FetchSettings } from './fetch-json.js';
import { Refresher, type Freshness } from './refresher.js';

/** What the resource server reads from the authorization server's metadata. */
export interface AuthorizationServerMetadata {
  /** The `issuer`, equal to the configured one. */
  readonly issuer: string;
  /** The `jwks_uri`, when it has one. */
  readonly jwksUri: string | undefined;
  /** The RFC 7662 `introspection_endpoint`, when it has one. */
  readonly introspectionEndpoint: string | undefined;
}

/** The metadata URLs to try for `issuer`, in the order MCP gives. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const origin = url.origin;
  if (path === '') {
    return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

function optionalUrl(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Fetches the metadata of `issuer`: the first well-known URL that answers a document naming
 * exactly this issuer.
 * @throws {AuthUnavailableError} when none does; the message lists each URL and its problem.
 */
export async function discover(issuer: string, settings: FetchSettings): Promise<Freshness<AuthorizationServerMetadata>> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const { body, maxAgeMs } = await fetchJson(url, settings);
      if (body.issuer !== issuer) {
        problems.push(`${url} names issuer ${JSON.stringify(body.issuer)}, not ${JSON.stringify(issuer)}`);
        continue;
      }
      const value: AuthorizationServerMetadata = {
        issuer,
        jwksUri: optionalUrl(body.jwks_uri),
        introspectionEndpoint: optionalUrl(body.introspection_endpoint),
      };
      return { value, maxAgeMs };
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  throw new AuthUnavailableError(`no usable authorization server metadata for ${issuer}: ${problems.join('; ')}`);
}

/** The metadata of one issuer, discovered on first use and kept fresh. */
export class Discovery {
  readonly #refresher: Refresher<AuthorizationServerMetadata>;

  constructor(issuer: string, settings: FetchSettings, bounds: { minTtlMs: number; maxTtlMs: number; retryMs: number }) {
    this.#refresher = new Refresher(() => discover(issuer, settings), bounds);
  }

  /**
   * The metadata (cached while fresh).
   * @throws {AuthUnavailableError} when it cannot be had and no earlier copy exists.
   */
  get(): Promise<AuthorizationServerMetadata> {
    return this.#refresher.get();
  }
}
