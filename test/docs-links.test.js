// The docs' links resolve: every relative link in README.md and docs/*.md (inline `[text](target)`
// and reference definitions `[label]: target`, outside code blocks and code spans) names a file or
// folder of the repository, and a `#fragment` names a heading of the Markdown file it points to,
// slugged as GitHub does (lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats).
// Links with a scheme (https:, mailto:) are not fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { repoRoot } from './helpers.js';

/** The lines of a Markdown text outside fenced code blocks, with code spans blanked. */
function prose(markdown) {
  const out = [];
  let fence;
  for (const [i, line] of markdown.split('\n').entries()) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && open !== null) fence = open[1];
    else if (fence !== undefined && line.trim() === fence) fence = undefined;
    else if (fence === undefined) {
      out.push({ line: i + 1, text: line.replace(/(`+)[^`]*?\1/g, '') });
    }
  }
  return out;
}

/** The GitHub anchor of a heading's text. */
export function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown text's headings define. */
export function anchors(markdown) {
  const seen = new Map();
  const found = new Set();
  let fence;
  for (const line of markdown.split('\n')) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && open !== null) fence = open[1];
    else if (fence !== undefined && line.trim() === fence) fence = undefined;
    else if (fence === undefined) {
      const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (h === null) continue;
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  return found;
}

/** The broken relative links of one Markdown file: [{ line, target, why }]. */
export function brokenLinks(file, markdown, read = (path) => readFileSync(path, 'utf8')) {
  const broken = [];
  for (const { line, text } of prose(markdown)) {
    const targets = [
      ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
      ...[...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, fragment] = target.split('#', 2);
      const full = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      const shown = relative(repoRoot, full);
      if (!existsSync(full)) {
        broken.push({ line, target, why: `${shown} does not exist` });
        continue;
      }
      if (fragment === undefined || fragment === '') continue;
      if (statSync(full).isDirectory() || !full.endsWith('.md')) {
        const why = `#${fragment} on ${shown}, which is not a Markdown file`;
        broken.push({ line, target, why });
        continue;
      }
      const headings = anchors(path === '' ? markdown : read(full));
      if (!headings.has(decodeURIComponent(fragment))) {
        broken.push({ line, target, why: `${shown} has no heading with the anchor #${fragment}` });
      }
    }
  }
  return broken;
}

const MARKDOWN = [
  'README.md',
  ...readdirSync(resolve(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

test('headings slug as GitHub slugs them, repeats numbered', () => {
  assert.equal(
    slug('Tasks (`io.modelcontextprotocol/tasks`, SEP-2663)'),
    'tasks-iomodelcontextprotocoltasks-sep-2663',
  );
  assert.equal(
    slug("Migrating from the SDK's `McpServer.registerTool`"),
    'migrating-from-the-sdks-mcpserverregistertool',
  );
  assert.equal(slug('Authorization (OAuth 2.1)'), 'authorization-oauth-21');
  const markdown = '# A\n\n```sh\n# not a heading\n```\n## A\n### B c';
  assert.deepEqual([...anchors(markdown)], ['a', 'a-1', 'b-c']);
});

test('the checker reports a missing file, a missing anchor, an anchor on a folder; skips code', () => {
  const probe = [
    '# Probe',
    'See [the CLI](docs/cli.md), [codes](docs/cli.md#exit-codes-nowhere), [me](#probe),',
    '[gone](docs/gone.md), [a folder](docs/#x), [web](https://x.org/x.md), `[no](nowhere.md)`.',
    '```md',
    '[skipped](nowhere.md)',
    '```',
    '[ref]: ../outside-the-repo.md',
  ].join('\n');
  const found = brokenLinks(resolve(repoRoot, 'README.md'), probe);
  assert.deepEqual(
    found.map((b) => `${b.line} ${b.target}: ${b.why}`),
    [
      '2 docs/cli.md#exit-codes-nowhere: docs/cli.md has no heading with the anchor ' +
        '#exit-codes-nowhere',
      '3 docs/gone.md: docs/gone.md does not exist',
      '3 docs/#x: #x on docs, which is not a Markdown file',
      '7 ../outside-the-repo.md: ../outside-the-repo.md does not exist',
    ],
  );
});

test('every relative link in README.md and docs/*.md names a file and, with a #, a heading', () => {
  let links = 0;
  const broken = [];
  for (const file of MARKDOWN) {
    const text = readFileSync(resolve(repoRoot, file), 'utf8');
    links += [...prose(text).map((l) => l.text).join('\n').matchAll(/\]\(/g)].length;
    for (const b of brokenLinks(resolve(repoRoot, file), text)) {
      broken.push(`${file}:${b.line}: ${b.why}`);
    }
  }
  assert.ok(links >= 60, `only ${links} links found`);
  assert.deepEqual(broken, []);
});

test('the README links every page of docs/, and docs/README.md indexes them all', () => {
  const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');
  const index = readFileSync(resolve(repoRoot, 'docs', 'README.md'), 'utf8');
  const pages = MARKDOWN.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
  assert.ok(pages.length >= 12, pages.join(', '));
  for (const page of pages) {
    assert.ok(readme.includes(`](${page}`), `README.md links ${page}`);
    assert.ok(index.includes(`](${page.slice('docs/'.length)}`), `docs/README.md links ${page}`);
  }
});
