/**
 * The `Host` names a server bound to an address answers to by default: the localhost names, plus
 * the address itself, or, for a wildcard bind (`0.0.0.0`, `::`), every address of this machine's
 * interfaces and its host name. None of these can be named by a DNS-rebinding page (a browser
 * sends such a `Host` only to a page of that very address), so allowing them keeps the protection
 * while `--host 0.0.0.0` answers on its own address.
 *
 * Spec: MCP 2025-11-25, Basic / Transports ("Security Warning": validate `Origin`, bind to
 * localhost when local); RFC 3986 §3.2.2 (IPv6 literals in brackets).
 * @module
 */
import { hostname, networkInterfaces } from 'node:os';
import { LOCALHOST_NAMES } from './http-rules.js';

/**
 * An address or name as `URL.hostname` writes it (a `Host` header is compared in that form): IPv6
 * in brackets, without a zone, compressed (`::0` is `[::]`, `::ffff:127.0.0.1` is
 * `[::ffff:7f00:1]`), IPv4 in dotted decimal (`0` is `0.0.0.0`), a name in lower case.
 */
function asHostname(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const text = bare.includes(':') ? `[${bare}]` : bare;
  try {
    return new URL(`http://${text}/`).hostname;
  } catch {
    return text;
  }
}

/**
 * The default `allowedHosts` of a server bound to `host`.
 * @param host the interface given to `listen` (`127.0.0.1`, `0.0.0.0`, `::` or another spelling of
 *   either such as `::0` or `0`, an address or a name).
 * @param interfaces this machine's interfaces (default: `os.networkInterfaces()`, read only for a
 *   wildcard `host`), for tests.
 * @param name this machine's host name (default: `os.hostname()`, likewise).
 * @returns the names without duplicates, localhost names first.
 */
export function hostsForBind(
  host: string,
  interfaces?: ReturnType<typeof networkInterfaces>,
  name?: string,
): string[] {
  const hosts = new Set<string>(LOCALHOST_NAMES);
  // Any spelling of a wildcard (`::0`, `0`) binds like `::` or `0.0.0.0`.
  const bound = asHostname(host);
  const wildcard = host === '' || bound === '0.0.0.0' || bound === '[::]';
  if (!wildcard) {
    hosts.add(bound);
    return [...hosts];
  }
  // Asked only for a wildcard bind: listing the interfaces takes ~0.5 ms (a netlink round trip).
  for (const list of Object.values(interfaces ?? networkInterfaces())) {
    for (const entry of list ?? []) {
      // `0.0.0.0` listens on IPv4 only; `::` on both (dual stack).
      if (bound === '0.0.0.0' && entry.family !== 'IPv4') continue;
      hosts.add(asHostname(entry.address));
    }
  }
  const own = name ?? hostname();
  if (own !== '') hosts.add(own.toLowerCase());
  return [...hosts];
}
