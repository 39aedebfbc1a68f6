/**
 * Strict base64url (no padding, URL-safe alphabet only), as JWS uses it: a segment with any other
 * character, or an impossible length, does not decode.
 *
 * Spec: RFC 7515 §2 ("Base64url Encoding") and Appendix C; RFC 4648 §5.
 * @module
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The bytes of a base64url string, or undefined when it is not strict unpadded base64url. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The unpadded base64url form of `bytes`. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
