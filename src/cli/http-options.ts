/**
 * The operator's options of `baremcp serve --http`, from the command line and the environment:
 * `--state-secret S` (`BAREMCP_STATE_SECRET`), `--allowed-host H` (repeatable;
 * `BAREMCP_ALLOWED_HOSTS`, comma-separated), `--health[=PATH]`, `--max-in-flight N` and
 * `--behind-proxy`.
 * @module
 */
import type { Server } from '../server/server.js';
import { hostsForBind } from '../transport/bound-hosts.js';
import type { AllowList } from '../transport/http-rules.js';
import { optionString, optionStrings, UsageError, type ParsedArgs } from './args.js';

/** The health endpoint's path when `--health` comes without one. */
export const DEFAULT_HEALTH_PATH = '/healthz';

/** What `serveHttp` gets from the operator's options. */
export interface HttpServeOptions {
  /** Set when `--allowed-host` or `BAREMCP_ALLOWED_HOSTS` named hosts. */
  allowedHosts?: AllowList;
  /** Set by `--health`. */
  healthPath?: string;
  /** Set by `--max-in-flight`. */
  maxInFlight?: number;
  /** Set by `--behind-proxy`. */
  behindProxy?: boolean;
}

/**
 * Applies the state secret to `server` (`--state-secret` wins over `BAREMCP_STATE_SECRET`, and
 * both over a secret the module gave) and returns the `serveHttp` options of the others.
 * Allowed hosts add to the defaults of the bound address (localhost, the address, and for
 * `0.0.0.0` every address of this machine); `*` allows any `Host`.
 * @param host the `--host` the server binds.
 * @throws {UsageError} for an empty secret, an empty host, a health path that is not an
 *   absolute path or is the MCP endpoint's own, or a `--max-in-flight` that is not a positive
 *   integer.
 */
export function applyHttpOptions(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
  server: Server,
  host: string,
): HttpServeOptions {
  const options: HttpServeOptions = {};
  const secret = optionString(args, 'state-secret') ?? env.BAREMCP_STATE_SECRET;
  if (secret !== undefined) {
    if (secret === '') {
      throw new UsageError('--state-secret (or BAREMCP_STATE_SECRET) is empty: give every replica the same non-empty secret');
    }
    if (typeof (server as Partial<Server>).useStateSecret !== 'function') {
      throw new UsageError('the served module\'s own baremcp cannot take --state-secret (too old); pass stateSecret to createServer');
    }
    server.useStateSecret(secret);
  }
  const named = [
    ...(env.BAREMCP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== ''),
    ...optionStrings(args, 'allowed-host').map((h) => h.trim()),
  ];
  if (named.includes('')) throw new UsageError('--allowed-host needs a host name, e.g. --allowed-host mcp.example.com');
  if (named.includes('*')) options.allowedHosts = '*';
  else if (named.length > 0) options.allowedHosts = [...new Set([...hostsForBind(host), ...named])];
  const health = args.options.get('health');
  if (health !== undefined) {
    const path = health === true ? DEFAULT_HEALTH_PATH : health;
    if (!path.startsWith('/') || path === '/mcp') {
      throw new UsageError(`--health=${path}: expected a path other than /mcp, e.g. --health=/healthz`);
    }
    options.healthPath = path;
  }
  const maxInFlight = optionString(args, 'max-in-flight');
  if (maxInFlight !== undefined) {
    const n = Number(maxInFlight);
    if (!/^[0-9]+$/.test(maxInFlight) || !Number.isSafeInteger(n) || n < 1) {
      throw new UsageError(`--max-in-flight=${maxInFlight}: expected a positive integer, e.g. --max-in-flight 64`);
    }
    options.maxInFlight = n;
  }
  if (args.options.has('behind-proxy')) options.behindProxy = true;
  return options;
}
