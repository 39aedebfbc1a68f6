// Renders the measurements as markdown: values (median, min-max), ratios to the floor and to
// SDK v1, the targets of issue 9 with pass/fail, and the in-process tables.
import { summary } from './stats.js';

const MiB = 1024 * 1024;
const num = (digits) => (v) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const rate = (v) => (!Number.isFinite(v) ? 'n/a' : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(0));

/** The figures, in table order. `higher`: larger is better. */
export const FIGURES = [
  { key: 'init', label: 'spawn → `initialize` reply', unit: 'ms', fmt: num(1) },
  { key: 'firstCall', label: 'spawn → first `tools/call` reply', unit: 'ms', fmt: num(1) },
  { key: 'thr256', label: 'throughput, 256 in flight', unit: 'calls/s', fmt: rate, higher: true },
  { key: 'thrAll', label: 'throughput, all written at once', unit: 'calls/s', fmt: rate, higher: true },
  { key: 'p50', label: 'sequential latency p50', unit: 'µs', fmt: num(0) },
  { key: 'p99', label: 'sequential latency p99', unit: 'µs', fmt: num(0) },
  { key: 'cpu256', label: 'server CPU per call, 256 in flight', unit: 'µs', fmt: num(1) },
  { key: 'cpuAll', label: 'server CPU per call, all at once', unit: 'µs', fmt: num(1) },
  { key: 'rssIdle', label: 'RSS idle after handshake', unit: 'MiB', fmt: (v) => num(1)(v / MiB) },
  { key: 'hwm256', label: 'peak RSS (VmHWM) after 256-in-flight burst', unit: 'MiB', fmt: (v) => num(1)(v / MiB) },
  { key: 'hwmAll', label: 'peak RSS (VmHWM) after all-at-once burst', unit: 'MiB', fmt: (v) => num(1)(v / MiB) },
  { key: 'mib', label: '1 MiB argument round trip', unit: 'ms', fmt: num(1) },
  { key: 'validates', label: 'rejects a call without `text`', unit: '', fmt: (v) => (v ? 'yes' : '**no**'), noRatio: true },
  { key: 'pkgs', label: 'installed packages', unit: 'count', fmt: num(0) },
  { key: 'disk', label: 'installed size on disk', unit: 'MiB', fmt: (v) => num(1)(v / MiB) },
];

/**
 * Targets from issues 9 and 21 (cold start tightened to 1.2x by issue 20), checked for each
 * baremcp variant. Ratio = baremcp / reference.
 */
export const TARGETS = [
  { label: 'cold start ≤ 1.2× floor', key: 'init', ref: 'floor', max: 1.2 },
  { label: 'cold start ≥ 2.5× faster than SDK v1 (≤ 0.4×)', key: 'init', ref: 'sdk-v1', max: 0.4 },
  { label: 'throughput (256 in flight) ≥ 0.7× floor (issue 21)', key: 'thr256', ref: 'floor', min: 0.7 },
  { label: 'throughput (256 in flight) ≥ 3× SDK v1', key: 'thr256', ref: 'sdk-v1', min: 3 },
  { label: 'CPU per call (256 in flight) ≤ 2× floor (issue 21)', key: 'cpu256', ref: 'floor', max: 2 },
  { label: 'RSS idle ≤ 1.15× floor', key: 'rssIdle', ref: 'floor', max: 1.15 },
  { label: 'peak RSS, 256 in flight ≤ 1.5× floor', key: 'hwm256', ref: 'floor', max: 1.5 },
  { label: 'peak RSS, all at once ≤ 1.5× floor', key: 'hwmAll', ref: 'floor', max: 1.5 },
];

export function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

export function table(header, rows) {
  return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
}

/** Median of a figure for a server, from `samples[server][figure]` (an array). */
export function median(samples, server, key) {
  return summary(samples[server]?.[key] ?? []).median;
}

export function cell(figure, values) {
  const s = summary(values ?? []);
  if (s.n === 0) return 'n/a';
  if (s.n === 1 || s.min === s.max) return figure.fmt(s.median);
  return `${figure.fmt(s.median)} (${figure.fmt(s.min)}–${figure.fmt(s.max)})`;
}

export function ratio(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return NaN;
  return a / b;
}

export const fmtRatio = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '—');

