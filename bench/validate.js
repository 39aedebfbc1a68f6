// Benchmark: baremcp's JSON Schema validator against ajv 8 (Ajv2020, allErrors: every error
// collected, with its message, as baremcp does), per schema of a realistic corpus
// (bench/validate-corpus.js): the official reference servers' tools, API-shaped schemas,
// recursive $ref schemas and unevaluatedProperties. For each schema: compile time, and CPU time
// per validation of valid arguments and of invalid arguments (each invalid value's errors
// collected), as ratios (ajv's time over baremcp's: above 1 means baremcp is faster).
//
// Measurements are CPU time (process.cpuUsage), interleaved: each round measures every library
// in turn (the order rotates) on the same schema, and a figure is the median of the rounds. Both
// validators run in their steady state: ajv's compiled code, baremcp's generated code (its
// default from the 4th validation on); `--interpreter` adds baremcp with `codegen: false`.
// `format` is an annotation for both (baremcp's default; ajv with validateFormats: false).
//
//   npm run bench                         (bench/run.js imports benchValidate)
//   node bench/validate.js [--runs=5] [--ms=40] [--only=text] [--interpreter]
//                          [--baseline=/path/to/other/checkout]   (its dist/, side by side)
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compileSchema } from '../dist/schema/validate.js';
import { corpus } from './validate-corpus.js';

// A full garbage collection before each timed batch, so that one library's batch does not pay
// for the garbage of another's (or of compiling).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * A text made flat (its characters in one piece), as writing it to the wire does: both
 * libraries build their text by concatenation, which V8 defers.
 */
const flat = (text) => (text.charCodeAt(text.length - 1), text);

/**
 * A baremcp-like library from its `compileSchema`: `check` validates, `text` also writes what the
 * server answers a model (src/server/tool-call.ts: one line per error message).
 */
function ours(compile, options = {}) {
  return {
    compile: (schema) => compile(schema),
    validator: (schema) => {
      const v = compile(schema, options);
      return {
        check: (x) => v.validate(x),
        text: (x) => {
          const r = v.validate(x);
          return r.valid || flat(r.errors.map((e) => `- ${e.message}`).join('\n'));
        },
      };
    },
    valid: (r) => r.valid,
  };
}

async function libraries({ interpreter, baseline }) {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const options = { strict: false, allErrors: true, validateFormats: false };
  const libs = {
    baremcp: ours(compileSchema),
    ajv: {
      // One instance per batch of compiles: ajv keeps every compiled schema.
      compile: (schema, ajv) => ajv.compile(schema),
      instance: () => new Ajv2020(options),
      validator: (schema) => {
        const ajv = new Ajv2020(options);
        const validate = ajv.compile(schema);
        return {
          check: (x) => (validate(x) ? true : validate.errors),
          // As the MCP SDK's AjvJsonSchemaValidator answers an invalid value.
          text: (x) => validate(x) || flat(ajv.errorsText(validate.errors)),
        };
      },
      valid: (r) => r === true,
    },
  };
  if (interpreter) {
    libs.interpreter = ours(compileSchema, { codegen: false });
    delete libs.interpreter.compile;
  }
  if (baseline !== undefined) {
    const url = pathToFileURL(join(resolve(baseline), 'dist/schema/validate.js')).href;
    const { compileSchema: other } = await import(url);
    libs.baseline = ours(other, interpreter ? { codegen: false } : {});
  }
  return libs;
}

/** CPU nanoseconds per call of `fn` on `values` (cycled), over at least `ms` of CPU time. */
function timeCalls(fn, values, ms) {
  let n = 256;
  for (;;) {
    gc();
    const start = cpuNs();
    let sink = 0;
    for (let i = 0; i < n; i++) sink += fn(values[i % values.length]) === true ? 1 : 0;
    const spent = cpuNs() - start;
    globalThis.__sink = sink;
    if (spent >= ms * 1e6) return spent / n;
    n = spent < 1e6 ? n * 8 : Math.ceil((n * ms * 1.1e6) / spent);
  }
}

