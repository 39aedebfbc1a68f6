/**
 * The `hostname` format: RFC 1123 labels, and for `xn--` labels the Punycode decoding and the
 * IDNA2008 rules that can be checked without Unicode data tables (no leading combining mark, the
 * DISALLOWED exceptions, and the CONTEXTO rules of RFC 5892 Appendix A).
 *
 * Spec: RFC 1123 §2.1, RFC 3492 (Punycode), RFC 5891 §4.2.3, RFC 5892 §2.6 and Appendix A;
 * JSON Schema 2020-12 Validation §7.3.3.
 * @module
 */

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const DISALLOWED = /[\u0640\u07fa\u302e\u302f\u3031-\u3035\u303b]/u;
const VIRAMA = /[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0eba\u0f84\u1039\u103a\u1714\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua8c4\ua953\ua9c0\uaaf6\uabed]/u;

const BASE = 36;

function adapt(delta: number, points: number, first: boolean): number {
  delta = first ? Math.floor(delta / 700) : delta >> 1;
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > 455) {
    delta = Math.floor(delta / 35);
    k += BASE;
  }
  return k + Math.floor((36 * delta) / (delta + 38));
}

function digit(c: number): number {
  if (c >= 48 && c <= 57) return c - 22;
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 97;
  return BASE;
}

/** Decodes the Punycode part of an A-label (RFC 3492 §6.2); `undefined` when malformed. */
export function decodePunycode(input: string): string | undefined {
  const dash = input.lastIndexOf('-');
  const out: number[] = [];
  for (let j = 0; j < Math.max(dash, 0); j++) out.push(input.charCodeAt(j));
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let pos = dash > 0 ? dash + 1 : 0; pos < input.length; ) {
    const old = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (pos >= input.length) return undefined;
      const d = digit(input.charCodeAt(pos++));
      if (d >= BASE) return undefined;
      i += d * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (i > 0x10ffff * 64) return undefined;
    }
    bias = adapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff) return undefined;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

function contextOk(label: string): boolean {
  const cps = Array.from(label);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    const before = cps[i - 1] ?? '';
    const after = cps[i + 1] ?? '';
    if (c === '\u00b7' && (before !== 'l' || after !== 'l')) return false;
    if (c === '\u0375' && !/\p{Script=Greek}/u.test(after)) return false;
    if ((c === '\u05f3' || c === '\u05f4') && !/\p{Script=Hebrew}/u.test(before)) return false;
    if (c === '\u200d' && !VIRAMA.test(before)) return false;
  }
  if (label.includes('\u30fb') && !/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(label.replace(/\u30fb/g, ''))) {
    return false;
  }
  return !(/[\u0660-\u0669]/.test(label) && /[\u06f0-\u06f9]/.test(label));
}

function uLabelOk(aLabel: string): boolean {
  const u = decodePunycode(aLabel.slice(4));
  if (u === undefined || u === '' || /^[\x00-\x7f]*$/.test(u)) return false;
  if (u.slice(2, 4) === '--' || /^\p{M}/u.test(u) || DISALLOWED.test(u)) return false;
  return contextOk(u);
}

/**
 * True for an Internet host name: dot-separated labels of letters, digits and inner hyphens,
 * each at most 63 characters, at most 253 in all, no trailing dot (JSON Schema 2020-12
 * Validation §7.3.3, RFC 1123). `xn--` labels must decode to a valid U-label.
 */
export function isHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  for (const label of s.split('.')) {
    if (!LABEL.test(label)) return false;
    if (label.length >= 4 && label[2] === '-' && label[3] === '-') {
      if (label.slice(0, 2).toLowerCase() !== 'xn' || !uLabelOk(label)) return false;
    }
  }
  return true;
}
