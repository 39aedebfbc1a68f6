// The folder-swap race against the workspace example (issue 19): a renamer child process swaps a
// folder inside the root for a symbolic link to an outside folder in a tight loop, while every
// tool, the file:///{+path} template, its completion and the review_file prompt are called over
// and over on paths through that folder. An escape is a reply that shows the outside folder: its
// marker text, its marker-named entry, or its secret file's size.
//
// Used by test/workspace-race.test.js (a few seconds) and bench/workspace.js (longer,
// and against another build: `node bench/workspace.js race --dist=/tmp/before/dist`).
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Text only the outside folder holds (in a file and in an entry name). */
export const MARKER = 'ESCAPED-MARKER-7F3A';
/** Size of the outside secret.txt; the inside one is smaller. */
export const OUTSIDE_SIZE = 4242;

// Swaps <root>/swap between the real folder and a link to the outside one, as fast as it can,
// and prints the number of swaps when told to stop (SIGTERM).
const RENAMER = `
const { renameSync } = require('node:fs');
const [root] = process.argv.slice(1);
let swaps = 0;
let stop = false;
process.on('SIGTERM', () => { stop = true; });
process.stdout.write('ready\\n');
const step = () => {
  for (let i = 0; i < 2000; i++) {
    try {
      renameSync(root + '/swap', root + '/.swap-real');
      renameSync(root + '/.swap-link', root + '/swap');
      renameSync(root + '/swap', root + '/.swap-link');
      renameSync(root + '/.swap-real', root + '/swap');
      swaps++;
    } catch {}
  }
  if (stop) process.stdout.write(swaps + '\\n', () => process.exit(0));
  else setImmediate(step);
};
step();
`;

/** The calls made, each with what an escape looks like in its reply. */
const KINDS = [
  { name: 'read_text_file', call: (c) => c.callTool('read_text_file', { path: 'swap/secret.txt' }) },
  { name: 'file_info', call: (c) => c.callTool('file_info', { path: 'swap/secret.txt' }) },
  { name: 'list_directory', call: (c) => c.callTool('list_directory', { path: 'swap' }) },
  {
    name: 'resources/read',
    call: (c) => c.readResource('file:///swap/secret.txt'),
  },
  {
    name: 'completion/complete',
    call: (c) =>
      c.complete({ type: 'ref/resource', uri: 'file:///{+path}' }, { name: 'path', value: 'swap/' }),
  },
  { name: 'prompts/get', call: (c) => c.getPrompt('review_file', { path: 'swap/secret.txt' }) },
];

// A search of the root lists it, walks the busy folder (sorted first), then descends into swap,
// which may have been swapped meanwhile; a search of swap opens it first. The query matches the
// marker without being the marker (searches are case-insensitive).
const SEARCHES = [
  { name: 'search_text', call: (c) => c.callTool('search_text', { query: 'escaped-marker-7f3a' }) },
  {
    name: 'search_text swap',
    call: (c) => c.callTool('search_text', { query: 'escaped-marker-7f3a', path: 'swap' }),
  },
];

function escaped(reply) {
  const json = JSON.stringify(reply);
  return json.includes(MARKER) || json.includes(`"size":${OUTSIDE_SIZE}`);
}

/** Builds the layout under a new temporary folder; returns its paths. */
async function layout() {
  const base = await mkdtemp(join(tmpdir(), 'baremcp-race-'));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'swap', 'deeper'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'keep.txt'), 'an ordinary file\n');
  await mkdir(join(root, 'busy'));
  for (let i = 0; i < 200; i++) await writeFile(join(root, 'busy', `f${i}.txt`), `line ${i}\n`);
  await writeFile(join(root, 'swap', 'secret.txt'), 'inside text\n');
  await writeFile(join(root, 'swap', 'deeper', 'more.txt'), 'more inside text\n');
  const secret = `${MARKER}\n`;
  await writeFile(join(outside, 'secret.txt'), secret + 'x'.repeat(OUTSIDE_SIZE - secret.length));
  await writeFile(join(outside, `${MARKER}.txt`), `${MARKER}\n`);
  await chmod(outside, 0o755);
  await symlink(outside, join(root, '.swap-link'));
  return { base, root };
}

