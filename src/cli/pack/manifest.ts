/**
 * The `manifest.json` of an MCP Bundle made by `baremcp pack`, from what the server says of
 * itself (`info`: name, title, version, description, websiteUrl; its tools) and from the
 * module's package.json (description, author, license, keywords, homepage, repository). The
 * bundle starts the server as `baremcp serve` does: `node <bundle>/node_modules/baremcp/<bin>
 * serve <bundle>/server/<module>`.
 *
 * Spec: MCPB manifest 0.4 (anthropics/mcpb, MANIFEST.md and `mcpb-manifest-v0.4.schema.json`:
 * required `manifest_version`, `name`, `version`, `description`, `author.name`, `server`;
 * `${__dirname}` in `mcp_config` is the bundle's folder once installed).
 * @module
 */
import type { Server } from '../../server/server.js';

/** The manifest version written. */
export const MANIFEST_VERSION = '0.4';

/** The fields of a package.json the manifest may take. */
export interface PackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  author?: unknown;
  license?: unknown;
  keywords?: unknown;
  homepage?: unknown;
  repository?: unknown;
  type?: unknown;
  engines?: { node?: unknown };
}

/** A manifest field the server and its package.json leave empty, and how to give it. */
export interface MissingField {
  field: string;
  fix: string;
}

/** What the bundle holds, for the manifest. */
export interface BundleFacts {
  /** The module's path in the bundle (`server/server.js`). */
  entry: string;
  /** baremcp's command line in the bundle (`node_modules/baremcp/dist/bundle/cli/main.js`). */
  cli: string;
  /** The Node.js versions the bundle runs on (baremcp's `engines.node`). */
  node: string | undefined;
  /** Set when a package has native code: the only platform the bundle runs on. */
  platform: NodeJS.Platform | undefined;
}

const isUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};
const isEmail = (value: unknown): value is string =>
  typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);

/** `Name <email> (url)` or `{ name, email, url }` as the manifest's `author`, or undefined. */
export function authorOf(value: unknown): { name: string; email?: string; url?: string } | undefined {
  let name: unknown;
  let email: unknown;
  let url: unknown;
  if (typeof value === 'string') {
    const m = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/.exec(value);
    [name, email, url] = [m?.[1] ?? value, m?.[2], m?.[3]];
  } else if (typeof value === 'object' && value !== null) {
    ({ name, email, url } = value as { name?: unknown; email?: unknown; url?: unknown });
  }
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  return {
    name: name.trim(),
    ...(isEmail(email) ? { email } : {}),
    ...(isUrl(url) ? { url } : {}),
  };
}

/**
 * The manifest for `server` packed with `facts`; `pkg` is the module's package.json, if any.
 * Returns the fields that neither says instead when a required one is missing.
 */
export function buildManifest(server: Server, pkg: PackageJson | undefined, facts: BundleFacts):
  { manifest: Record<string, unknown> } | { missing: MissingField[] } {
  const info = server.info;
  const description = info.description ?? pkg?.description;
  const author = authorOf(pkg?.author);
  const missing: MissingField[] = [];
  if (typeof description !== 'string' || description.trim() === '') {
    missing.push({
      field: 'description',
      fix: "give the server one (info: { ..., description: '...' }) or package.json a \"description\"",
    });
  }
  if (author === undefined) {
    missing.push({
      field: 'author',
      fix: 'give package.json an "author", e.g. "author": "Your Name <you@example.com>"',
    });
  }
  if (missing.length > 0) return { missing };
  const repository = pkg?.repository as { type?: unknown; url?: unknown } | undefined;
  const repositoryUrl = typeof repository?.url === 'string' ? repository.url.replace(/^git\+/, '') : undefined;
  const compatibility: Record<string, unknown> = {};
  if (facts.platform !== undefined) compatibility.platforms = [facts.platform];
  if (facts.node !== undefined) compatibility.runtimes = { node: facts.node };
  const manifest: Record<string, unknown> = {
    manifest_version: MANIFEST_VERSION,
    name: info.name,
    ...(info.title === undefined ? {} : { display_name: info.title }),
    version: info.version,
    description,
    author,
    ...(isUrl(info.websiteUrl) ? { homepage: info.websiteUrl } : isUrl(pkg?.homepage) ? { homepage: pkg.homepage } : {}),
    ...(typeof repository?.type === 'string' && isUrl(repositoryUrl)
      ? { repository: { type: repository.type, url: repositoryUrl } }
      : {}),
    server: {
      type: 'node',
      entry_point: facts.entry,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${facts.cli}`, 'serve', `\${__dirname}/${facts.entry}`],
      },
    },
    tools: server.tools.list().map((tool) => ({ name: tool.name, description: tool.description })),
    // Prompts are made by code (`get`), not the fixed text a manifest prompt has.
    ...(server.prompts.size > 0 ? { prompts_generated: true } : {}),
    ...(typeof pkg?.license === 'string' ? { license: pkg.license } : {}),
    ...(Array.isArray(pkg?.keywords) && pkg.keywords.every((k) => typeof k === 'string')
      ? { keywords: pkg.keywords }
      : {}),
    ...(Object.keys(compatibility).length > 0 ? { compatibility } : {}),
  };
  return { manifest };
}
