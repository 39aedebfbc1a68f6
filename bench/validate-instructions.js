// Instructions per validation under valgrind's callgrind: a count, not a time, so that two builds
// (or the interpreter before and after a change) can be compared on a busy machine. For each class
// of the corpus (bench/validate-corpus.js) and each kind of arguments (valid, invalid), two
// sessions run under callgrind: one compiles the schemas and warms up, the other does the same
// and then validates every value `calls` times; the difference divided by the validations is the
// figure. The same corpus file is used for every build compared.
//
//   node bench/validate-instructions.js [--calls=300] [--interpreter] [--class=recursive]
//        [--kind=valid] [label=/path/to/checkout ...]        (default: this checkout)
// Prints a markdown table: instructions per validation, per build, class and kind.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The child: `node validate-instructions.js --child corpus.json dist class kind calls interpreter`. */
async function child([file, dist, cls, kind, calls, interpreter]) {
  const { compileSchema } = await import(pathToFileURL(join(dist, 'dist/schema/validate.js')).href);
  const entries = JSON.parse(readFileSync(file, 'utf8')).filter((e) => e.class === cls);
  const options = interpreter === 'true' ? { codegen: false } : {};
  const runs = entries.map((e) => [compileSchema(e.schema, options), e[kind]]);
  for (const [v, values] of runs) for (let i = 0; i < 500; i++) v.validate(values[i % values.length]);
  let sink = 0;
  for (const [v, values] of runs) {
    for (let i = 0; i < Number(calls); i++) for (const x of values) sink += v.validate(x).valid ? 1 : 0;
  }
  if (sink < 0) console.log(sink);
}

function instructions(args) {
  const out = join(tmpdir(), `baremcp-vi-${process.pid}-${Math.random().toString(36).slice(2)}`);
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file',
    process.execPath, fileURLToPath(import.meta.url), '--child', ...args], { stdio: ['ignore', 'ignore', 'ignore'] });
  const text = readFileSync(out, 'utf8');
  rmSync(out, { force: true });
  return Number(/^(?:summary|totals):\s+(\d+)/m.exec(text)[1]);
}

if (process.argv[2] === '--child') {
  await child(process.argv.slice(3));
} else {
  const { values, positionals } = parseArgs({
    options: {
      calls: { type: 'string', default: '300' }, interpreter: { type: 'boolean', default: false },
      class: { type: 'string' }, kind: { type: 'string' },
    },
    allowPositionals: true,
  });
  const builds = positionals.length === 0 ? [['this', join(HERE, '..')]]
    : positionals.map((p) => [p.split('=')[0], resolve(p.split('=')[1])]);
  const { corpus } = await import('./validate-corpus.js');
  const entries = await corpus();
  const file = join(tmpdir(), `baremcp-vi-corpus-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(entries));
  const classes = values.class === undefined ? [...new Set(entries.map((e) => e.class))] : [values.class];
  const kinds = values.kind === undefined ? ['valid', 'invalid'] : [values.kind];
  const lines = ['| class | arguments | ' + builds.map(([l]) => `${l}: instructions per validation`).join(' | ') + ' |',
    '| --- | --- | ' + builds.map(() => '---').join(' | ') + ' |'];
  try {
    for (const cls of classes) {
      for (const kind of kinds) {
        const n = entries.filter((e) => e.class === cls).reduce((sum, e) => sum + e[kind].length, 0) * Number(values.calls);
        const cells = builds.map(([, dir]) => {
          const args = (calls) => [file, dir, cls, kind, String(calls), String(values.interpreter)];
          return Math.round((instructions(args(values.calls)) - instructions(args(0))) / n).toLocaleString('en');
        });
        lines.push(`| ${cls} | ${kind} | ${cells.join(' | ')} |`);
        process.stderr.write(lines.at(-1) + '\n');
      }
    }
  } finally {
    rmSync(file, { force: true });
  }
  console.log(lines.join('\n'));
}
