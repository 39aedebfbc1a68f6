// The input schemas of the official reference servers' tools (@modelcontextprotocol/server-
// everything, server-filesystem and server-memory, devDependencies), read from the installed
// packages: each server is started over stdio with the SDK client and asked for tools/list, so
// the schemas are exactly what a client receives. Tools whose schemas differ only in
// annotations (description, default, title, $schema) share one entry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ANNOTATIONS = new Set(['description', 'default', 'title', '$schema', 'examples']);

/** The schema without annotations, as a string: tools with equal shapes share an entry. */
function shape(schema) {
  return JSON.stringify(schema, (k, v) => (ANNOTATIONS.has(k) ? undefined : v));
}

/**
 * `[{ name, tools: [server/tool, ...], schema }]`, one entry per distinct schema shape, in the
 * servers' order. `$schema` (draft-07, as the SDK writes it) is dropped: both validators read
 * the schema as 2020-12.
 */
export async function referenceToolSchemas() {
  const dir = mkdtempSync(join(tmpdir(), 'baremcp-bench-tools-'));
  const servers = [
    ['everything', ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio']],
    ['filesystem', ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', dir]],
    ['memory', ['node_modules/@modelcontextprotocol/server-memory/dist/index.js']],
  ];
  const byShape = new Map();
  try {
    for (const [server, args] of servers) {
      const client = new Client({ name: 'baremcp-bench', version: '1.0.0' });
      await client.connect(new StdioClientTransport({
        command: process.execPath, args, cwd: ROOT, stderr: 'ignore',
        env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      }));
      try {
        const { tools } = await client.listTools();
        for (const tool of tools) {
          const { $schema, ...schema } = tool.inputSchema;
          const key = shape(schema);
          const entry = byShape.get(key);
          if (entry === undefined) byShape.set(key, { tools: [`${server}/${tool.name}`], schema });
          else entry.tools.push(`${server}/${tool.name}`);
        }
      } finally {
        await client.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [...byShape.values()].map((e) => ({
    name: e.tools.length === 1 ? e.tools[0] : `${e.tools[0]} (+${e.tools.length - 1} alike)`,
    ...e,
  }));
}
