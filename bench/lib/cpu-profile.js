// Summarises the V8 CPU profiles (`node --cpu-prof`) in a folder as markdown: the functions with
// the most self time and the most total time (self + callees), and self time by file or package.
// Used by `node bench/http.js --profile=<server>`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOP = 25;
const META = new Set(['(root)', '(program)', '(idle)']);

/** A short place for a script URL: a path in the repository, a package, or node's own module. */
function place(url, root) {
  if (url === '') return '';
  if (url.startsWith('node:')) return url;
  let path = url;
  try {
    if (url.startsWith('file:')) path = fileURLToPath(url);
  } catch {
    return url;
  }
  const nm = path.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  return path.startsWith(root) ? relative(root, path) : path;
}

function summarise(profile, root, self, total, byFile) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = new Map();
  const fileOf = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const where = place(f.url, root);
    keyOf.set(n.id, where === '' ? f.functionName || '(anonymous)' : `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`);
    fileOf.set(n.id, where === '' ? f.functionName : where);
  }
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const us = profile.timeDeltas[i + 1] ?? 0;
    const key = keyOf.get(id);
    self.set(key, (self.get(key) ?? 0) + us);
    if (META.has(key)) continue;
    busy += us;
    byFile.set(fileOf.get(id), (byFile.get(fileOf.get(id)) ?? 0) + us);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf.get(at);
      if (seen.has(k) || META.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  return busy;
}

/** Markdown summary of every `*.cpuprofile` in `dir` (added together). */
export function profileSummary(dir, root, title) {
  const self = new Map();
  const total = new Map();
  const byFile = new Map();
  let busy = 0;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}: did the server exit normally?`);
  for (const file of files) busy += summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')), root, self, total, byFile);
  const ms = (us) => (us / 1000).toFixed(1);
  const pct = (us) => `${((100 * us) / busy).toFixed(1)}%`;
  const top = (map) =>
    [...map]
      .filter(([k]) => !META.has(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP);
  const idle = (self.get('(idle)') ?? 0) + (self.get('(program)') ?? 0);
  return [
    `## CPU profile: ${title}`,
    '',
    `${ms(busy)} ms of samples in JavaScript, the garbage collector and native code (and ${ms(idle)} ms idle or in \`(program)\`).`,
    '',
    '### Self time',
    '',
    '| function | self ms | share |',
    '| --- | --- | --- |',
    ...top(self).map(([k, us]) => `| \`${k}\` | ${ms(us)} | ${pct(us)} |`),
    '',
    '### Total time (self and callees)',
    '',
    '| function | total ms | share |',
    '| --- | --- | --- |',
    ...top(total).map(([k, us]) => `| \`${k}\` | ${ms(us)} | ${pct(us)} |`),
    '',
    '### Self time by file or package',
    '',
    '| where | self ms | share |',
    '| --- | --- | --- |',
    ...top(byFile).map(([k, us]) => `| \`${k}\` | ${ms(us)} | ${pct(us)} |`),
  ].join('\n');
}