/** A markdown table from an array of flat objects (first object's keys are the columns). */
export function objectsTable(rows) {
  if (!Array.isArray(rows) || rows.length === 0) return '_(no rows)_';
  const keys = Object.keys(rows[0]);
  const show = (v) => {
    if (typeof v !== 'number') return String(v ?? '');
    if (!Number.isFinite(v)) return 'n/a';
    if (Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
    if (Math.abs(v) >= 1e4) return `${(v / 1e3).toFixed(0)}k`;
    return v.toFixed(2);
  };
  return table(keys, rows.map((r) => keys.map((k) => show(r[k]))));
}

/** The whole report. */
export function render({ meta, servers, samples, tarball, http, httpCounts, handle, auth, callgrind, validate, problems }) {
  const labels = servers.map((s) => s.label);
  const out = [];
  out.push('# baremcp benchmark results', '');
  out.push(`Run ${meta.date} (${meta.mode}) on ${meta.cpu}, ${meta.cores} cores, Node ${meta.node}; ${meta.params}; ${meta.load}.`);
  out.push(`Versions: ${meta.versions}.`, '');
  out.push('## Figures (median, min–max over repetitions)', '');
  out.push(
    table(
      ['figure', 'unit', ...labels],
      FIGURES.map((f) => [f.label, f.unit, ...servers.map((s) => cell(f, samples[s.key]?.[f.key]))]),
    ),
  );
  for (const [ref, title] of [
    ['floor', 'Ratio to the bare Node floor (server ÷ floor, medians)'],
    ['sdk-v1', 'Ratio to SDK v1 (server ÷ SDK v1, medians)'],
  ]) {
    out.push('', `## ${title}`, '');
    out.push(
      table(
        ['figure', ...labels],
        FIGURES.filter((f) => !f.noRatio).map((f) => [
          f.label + (f.higher ? ' (higher is better)' : ''),
          ...servers.map((s) => fmtRatio(ratio(median(samples, s.key, f.key), median(samples, ref, f.key)))),
        ]),
      ),
    );
  }
  // The targets hold for baremcp as served by default; isolation is opt-in and has its own section.
  const variants = servers.filter((s) => s.key.startsWith('baremcp') && s.key !== 'baremcp-isolated');
  out.push('', '## Targets (issues 9 and 21)', '');
  const targetRows = TARGETS.map((t) => [
    t.label,
    ...variants.map((s) => {
      const r = ratio(median(samples, s.key, t.key), median(samples, t.ref, t.key));
      if (!Number.isFinite(r)) return 'n/a';
      const ok = t.max !== undefined ? r <= t.max : r >= t.min;
      return `${fmtRatio(r)} ${ok ? 'met' : '**missed**'}`;
    }),
  ]);
  if (tarball !== undefined) {
    const kb = tarball.size / 1000;
    targetRows.push([
      // 150 KB until the bundle stopped minifying (readable stack traces, issue 20): +31 KB;
      // 300 KB until baremcp dev, baremcp pack and baremcp/redis (308.8 KB with them); the rest of
      // the growth is itemised in test/publish.test.js.
      'published tarball < 325 KB',
      ...variants.map(() => `${kb.toFixed(1)} KB (${tarball.entryCount} files, ${(tarball.unpackedSize / 1000).toFixed(0)} KB unpacked) ${kb < 325 ? 'met' : '**missed**'}`),
    ]);
  }
  targetRows.push([
    'validation on the measured path (rejects a call without `text`)',
    ...variants.map((s) => (median(samples, s.key, 'validates') === 1 ? 'met' : '**missed**: figures above are without validation')),
  ]);
  targetRows.push(['zero installed dependencies', ...variants.map((s) => (median(samples, s.key, 'pkgs') === 0 ? 'met' : '**missed**'))]);
  out.push(table(['target', ...variants.map((s) => s.label)], targetRows));
  if (servers.some((s) => s.key === 'baremcp-isolated') && servers.some((s) => s.key === 'baremcp-cli')) {
    out.push('', '## The cost of full isolation (`serve --isolate` ÷ `serve`, medians)', '');
    out.push(
      'Two Node.js processes instead of one: the parent starts the child and waits; the child serves. RSS figures add both.',
      '',
    );
    out.push(
      table(
        ['figure', 'serve', 'serve --isolate', 'ratio'],
        ['init', 'firstCall', 'rssIdle', 'hwm256', 'cpu256', 'thr256'].map((key) => {
          const f = FIGURES.find((x) => x.key === key);
          const a = median(samples, 'baremcp-cli', key);
          const b = median(samples, 'baremcp-isolated', key);
          return [`${f.label} (${f.unit})`, f.fmt(a), f.fmt(b), fmtRatio(ratio(b, a))];
        }),
      ),
    );
  }
  if (http !== undefined) {
    out.push('', http.trimEnd());
  }
  if (httpCounts !== undefined) {
    out.push(
      '',
      '## Streamable HTTP: counts per request (bench/http-counts.js)',
      '',
      'Counts, not times: they hold on a busy machine. At concurrency 16, every reply checked: JS heap bytes the server allocates per request (a young generation no measure fills: median of 5 measures of 2,000 requests after a 2,000-request warm-up); with `--http-callgrind`, instructions per request under callgrind (a run with the warm-up and 2,000 more requests minus one with the warm-up only, young generation of a fixed size). Node\'s own parsing and writing, kernel time excluded, are in every row.',
      '',
      httpCounts,
    );
  }
  if (callgrind !== undefined) {
    out.push(
      '',
      '## Instructions per call and per cold start (callgrind)',
      '',
      'A count, not a time: it does not move with the load of the machine, unlike CPU time per call (bench/callgrind.js: 20,000 calls at 256 in flight after a 2,000-call warm-up, minus a session with the warm-up only). The cold start is a whole session: spawn, \`initialize\`, one \`tools/call\`, end of input, exit. The last row is baremcp\'s stdio transport over a stand-in dispatcher that answers like the floor (bench/servers/transport-only.js): the transport\'s own cost; the rest of baremcp\'s is the dispatcher\'s.',
      '',
      callgrind,
    );
  }
  if (handle !== undefined) {
    out.push('', '## `handle()` in process (messages per second)', '', handle);
  }
  if (auth !== undefined) {
    out.push('', '## Authorization per request, warm key cache (issue 16)', '', auth);
  }
  if (validate !== undefined) {
    out.push('', '## Validator', '', validate);
  }
  out.push('', '## Method', '', ...meta.method.map((line) => `- ${line}`));
  if (problems.length > 0) {
    out.push('', '## Problems seen during the run', '', ...problems.map((p) => `- ${p}`));
  }
  return out.join('\n') + '\n';
}