/** CPU microseconds per compile of a fresh copy of `schema`. */
function timeCompile(lib, schema, rounds) {
  const copies = Array.from({ length: rounds }, () => structuredClone(schema));
  const instance = lib.instance?.();
  gc();
  const start = cpuNs();
  for (const copy of copies) lib.compile(copy, instance);
  return (cpuNs() - start) / rounds / 1000;
}

/**
 * Runs the benchmark: one row per schema with compile µs and ns per validation (valid and
 * invalid arguments) for each library, and baremcp's ratios to ajv (ajv's time / baremcp's).
 * Returns `{ rows, classes, markdown }`.
 */
export async function benchValidate({
  ms = 40, rounds = 100, runs = 5, print = true, quick = false, only, interpreter = false, baseline,
} = {}) {
  if (quick) {
    ms = Math.min(ms, 15);
    runs = Math.min(runs, 3);
    rounds = Math.min(rounds, 30);
  }
  const libs = await libraries({ interpreter, baseline });
  const names = Object.keys(libs);
  const entries = (await corpus()).filter((e) => only === undefined || e.name.includes(only) || e.class === only);
  const rows = [];
  for (const entry of entries) {
    const fns = {};
    for (const [lib, l] of Object.entries(libs)) {
      const fn = l.validator(entry.schema);
      for (const v of entry.valid) {
        if (!l.valid(fn.check(v))) throw new Error(`${lib} rejects a valid value of "${entry.name}": ${JSON.stringify(v)}`);
      }
      for (const v of entry.invalid) {
        if (l.valid(fn.check(v))) throw new Error(`${lib} accepts an invalid value of "${entry.name}": ${JSON.stringify(v)}`);
      }
      // Warm up (and let baremcp generate its code).
      for (let i = 0; i < 2000; i++) fn.check(entry.valid[i % entry.valid.length]);
      for (let i = 0; i < 2000; i++) fn.text(entry.invalid[i % entry.invalid.length]);
      fns[lib] = fn;
    }
    const t = {};
    for (let run = 0; run < runs; run++) {
      const order = names.map((_, i) => names[(i + run) % names.length]);
      for (const lib of order) {
        const rec = (t[lib] ??= { valid: [], invalid: [], text: [], compile: [] });
        rec.valid.push(timeCalls(fns[lib].check, entry.valid, ms));
        rec.invalid.push(timeCalls(fns[lib].check, entry.invalid, ms));
        rec.text.push(timeCalls(fns[lib].text, entry.invalid, ms));
      }
    }
    // Compile last: its garbage (ajv keeps its compiled schemas) stays out of the timings above.
    for (let run = 0; run < runs; run++) {
      for (const lib of names.map((_, i) => names[(i + run) % names.length])) {
        if (libs[lib].compile !== undefined) t[lib].compile.push(timeCompile(libs[lib], entry.schema, rounds));
      }
    }
    const row = { schema: entry.name, class: entry.class };
    for (const lib of names) {
      row[`${lib}ValidNs`] = median(t[lib].valid);
      row[`${lib}InvalidNs`] = median(t[lib].invalid);
      row[`${lib}TextNs`] = median(t[lib].text);
      if (t[lib].compile.length > 0) row[`${lib}CompileUs`] = median(t[lib].compile);
    }
    row.validVsAjv = row.ajvValidNs / row.baremcpValidNs;
    row.invalidVsAjv = row.ajvInvalidNs / row.baremcpInvalidNs;
    row.textVsAjv = row.ajvTextNs / row.baremcpTextNs;
    row.compileVsAjv = row.ajvCompileUs / row.baremcpCompileUs;
    if (interpreter) {
      row.interpreterValidVsAjv = row.ajvValidNs / row.interpreterValidNs;
      row.interpreterInvalidVsAjv = row.ajvInvalidNs / row.interpreterInvalidNs;
    }
    if (baseline !== undefined) {
      // The same backend on both sides: the interpreter with --interpreter, else the default.
      const mine = interpreter ? 'interpreter' : 'baremcp';
      row.validVsBaseline = row.baselineValidNs / row[`${mine}ValidNs`];
      row.invalidVsBaseline = row.baselineInvalidNs / row[`${mine}InvalidNs`];
    }
    rows.push(row);
    if (print) {
      process.stderr.write(`  ${entry.name}: valid ${row.validVsAjv.toFixed(2)}x, invalid ${row.invalidVsAjv.toFixed(2)}x ` +
        `(to text ${row.textVsAjv.toFixed(2)}x), compile ${row.compileVsAjv.toFixed(1)}x\n`);
    }
  }
  const classes = summarise(rows);
  const markdown = render(rows, classes, { interpreter, baseline });
  if (print) console.log(markdown);
  return { rows, classes, markdown };
}

