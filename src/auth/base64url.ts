/**
 * Strict base64url (no padding, URL-safe alphabet only, canonical trailing bits), as JWS uses it:
 * a segment with any other character, an impossible length, or non-zero unused bits does not
 * decode, so one token has one spelling. Hand-written over a lookup table: this runs on every
 * token's three segments.
 *
 * Spec: RFC 7515 §2 ("Base64url Encoding") and Appendix C; RFC 4648 §3.5 (canonical encoding),
 * §5.
 * @module
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Character code → 6-bit value, or -1. */
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

function value(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code < 128 ? (VALUES[code] as number) : -1;
}

/** The bytes of a base64url string, or undefined when it is not strict unpadded base64url. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const length = text.length;
  const tail = length % 4;
  if (tail === 1) return undefined;
  const bytes = new Uint8Array((length >> 2) * 3 + (tail === 0 ? 0 : tail - 1));
  let out = 0;
  let i = 0;
  for (; i + 4 <= length; i += 4) {
    const a = value(text, i);
    const b = value(text, i + 1);
    const c = value(text, i + 2);
    const d = value(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    bytes[out++] = (a << 2) | (b >> 4);
    bytes[out++] = ((b & 15) << 4) | (c >> 2);
    bytes[out++] = ((c & 3) << 6) | d;
  }
  if (tail >= 2) {
    const a = value(text, i);
    const b = value(text, i + 1);
    if ((a | b) < 0) return undefined;
    bytes[out++] = (a << 2) | (b >> 4);
    if (tail === 2) return (b & 15) === 0 ? bytes : undefined;
    const c = value(text, i + 2);
    if (c < 0 || (c & 3) !== 0) return undefined;
    bytes[out++] = ((b & 15) << 4) | (c >> 2);
  }
  return bytes;
}
