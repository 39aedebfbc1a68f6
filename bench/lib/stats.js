// Small statistics helpers: median, min, max, nearest-rank percentiles.

export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers. */
export function percentile(values, p) {
  const s = sorted(values);
  if (s.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

/** `{ median, min, max, n }` of a list of numbers (NaN entries dropped). */
export function summary(values) {
  const s = sorted(values.filter((v) => Number.isFinite(v)));
  if (s.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const mid = s.length >> 1;
  const median = s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1], n: s.length };
}
