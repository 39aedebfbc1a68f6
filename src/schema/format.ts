/**
 * Format assertions for the formats baremcp checks when `formatAssertion` is on. Each check
 * takes a string and answers whether it is in the format; non-strings are never checked.
 *
 * Spec: JSON Schema 2020-12 Validation §7.3; RFC 3339 §5.6 and Appendix A (dates, times,
 * durations), RFC 5321 §4.1.2 (email), RFC 2673 / RFC 4291 §2.2 (IP addresses), RFC 3986
 * (URIs), RFC 4122 (UUID), RFC 6901 (JSON Pointer), draft-bhutton-relative-json-pointer-00.
 * @module
 */
import { isHostname } from './format-hostname.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(z)|([+-])(\d{2}):(\d{2}))$/i;
const DUR_TIME = 'T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)';
const DURATION = new RegExp(
  `^P(?:(?:\\d+D|\\d+M(?:\\d+D)?|\\d+Y(?:\\d+M(?:\\d+D)?)?)(?:${DUR_TIME})?|${DUR_TIME}|\\d+W)$`,
);
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX4 = /^[0-9A-Fa-f]{1,4}$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")$`);
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_POINTER = /^(?:0|[1-9]\d*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;
// RFC 3986 character classes (as regex source).
const PCT = '%[0-9A-Fa-f]{2}';
const UNRESERVED_SUB = "A-Za-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const USERINFO = new RegExp(`^(?:[${UNRESERVED_SUB}:]|${PCT})*$`);
const REG_NAME = new RegExp(`^(?:[${UNRESERVED_SUB}]|${PCT})*$`);
const IPVFUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED_SUB}:]+$`);
const PATH = new RegExp(`^(?:${PCHAR}|/)*$`);
const QUERY = new RegExp(`^(?:${PCHAR}|[/?])*$`);
const SPLIT = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** RFC 3339 `full-date`: `2024-02-29`, with the real number of days in the month. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(Number(m[1]), month);
}

/**
 * RFC 3339 `full-time` (offset required): `08:30:06.5Z`, `23:59:60+00:00`. A leap second is
 * valid only at 23:59:60 UTC once the offset is applied.
 */
export function isTime(s: string): boolean {
  const m = TIME.exec(s);
  if (m === null) return false;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [oh, om] = m[4] !== undefined ? [0, 0] : [Number(m[6]), Number(m[7])];
  if (h > 23 || min > 59 || sec > 60 || oh > 23 || om > 59) return false;
  if (sec < 60) return true;
  const sign = m[5] === '-' ? -1 : 1;
  const utc = (((h * 60 + min - sign * (oh * 60 + om)) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** RFC 3339 `date-time`: a full-date, `T` (or `t`), and a full-time. */
export function isDateTime(s: string): boolean {
  const t = s.length > 10 ? s[10] : '';
  return (t === 'T' || t === 't') && isDate(s.slice(0, 10)) && isTime(s.slice(11));
}

/** RFC 3339 Appendix A `duration`: `P1Y2M3DT4H5M6S`, `PT36H`, `P2W`. */
export function isDuration(s: string): boolean {
  return DURATION.test(s);
}

/** Dotted-quad IPv4 address without leading zeros: `192.168.0.1`. */
export function isIpv4(s: string): boolean {
  return IPV4.test(s);
}

/** IPv6 address (RFC 4291 §2.2), with `::` compression and a trailing dotted IPv4 part. */
export function isIpv6(s: string): boolean {
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : halves[1].split(':');
  const end = halves.length === 2 ? tail : head;
  let units = head.length + tail.length;
  const last = end[end.length - 1];
  if (last !== undefined && last.includes('.')) {
    if (!isIpv4(last)) return false;
    end.pop();
    units++;
  }
  if (!head.every((g) => HEX4.test(g)) || !tail.every((g) => HEX4.test(g))) return false;
  return halves.length === 2 ? units <= 7 : units === 8;
}

/** An email address (RFC 5321 Mailbox): dot-atom or quoted local part, host name or IP literal. */
export function isEmail(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = s.slice(at + 1);
  if (!LOCAL.test(s.slice(0, at))) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return literal.startsWith('IPv6:') ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

function authorityOk(authority: string): boolean {
  const at = authority.indexOf('@');
  if (at !== -1 && !USERINFO.test(authority.slice(0, at))) return false;
  let host = authority.slice(at + 1);
  const portMatch = /:(\d*)$/.exec(host);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) return false;
    const rest = host.slice(close + 1);
    if (rest !== '' && !/^:\d*$/.test(rest)) return false;
    const literal = host.slice(1, close);
    return isIpv6(literal) || IPVFUTURE.test(literal);
  }
  if (portMatch !== null) host = host.slice(0, portMatch.index);
  return REG_NAME.test(host);
}

function uriReferenceOk(s: string, needScheme: boolean): boolean {
  const m = SPLIT.exec(s);
  if (m === null) return false;
  const [, scheme, authority, path, query, fragment] = m;
  if (scheme === undefined ? needScheme : !SCHEME.test(scheme)) return false;
  if (authority !== undefined && !authorityOk(authority)) return false;
  if (!PATH.test(path)) return false;
  if (scheme === undefined && authority === undefined && /^[^/]*:/.test(path)) return false;
  if (query !== undefined && !QUERY.test(query)) return false;
  return fragment === undefined || QUERY.test(fragment);
}

/** An absolute URI with a scheme (RFC 3986 §3): `https://example.com/a?b#c`, `urn:x:y`. */
export function isAbsoluteUri(s: string): boolean {
  return uriReferenceOk(s, true);
}

/** A URI or a relative reference (RFC 3986 §4.1): `../a`, `#frag`, `''`. */
export function isUriReference(s: string): boolean {
  return uriReferenceOk(s, false);
}

/** A UUID in its 8-4-4-4-12 hex form (RFC 4122 §3), any version and variant. */
export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** A regular expression that compiles as ECMAScript with the `u` flag. */
export function isRegex(s: string): boolean {
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A JSON Pointer (RFC 6901 §3): `''`, `/a/b~1c`. */
export function isJsonPointer(s: string): boolean {
  return JSON_POINTER.test(s);
}

/** A relative JSON Pointer: `0`, `1/a/b`, `2#`. */
export function isRelativeJsonPointer(s: string): boolean {
  return RELATIVE_POINTER.test(s);
}

/** The checks by format name (JSON Schema 2020-12 Validation §7.3). */
const FORMATS: { readonly [name: string]: (s: string) => boolean } = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  duration: isDuration,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isAbsoluteUri,
  'uri-reference': isUriReference,
  uuid: isUuid,
  regex: isRegex,
  'json-pointer': isJsonPointer,
  'relative-json-pointer': isRelativeJsonPointer,
};

/** The check for format `name`, or `undefined` for a format baremcp does not assert. */
export function formatCheck(name: string): ((s: string) => boolean) | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATS, name) ? FORMATS[name] : undefined;
}
