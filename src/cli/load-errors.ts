/**
 * What a person reads when Node cannot load a served module (`serve`, `check`, and through
 * `serve`, `call --server`): the file, line, column and a caret for a syntax error; for an ES
 * module that Node reads as CommonJS, which package.json decides that and how to change it; for a
 * TypeScript file, which Node runs it and what to do on this one; for an exception thrown while
 * the module runs, the error and the line of the module that threw.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleFiles } from './module-files.js';

/** A module that exists but could not be loaded; the CLI prints the message and exits with 3. */
export class ModuleLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModuleLoadError';
  }
}

/** Where a syntax error is, as Node shows it: `file:line`, the line, a caret under the token. */
export interface SyntaxLocation {
  /** Absolute path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column of the caret's first `^`; undefined when Node shows no caret. */
  column: number | undefined;
  /** The source line. */
  source: string;
  /** The caret line (spaces, then `^` under the token); empty when Node shows none. */
  caret: string;
  /** The SyntaxError's message, when the text gives it. */
  message: string | undefined;
}

/** Node's "arrow" header: `/path/file.js:6`, the source line, the caret line. */
const ARROW =
  /^(\/[^\n]*?|[A-Za-z]:\\[^\n]*?):(\d+)\n([^\n]*)\n( *\^*)\n(?:\n?(?:SyntaxError: ([^\n]*)))?/m;

/** Reads Node's arrow header out of a stack or of `node --check` output; undefined without one. */
export function parseSyntaxLocation(text: string): SyntaxLocation | undefined {
  const m = ARROW.exec(text);
  if (m === null) return undefined;
  const caret = m[4] as string;
  return {
    file: m[1] as string,
    line: Number(m[2]),
    column: caret.includes('^') ? caret.indexOf('^') + 1 : undefined,
    source: m[3] as string,
    caret,
    message: m[5],
  };
}

/**
 * Finds the syntax error of the module at `path`: Node reports an ES module's syntax error
 * without a place, so each of the module's own files (`module-files.ts`) is checked with
 * `node --check` until one fails. Only on the error path: each check is a process (~40 ms), and
 * node:child_process is imported here, not at start-up (it costs a server 2-5 ms to load).
 */
export async function locateSyntaxError(path: string): Promise<SyntaxLocation | undefined> {
  const { spawnSync } = await import('node:child_process');
  for (const { path: file } of moduleFiles(path)) {
    const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    if (check.status === 0) continue;
    const found = parseSyntaxLocation(check.stderr ?? '');
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The lines that show a syntax error at `where`. */
function showSyntax(where: SyntaxLocation, message: string): string {
  const column = where.column === undefined ? '' : `:${where.column}`;
  const caret = where.caret === '' ? '' : `${where.caret}\n`;
  return `a syntax error at ${where.file}:${where.line}${column}\n` +
    `${where.source}\n${caret}SyntaxError: ${message}`;
}

/** The nearest package.json at or above `dir` with its "type", or undefined. */
function nearestPackage(dir: string): { file: string; type: unknown } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    try {
      return { file, type: (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') return { file, type: undefined };
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * An ES module read as CommonJS: what decided that, and the two ways out (indented lines).
 * `subject` names the file in the text (`it` for the module itself).
 */
function commonJsAdvice(file: string, subject: string): string {
  const name = basename(file);
  const mjs = name.replace(/\.[cm]?js$/, '') + '.mjs';
  const head = `${subject} is an ES module (it uses import/export), but Node loads it as CommonJS`;
  if (name.endsWith('.cjs')) {
    return `${head}:\n  its name ends in .cjs.\n` +
      `  It must load as an ES module: rename it to ${mjs}.`;
  }
  const pkg = nearestPackage(dirname(file));
  const why = pkg === undefined
    ? 'no package.json above it says "type": "module"'
    : pkg.type === 'commonjs'
      ? `${pkg.file} says "type": "commonjs" (npm init -y writes that since npm 11)`
      : `${pkg.file} does not say "type": "module"`;
  const fix = pkg === undefined
    ? 'add a package.json with {"type": "module"} beside it'
    : `set "type": "module" in ${pkg.file}`;
  return `${head}:\n  ${why}.\n` +
    `  It must load as an ES module: ${fix}, or rename the file to ${mjs}.`;
}

/**
 * Which Node runs a `.ts` module directly, and what to do on this one (indented lines).
 * `subject` names the file in the text (`it` for the module itself); `shown` is the module as
 * the person typed it; `version` defaults to this Node's.
 */
export function typeScriptAdvice(subject: string, shown: string,
  version: string = process.version): string {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const flagged = (major === 22 && minor >= 6 && minor < 18) || (major === 23 && minor < 6);
  const compile = 'Or compile it (for example with npx tsc) and serve the .js file.';
  if (flagged) {
    return `${subject} is TypeScript, which Node ${version} runs only with a flag:\n` +
      `  NODE_OPTIONS=--experimental-strip-types baremcp serve ${shown}\n` +
      `  (Node 22.18 or later needs none.) ${compile}`;
  }
  return `${subject} is TypeScript, which Node ${version} cannot run.\n` +
    '  Node 22.18 or later (and 23.6 or later) runs .ts modules as they are (erasable syntax ' +
    `only: no enum, no namespace).\n  ${compile}`;
}

/** The first frame of `stack` in a file that is not Node's own or this package's, if any. */
function userFrame(stack: string, own: string | undefined): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const m = /\((file:\/\/[^)]+|\/[^)]+)\)$|at (file:\/\/\S+|\/\S+)$/.exec(line.trim());
    const where = m?.[1] ?? m?.[2];
    if (where === undefined) continue;
    const path = where.startsWith('file:') ? fileURLToPath(where.replace(/:\d+:\d+$/, '')) : where;
    if (own !== undefined && path.startsWith(own)) continue;
    return line.trim();
  }
  return undefined;
}

/**
 * The message for `error`, thrown by importing the module at `path` (`shown` as the person typed
 * it). `ownRoot` is this package's folder (frames in it are skipped when pointing at the line).
 */
export async function explainLoadError(error: unknown, shown: string, path: string,
  ownRoot?: string): Promise<string> {
  const prefix = `cannot load ${shown}: `;
  if (!(error instanceof Error)) return prefix + String(error);
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    const file = /for (\S+)$/.exec(error.message)?.[1] ?? path;
    if (/\.[cm]?ts$/.test(file)) {
      return prefix + typeScriptAdvice(file === path ? 'it' : file, shown);
    }
  }
  if (error.name === 'SyntaxError') {
    const arrow = parseSyntaxLocation(error.stack ?? '');
    if (arrow !== undefined &&
      /^(Unexpected token 'export'|Cannot use import statement outside a module)/
        .test(error.message)) {
      return prefix + commonJsAdvice(arrow.file, arrow.file === path ? 'it' : arrow.file);
    }
    const where = arrow ?? (await locateSyntaxError(path));
    if (where !== undefined) return prefix + showSyntax(where, where.message ?? error.message);
    return `${prefix}SyntaxError: ${error.message} (in it or in a file it imports)`;
  }
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const pkg = /^Cannot find package '([^']+)' imported from (.+)$/.exec(error.message);
    if (pkg !== null) {
      return `${prefix}${error.message}: install it where that file can find it ` +
        `(npm install ${pkg[1]} in ${dirname(pkg[2] as string)} or a folder above)`;
    }
    return prefix + error.message;
  }
  const frame = userFrame(error.stack ?? '', ownRoot);
  return `${prefix}${error.name}: ${error.message}${frame === undefined ? '' : `\n    ${frame}`}`;
}
