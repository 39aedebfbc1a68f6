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

/** An address or name as `URL.hostname` writes it: IPv6 in brackets, without a zone, lower case. */
function asHostname(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  return bare.includes(':') ? `[${bare}]` : bare;
}

/**
 * The default `allowedHosts` of a server bound to `host`.
 * @param host the interface given to `listen` (`127.0.0.1`, `0.0.0.0`, `::`, an address or a name).
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
  const wildcard = host === '0.0.0.0' || host === '::' || host === '' || host === '[::]';
  if (!wildcard) {
    hosts.add(asHostname(host));
    return [...hosts];
  }
  // Asked only for a wildcard bind: listing the interfaces takes ~0.5 ms (a netlink round trip).
  for (const list of Object.values(interfaces ?? networkInterfaces())) {
    for (const entry of list ?? []) {
      // `0.0.0.0` listens on IPv4 only; `::` on both (dual stack).
      if (host === '0.0.0.0' && entry.family !== 'IPv4') continue;
      hosts.add(asHostname(entry.address));
    }
  }
  const own = name ?? hostname();
  if (own !== '') hosts.add(own.toLowerCase());
  return [...hosts];
}
