/**
 * `baremcp init <dir>`: writes a minimal MCP server package, ready to test and publish: a
 * `package.json` with a `bin` and baremcp as its only dependency, one typed tool, a `node:test`
 * test through `baremcp/testing`, and a README with the client configuration snippets.
 *
 * Spec: MCP 2025-11-25, Basic / Transports / stdio; npm `package.json` (`bin`, `files`, `engines`).
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { UsageError, type ParsedArgs } from '../args.js';

/** A package name npm accepts, from a directory name: lower case, `[a-z0-9._-]`, no leading dot. */
export function packageName(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 214);
  return name === '' ? 'my-mcp-server' : name;
}

function ownVersion(): string {
  const pkg = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

// Imports of baremcp are written `from <<baremcp>>` below and quoted when written out, so that
// this file, which ships, does not look as if it imported a package (see test/publish.test.js).
const quoteImports = (text: string): string => text.replace(/<<([^>]+)>>/g, "'$1'");

const SERVER_JS = `// The server: one tool. Tests import it; \`npx baremcp serve server.js\` serves it too.
import { readFileSync } from 'node:fs';
import { createServer, defineTool } from <<baremcp>>;

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export const countWords = defineTool({
  name: 'count_words',
  description: 'Count the words in a text; with "word", also how often that word occurs.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to count in.' },
      word: { type: 'string', description: 'A word to count, in any letter case.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { words: { type: 'integer' }, occurrences: { type: 'integer' } },
    required: ['words'],
  },
  run: ({ text, word }) => {
    const words = text.split(/\\s+/).filter(Boolean);
    const same = (w) => w.toLowerCase() === word?.toLowerCase();
    const occurrences = word === undefined ? {} : { occurrences: words.filter(same).length };
    return { content: [], structuredContent: { words: words.length, ...occurrences } };
  },
});

export default createServer({ info: { name: pkg.name, version: pkg.version }, tools: [countWords] });
`;

const BIN_JS = `#!/usr/bin/env node
// The executable an MCP client starts: serves the server on stdin/stdout until the client leaves.
import { serveStdio } from <<baremcp/stdio>>;
import server from './server.js';

serveStdio(server);
`;

const TEST_JS = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { connect, spawnClient, textOf } from <<baremcp/testing>>;
import server from '../server.js';

test('count_words counts words and one word', async () => {
  const client = await connect(server);
  const result = await client.callTool('count_words', { text: 'the cat and the hat', word: 'The' });
  assert.deepEqual(result.structuredContent, { words: 5, occurrences: 2 });
  await client.close();
});

test('a call without text is an error result that names the missing argument', async () => {
  const client = await connect(server);
  const result = await client.callTool('count_words', {});
  assert.equal(result.isError, true);
  assert.match(textOf(result), /text/);
  await client.close();
});

test('the bin serves the tool over stdio', async () => {
  const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
  const client = await spawnClient(process.execPath, [bin]);
  assert.deepEqual((await client.listTools()).map((tool) => tool.name), ['count_words']);
  assert.deepEqual(client.strayOutput, []);
  await client.close();
});
`;

function readme(name: string): string {
  const quoted = JSON.stringify(name);
  const config = `{\n  "mcpServers": {\n    ${quoted}: { "command": "npx", "args": ["-y", ${quoted}] }\n  }\n}`;
  return `# ${name}

A [Model Context Protocol](https://modelcontextprotocol.io) server, built with
[baremcp](https://www.npmjs.com/package/baremcp). It has one tool, \`count_words\`.

## Use it

Claude Desktop (\`claude_desktop_config.json\`) and Cursor (\`.cursor/mcp.json\`):

\`\`\`json
${config}
\`\`\`

Claude Code:

\`\`\`sh
claude mcp add ${name} -- npx -y ${name}
\`\`\`

Before it is published, use \`"command": "node", "args": ["/absolute/path/to/bin.js"]\`.

## Develop

\`\`\`sh
npm install
npm test                                          # node:test, through baremcp/testing
npx baremcp call --server ./server.js count_words '{"text":"a b c"}'
npx baremcp check ./server.js --profile mcp       # lint the schemas (add openai, anthropic, gemini as you need)
npm publish                                       # then anyone can run: npx -y ${name}
\`\`\`

Tools live in \`server.js\`; \`bin.js\` serves them on stdio. Never write to stdout in a tool: it
carries protocol messages only (baremcp moves \`console.log\` to stderr).
`;
}

/** The files of a new server package named `name`, by path relative to its directory. */
export function starterFiles(name: string, baremcpVersion: string): Map<string, string> {
  const pkg = {
    name,
    version: '0.1.0',
    description: 'A Model Context Protocol server.',
    type: 'module',
    bin: { [name]: 'bin.js' },
    files: ['server.js', 'bin.js', 'README.md'],
    scripts: { start: 'node bin.js', test: 'node --test' },
    engines: { node: '>=20.6' },
    keywords: ['mcp', 'model-context-protocol', 'mcp-server'],
    license: 'MIT',
    dependencies: { baremcp: `^${baremcpVersion}` },
  };
  return new Map([
    ['package.json', JSON.stringify(pkg, null, 2) + '\n'],
    ['server.js', quoteImports(SERVER_JS)],
    ['bin.js', quoteImports(BIN_JS)],
    ['test/server.test.js', quoteImports(TEST_JS)],
    ['README.md', readme(name)],
    ['.gitignore', 'node_modules/\n'],
  ]);
}

/**
 * Runs `init <dir>`: creates `dir` (and its parents) when missing and writes the starter files.
 * @throws {UsageError} when no directory is named, or it is a file or a non-empty directory
 *   (nothing is overwritten).
 */
export function runInit(args: ParsedArgs): number {
  const dir = args.positionals[0];
  if (dir === undefined)
    throw new UsageError('init: name the directory to create, e.g. baremcp init my-server');
  const target = resolve(dir);
  let entries: string[] | undefined;
  try {
    entries = statSync(target).isDirectory() ? readdirSync(target) : undefined;
    if (entries === undefined) throw new UsageError(`init: ${dir} is a file, not a directory`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    entries = [];
  }
  if (entries.length > 0)
    throw new UsageError(`init: ${dir} is not empty; name a new or empty directory`);
  const name = packageName(target);
  const files = starterFiles(name, ownVersion());
  mkdirSync(join(target, 'test'), { recursive: true });
  for (const [path, text] of files)
    writeFileSync(join(target, path), text, { mode: path === 'bin.js' ? 0o755 : 0o644 });
  const shown = relative(process.cwd(), target).startsWith('..')
    ? target
    : relative(process.cwd(), target) || '.';
  process.stdout.write(
    `Created ${name} in ${shown}: ${[...files.keys()].join(', ')}\n\n` +
      `Next:\n  cd ${shown}\n  npm install\n  npm test\n`,
  );
  return 0;
}
