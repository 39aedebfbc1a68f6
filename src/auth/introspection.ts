/**
 * RFC 7662 token introspection, for opaque access tokens: the token is posted to the
 * authorization server's introspection endpoint with this resource server's client credentials
 * (HTTP Basic), and the answer must say `active: true`, name this server in `aud`, come from the
 * configured issuer (when it names one) and not be expired.
 *
 * Spec: RFC 7662 §2.1 (request), §2.2 (response: `active`, `scope`, `client_id`, `sub`, `aud`,
 * `iss`, `exp`, `nbf`), §4 (the resource server authenticates; caching bounded by `exp`); RFC 6749
 * §2.3.1 (client_secret_basic, form-urlencoded id and secret); RFC 8707 §2.
 * @module
 */
import type { JsonObject } from '../protocol/messages.js';
import { InvalidTokenError } from './errors.js';
import { fetchJson, type FetchSettings } from './fetch-json.js';

/** How to reach the introspection endpoint. */
export interface IntrospectionSettings {
  /** The endpoint (configured, or the `introspection_endpoint` of the issuer's metadata). */
  readonly endpoint: () => Promise<string>;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly fetch: FetchSettings;
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * Asks the authorization server about `token`.
 * @returns the introspection answer of an active token (its claims).
 * @throws {InvalidTokenError} when the token is not active.
 * @throws {AuthUnavailableError} when the endpoint cannot be reached or answers badly.
 */
export async function introspect(token: string, settings: IntrospectionSettings): Promise<JsonObject> {
  const endpoint = await settings.endpoint();
  const credentials = btoa(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`);
  const { body } = await fetchJson(endpoint, settings.fetch, {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `token=${formEncode(token)}&token_type_hint=access_token`,
  });
  if (body.active !== true) throw new InvalidTokenError('the token is not active (introspection)');
  return body;
}
