/**
 * An OAuth 2.1 resource server for an MCP endpoint: what the HTTP transport asks before serving a
 * request. It knows this server's canonical URI and its Protected Resource Metadata, reads and
 * verifies the bearer token of a request, and writes the challenges. It does no HTTP itself: the
 * transport (`createFetchHandler`'s `auth` option) turns its answers into responses, so it runs
 * wherever `fetch` and WebCrypto do (Node, Deno, Bun, Workers).
 *
 * Spec: MCP 2026-07-28, Basic / Authorization (roles, token handling, error handling),
 * Authorization Server Discovery (Protected Resource Metadata); RFC 9728 §2-3, §5; RFC 6750 §2-3.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import type { HeaderReader, Principal } from '../server/request-info.js';
import { bearerChallenge, readBearer, type ChallengeParams } from './bearer.js';
import { AuthUnavailableError, InvalidTokenError } from './errors.js';
import { checkOptions, type ResourceServerOptions } from './options.js';
import { metadataUrlOf, PRM_SUFFIX } from './resource.js';
import { TokenVerifier } from './verifier.js';

/**
 * A request as {@link ResourceServer.authenticate} reads it without a web `Request`: its headers
 * and URL, and the `Request` itself made on demand, for a token verifier's hooks (a transport that
 * does not read requests as web `Request`s, such as the node:http handler, makes one only then).
 */
export interface AuthenticatedRequest {
  readonly headers: HeaderReader;
  /** The absolute URL. */
  readonly url: string;
  /** The request as a web `Request`. */
  toRequest(): Request;
}

/** The outcome of authenticating one request. */
export type Authentication =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      /** `401` no usable token, `400` a malformed request, `503` the AS unreachable, `500` a failing hook. */
      readonly status: 400 | 401 | 500 | 503;
      /** The RFC 6750 error code; absent when the request carried no bearer token. */
      readonly error?: 'invalid_request' | 'invalid_token';
      /** What went wrong, for the challenge's `error_description`. */
      readonly description?: string;
      /** For the operator's log (a 503's or 500's cause), never sent to the client. */
      readonly detail?: string;
    };

/** The part of a challenge the caller chooses (the metadata URL is the server's). */
export type Challenge = Omit<ChallengeParams, 'resourceMetadata'>;

/** A resource server. Create with {@link createResourceServer}. */
export class ResourceServer {
  /** This server's canonical URI: the metadata's `resource`, which every token's `aud` must contain. */
  readonly audience: string;
  /** The URL of the Protected Resource Metadata (RFC 9728 §3.1), named in every challenge. */
  readonly metadataUrl: string;
  /** Whether lists show callers only what their scopes allow (`permitted`) or everything (`all`). */
  readonly listing: 'permitted' | 'all';
  readonly #verifier: TokenVerifier;
  readonly #options: ReturnType<typeof checkOptions>;

  /** @throws {TypeError} for bad options (see {@link createResourceServer}). */
  constructor(options: ResourceServerOptions) {
    this.#options = checkOptions(options);
    this.audience = this.#options.audience;
    this.metadataUrl = metadataUrlOf(this.audience);
    this.listing = this.#options.listing;
    this.#verifier = new TokenVerifier(this.#options);
  }

  /** The configured `scopes_supported`, or undefined to use the scopes the server declares. */
  get scopes(): readonly string[] | undefined {
    return this.#options.scopes;
  }

  /** How many times the issuer's JWK Set was fetched (diagnostics). */
  get jwksFetches(): number {
    return this.#verifier.jwksFetches;
  }

  /**
   * True when `pathname` is where the metadata is served: the well-known URL of the audience
   * (path-aware), the root well-known URL, and the path-aware URL of `endpointPath`.
   */
  isMetadataPath(pathname: string, endpointPath?: string): boolean {
    if (!pathname.startsWith(PRM_SUFFIX)) return false;
    const rest = pathname.slice(PRM_SUFFIX.length);
    if (rest === '' || rest === '/') return true;
    return rest === new URL(this.metadataUrl).pathname.slice(PRM_SUFFIX.length) || (endpointPath !== undefined && rest === endpointPath);
  }

  /**
   * The Protected Resource Metadata document.
   * @param scopesSupported the `scopes_supported` (the configured scopes, else the declared ones).
   */
  metadata(scopesSupported: readonly string[]): JsonObject {
    const document: JsonObject = {
      resource: this.audience,
      authorization_servers: [...this.#options.authorizationServers],
      bearer_methods_supported: ['header'],
    };
    if (scopesSupported.length > 0) document.scopes_supported = [...scopesSupported];
    if (this.#options.resourceName !== undefined) document.resource_name = this.#options.resourceName;
    return document;
  }

  /** The `WWW-Authenticate` value of a challenge, naming the metadata URL. */
  challenge(challenge: Challenge): string {
    return bearerChallenge({ ...challenge, resourceMetadata: this.metadataUrl });
  }

  /**
   * Reads and verifies the bearer token of `request` (a web `Request`, or an
   * {@link AuthenticatedRequest}, whose `Request` is made only when a token is verified afresh).
   * Never rejects (a failing hook is a `500`).
   */
  async authenticate(request: Request | AuthenticatedRequest): Promise<Authentication> {
    const authorization = request.headers.get('authorization');
    // A token verified before (so well-formed) and not expired: no parsing, no crypto.
    if (authorization !== null && authorization.startsWith('Bearer ') && !request.url.includes('?')) {
      const principal = this.#verifier.known(authorization.slice(7));
      if (principal !== undefined) return { ok: true, principal };
    }
    const credentials = readBearer(authorization, request.url);
    if (credentials.kind === 'none') return { ok: false, status: 401 };
    if (credentials.kind === 'malformed') {
      return { ok: false, status: 400, error: 'invalid_request', description: credentials.description };
    }
    try {
      return { ok: true, principal: await this.#verifier.verify(credentials.token, 'toRequest' in request ? request.toRequest() : request) };
    } catch (error) {
      if (error instanceof InvalidTokenError) return { ok: false, status: 401, error: 'invalid_token', description: error.message };
      if (error instanceof AuthUnavailableError) {
        const detail = `authorization unavailable: ${error.message}`;
        return { ok: false, status: 503, description: 'the authorization server cannot be reached; retry later', detail };
      }
      const detail = `token verification failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      return { ok: false, status: 500, description: 'token verification failed', detail };
    }
  }
}

/**
 * Creates a resource server: pass it as `auth` to `createFetchHandler` (or give `serveHttp` the
 * options themselves).
 * @throws {TypeError} for bad options, naming the option and the fix (an unknown algorithm lists
 *   the known ones).
 * @example
 * const auth = createResourceServer({
 *   issuer: 'https://auth.example.com',
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * const handler = createFetchHandler(server, { path: '/mcp', auth, allowedHosts: ['mcp.example.com'] });
 */
export function createResourceServer(options: ResourceServerOptions): ResourceServer {
  return new ResourceServer(options);
}