/** Per class: the lowest and the median ratio to ajv, valid, invalid and compile. */
function summarise(rows) {
  const out = [];
  for (const cls of [...new Set(rows.map((r) => r.class))]) {
    const rs = rows.filter((r) => r.class === cls);
    const stat = (k) => ({ min: Math.min(...rs.map((r) => r[k])), median: median(rs.map((r) => r[k])) });
    out.push({
      class: cls, schemas: rs.length, valid: stat('validVsAjv'), invalid: stat('invalidVsAjv'),
      text: stat('textVsAjv'), compile: stat('compileVsAjv'),
    });
  }
  return out;
}

function render(rows, classes, { interpreter, baseline }) {
  const ns = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} µs` : `${v.toFixed(0)} ns`);
  const x = (v) => `${v.toFixed(2)}×`;
  const head = ['schema', 'class', 'valid: baremcp / ajv', '×ajv', 'invalid, errors: baremcp / ajv', '×ajv',
    'invalid, to text: baremcp / ajv', '×ajv', 'compile µs: baremcp / ajv', '×ajv'];
  if (interpreter) head.push('interpreter valid ×ajv', 'interpreter invalid ×ajv');
  if (baseline !== undefined) {
    head.push(`${interpreter ? 'interpreter' : 'valid'} ×baseline`, `${interpreter ? 'interpreter ' : ''}invalid ×baseline`);
  }
  const lines = [
    'CPU time per validation (median of interleaved rounds); ×ajv = ajv\'s time / baremcp\'s (above 1: baremcp is ' +
      'faster). ajv 8 Ajv2020 with allErrors. "invalid, errors": the validation of invalid arguments, every error ' +
      'collected; "invalid, to text": that and the text a server sends the model (baremcp: one line per message, as ' +
      'its tools/call does; ajv: errorsText, as the MCP SDK\'s AjvJsonSchemaValidator does).',
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
  ];
  for (const r of rows) {
    const cells = [r.schema, r.class, `${ns(r.baremcpValidNs)} / ${ns(r.ajvValidNs)}`, x(r.validVsAjv),
      `${ns(r.baremcpInvalidNs)} / ${ns(r.ajvInvalidNs)}`, x(r.invalidVsAjv),
      `${ns(r.baremcpTextNs)} / ${ns(r.ajvTextNs)}`, x(r.textVsAjv),
      `${r.baremcpCompileUs.toFixed(0)} / ${r.ajvCompileUs.toFixed(0)}`, x(r.compileVsAjv)];
    if (interpreter) cells.push(x(r.interpreterValidVsAjv), x(r.interpreterInvalidVsAjv));
    if (baseline !== undefined) cells.push(x(r.validVsBaseline), x(r.invalidVsBaseline));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('', '| class | schemas | valid ×ajv (lowest, median) | invalid, errors ×ajv | invalid, to text ×ajv | compile ×ajv |',
    '| --- | --- | --- | --- | --- | --- |');
  for (const c of classes) {
    const pair = (s) => `${x(s.min)}, ${x(s.median)}`;
    lines.push(`| ${c.class} | ${c.schemas} | ${pair(c.valid)} | ${pair(c.invalid)} | ${pair(c.text)} | ${pair(c.compile)} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' }, ms: { type: 'string' }, only: { type: 'string' },
      interpreter: { type: 'boolean', default: false }, baseline: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  await benchValidate({
    runs: values.runs === undefined ? undefined : Number(values.runs),
    ms: values.ms === undefined ? undefined : Number(values.ms),
    only: values.only, interpreter: values.interpreter, baseline: values.baseline, quick: values.quick,
  });
}