/** Starts the renamer; resolves once it runs, with a `stop()` that resolves to its swap count. */
async function startRenamer(root) {
  const child = spawn(process.execPath, ['-e', RENAMER, root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the renamer exited early (${code})`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      return Number(out.slice('ready\n'.length).trim()) || 0;
    },
  };
}

/**
 * Runs the race for `durationMs` with `concurrency` loops of calls (plus `searchConcurrency` loops
 * of search_text) against the build in `dist` (a directory URL or path; default this checkout's).
 * On a slow or busy machine it goes on until every kind has had `minCalls` calls (each search kind
 * `minSearchCalls`), but never past `maxDurationMs`.
 * @returns `{ swaps, kinds: { [name]: { calls, escapes, ok, refused, internal, examples } } }`:
 *   `ok` replies showed the inside folder, `refused` were errors (refusals, "not found", "changed
 *   while opened"), `internal` were `-32603` errors; `examples` holds up to two bad replies.
 */
export async function runRace({
  dist = new URL('../../dist/', import.meta.url),
  durationMs = 3000,
  minCalls = 0,
  minSearchCalls = 0,
  maxDurationMs = durationMs * 5,
  concurrency = 12,
  searchConcurrency = 2,
} = {}) {
  const distUrl = typeof dist === 'string' ? pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`) : dist;
  const workspace = await import(new URL('workspace/index.js', distUrl).href);
  const { createServer } = await import(new URL('server/server.js', distUrl).href);
  const { connect } = await import(new URL('testing/memory.js', distUrl).href);
  const { base, root } = await layout();
  const server = createServer({
    info: workspace.workspaceInfo,
    tools: workspace.createWorkspaceTools(root),
    resources: workspace.createWorkspaceResources(root),
    prompts: workspace.createWorkspacePrompts(root),
  });
  const client = await connect(server);
  const kinds = {};
  for (const kind of [...KINDS, ...SEARCHES]) {
    kinds[kind.name] = { calls: 0, escapes: 0, ok: 0, refused: 0, internal: 0, examples: [] };
  }
  const renamer = await startRenamer(root);
  const started = Date.now();
  const going = (list, min) => {
    const now = Date.now();
    if (now - started >= maxDurationMs) return false;
    return now - started < durationMs || list.some((kind) => kinds[kind.name].calls < min);
  };
  const loop = async (list, offset, min) => {
    for (let i = offset; going(list, min); i++) {
      const kind = list[i % list.length];
      const stats = kinds[kind.name];
      stats.calls++;
      let reply;
      let failed = false;
      try {
        reply = await kind.call(client);
        failed = reply?.isError === true;
      } catch (error) {
        reply = { error: error.message, code: error.code };
        failed = true;
      }
      if (escaped(reply)) {
        stats.escapes++;
        if (stats.examples.length < 2) stats.examples.push(JSON.stringify(reply).slice(0, 300));
      } else if (reply?.code === -32603) {
        stats.internal++; // a server fault, not a refusal
        if (stats.examples.length < 2) stats.examples.push(reply.error);
      } else if (failed) stats.refused++;
      else stats.ok++;
    }
  };
  let swaps = 0;
  try {
    await Promise.all([
      ...Array.from({ length: concurrency }, (_, i) => loop(KINDS, i, minCalls)),
      ...Array.from({ length: searchConcurrency }, (_, i) => loop(SEARCHES, i, minSearchCalls)),
    ]);
  } finally {
    swaps = await renamer.stop();
    await client.close();
    await rm(base, { recursive: true, force: true });
  }
  return { swaps, kinds };
}

/** One line per kind: calls, escapes, ok, refused and internal errors. */
export function formatRace({ swaps, kinds }) {
  const rows = Object.entries(kinds).map(
    ([name, s]) =>
      `  ${name.padEnd(20)} ${String(s.calls).padStart(7)} calls ${String(s.escapes).padStart(6)} escaped ` +
      `${String(s.ok).padStart(7)} ok ${String(s.refused).padStart(7)} refused ` +
      `${String(s.internal).padStart(5)} internal errors`,
  );
  return [`  renamer swaps: ${swaps}`, ...rows].join('\n');
}
