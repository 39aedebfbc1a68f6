// Benchmark: compile time and validations per second of baremcp's JSON Schema validator against
// ajv (compiled, code-generating) and @cfworker/json-schema (interpreting), on four realistic
// tool input schemas. Prints ratios (baremcp over the other: above 1 means baremcp is faster).
//
// Run: `npm run bench` (bench/run.js imports benchValidate), or `node bench/validate.js` after a
// build; `node bench/validate.js --runs=5` repeats every measurement five times, interleaved, and
// prints the medians (the figures move a lot on a shared machine). @cfworker/json-schema is
// optional: its columns show "n/a" when it is not installed.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compileSchema } from '../dist/schema/validate.js';

export const SCHEMAS = {
  'flat object of primitives': {
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'File to read' },
        encoding: { type: 'string', enum: ['utf8', 'base64'] },
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: 10000 },
        follow: { type: 'boolean' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    values: [
      { path: '/etc/hosts' },
      { path: 'src/index.ts', encoding: 'utf8', offset: 10, limit: 200 },
      { path: 'README.md', follow: true, limit: 50 },
      { path: 'a/b/c.txt', encoding: 'base64', offset: 0, limit: 10000, follow: false },
    ],
  },
  'nested objects with arrays': {
    schema: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 256 },
        body: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' }, maxItems: 20, uniqueItems: true },
        assignees: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              login: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
              role: { type: 'string', enum: ['owner', 'reviewer', 'watcher'] },
            },
            required: ['login'],
            additionalProperties: false,
          },
        },
        milestone: {
          type: 'object',
          properties: { id: { type: 'integer' }, due: { type: 'string' } },
          required: ['id'],
        },
        metadata: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['title'],
      additionalProperties: false,
    },
    values: [
      { title: 'Crash on start' },
      {
        title: 'Add dark mode', body: 'Users asked for it.', labels: ['ui', 'feature'],
        assignees: [{ login: 'ada', role: 'owner' }, { login: 'linus' }],
      },
      { title: 'Docs', milestone: { id: 3, due: '2025-01-01' }, metadata: { area: 'docs', size: 's' } },
      {
        title: 'Refactor', labels: ['tech-debt'], assignees: [{ login: 'grace', role: 'reviewer' }],
        milestone: { id: 7 },
      },
    ],
  },
  '$defs/$ref schema': {
    schema: {
      $defs: {
        filter: {
          type: 'object',
          properties: {
            field: { type: 'string' },
            op: { enum: ['eq', 'ne', 'lt', 'gt', 'in'] },
            value: { type: ['string', 'number', 'boolean', 'null'] },
          },
          required: ['field', 'op', 'value'],
        },
        sort: {
          type: 'object',
          properties: { field: { type: 'string' }, order: { enum: ['asc', 'desc'] } },
          required: ['field'],
        },
        page: {
          type: 'object',
          properties: {
            size: { type: 'integer', minimum: 1, maximum: 100 },
            cursor: { type: 'string' },
          },
        },
      },
      type: 'object',
      properties: {
        table: { type: 'string' },
        filters: { type: 'array', items: { $ref: '#/$defs/filter' } },
        sort: { type: 'array', items: { $ref: '#/$defs/sort' } },
        page: { $ref: '#/$defs/page' },
      },
      required: ['table'],
    },
    values: [
      { table: 'users' },
      { table: 'orders', filters: [{ field: 'total', op: 'gt', value: 100 }], page: { size: 20 } },
      {
        table: 'events',
        filters: [{ field: 'kind', op: 'eq', value: 'login' }, { field: 'ok', op: 'ne', value: false }],
        sort: [{ field: 'at', order: 'desc' }],
      },
      { table: 'logs', sort: [{ field: 'level' }], page: { size: 100, cursor: 'abc' } },
    ],
  },
  'anyOf union': {
    schema: {
      type: 'object',
      properties: {
        action: {
          anyOf: [
            {
              type: 'object',
              properties: { type: { const: 'click' }, selector: { type: 'string' } },
              required: ['type', 'selector'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: {
                type: { const: 'type' }, selector: { type: 'string' }, text: { type: 'string' },
              },
              required: ['type', 'selector', 'text'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { type: { const: 'navigate' }, url: { type: 'string' } },
              required: ['type', 'url'],
              additionalProperties: false,
            },
          ],
        },
        timeoutMs: { type: 'integer', minimum: 0 },
      },
      required: ['action'],
    },
    values: [
      { action: { type: 'click', selector: '#ok' } },
      { action: { type: 'type', selector: 'input', text: 'hello' }, timeoutMs: 500 },
      { action: { type: 'navigate', url: 'https://example.com' } },
      { action: { type: 'navigate', url: 'https://example.org/a' }, timeoutMs: 0 },
    ],
  },
};

async function loadCompetitors() {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: false });
  let CfValidator;
  try {
    ({ Validator: CfValidator } = await import('@cfworker/json-schema'));
  } catch {
    CfValidator = undefined;
  }
  return {
    baremcp: (schema) => {
      const v = compileSchema(schema);
      return (x) => v.validate(x).valid;
    },
    ajv: (schema) => ajv.compile(schema),
    cfworker: CfValidator === undefined ? undefined : (schema) => {
      const v = new CfValidator(schema, '2020-12', true);
      return (x) => v.validate(x).valid;
    },
  };
}

/** Mean microseconds per compile, over fresh copies of the schema (ajv caches by object). */
function timeCompile(compile, schema, rounds) {
  const copies = Array.from({ length: rounds }, () => structuredClone(schema));
  for (let i = 0; i < Math.min(20, rounds); i++) compile(structuredClone(schema));
  const start = performance.now();
  for (const copy of copies) compile(copy);
  return ((performance.now() - start) * 1000) / rounds;
}

/** Validations per second, cycling through the values, for about `ms` milliseconds. */
function timeValidate(validate, values, ms) {
  for (let i = 0; i < 20000; i++) validate(values[i % values.length]);
  let n = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 10000; i++) sink += validate(values[i & 3]) ? 1 : 0;
    n += 10000;
    elapsed = performance.now() - start;
  }
  if (sink !== n) throw new Error('a benchmark value is invalid');
  return (n / elapsed) * 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs the benchmark and returns one row per schema: compile time (µs) and validations per
 * second for baremcp, ajv and @cfworker/json-schema, and baremcp's ratios against each. With
 * `runs` > 1 every figure is the median of that many measurements, taken in turn per library.
 */
export async function benchValidate({ ms = 600, rounds = 200, print = true, runs = 1 } = {}) {
  const libs = await loadCompetitors();
  const rows = [];
  for (const [name, { schema, values }] of Object.entries(SCHEMAS)) {
    const row = { schema: name };
    const validators = {};
    for (const [lib, compile] of Object.entries(libs)) {
      if (compile === undefined) continue;
      const validate = compile(schema);
      for (const v of values) {
        if (!validate(v)) throw new Error(`${lib} rejects a value of "${name}"`);
      }
      validators[lib] = validate;
    }
    const compileUs = {};
    const opsPerSec = {};
    for (let run = 0; run < runs; run++) {
      for (const [lib, validate] of Object.entries(validators)) {
        (compileUs[lib] ??= []).push(timeCompile(libs[lib], schema, rounds));
        (opsPerSec[lib] ??= []).push(timeValidate(validate, values, ms));
      }
    }
    for (const lib of Object.keys(validators)) {
      row[`${lib}CompileUs`] = median(compileUs[lib]);
      row[`${lib}OpsPerSec`] = median(opsPerSec[lib]);
    }
    row.compileVsAjv = row.ajvCompileUs / row.baremcpCompileUs;
    row.throughputVsAjv = row.baremcpOpsPerSec / row.ajvOpsPerSec;
    if (row.cfworkerOpsPerSec !== undefined) {
      row.compileVsCfworker = row.cfworkerCompileUs / row.baremcpCompileUs;
      row.throughputVsCfworker = row.baremcpOpsPerSec / row.cfworkerOpsPerSec;
    }
    rows.push(row);
  }
  if (print) printRows(rows);
  return rows;
}

function printRows(rows) {
  const f = (x, digits = 1) => (x === undefined ? 'n/a' : x.toFixed(digits));
  const k = (x) => (x === undefined ? 'n/a' : `${(x / 1e6).toFixed(2)}M`);
  console.log('JSON Schema validation (ratios are baremcp / other; > 1 means baremcp is faster)');
  console.log(['schema', 'compile µs baremcp/ajv/cfworker', 'compile ×ajv', 'compile ×cfw',
    'validations/s baremcp/ajv/cfworker', 'speed ×ajv', 'speed ×cfw'].join(' | '));
  for (const r of rows) {
    console.log([
      r.schema,
      `${f(r.baremcpCompileUs)} / ${f(r.ajvCompileUs)} / ${f(r.cfworkerCompileUs)}`,
      f(r.compileVsAjv), f(r.compileVsCfworker),
      `${k(r.baremcpOpsPerSec)} / ${k(r.ajvOpsPerSec)} / ${k(r.cfworkerOpsPerSec)}`,
      f(r.throughputVsAjv, 2), f(r.throughputVsCfworker, 2),
    ].join(' | '));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 1);
  await benchValidate({ runs: Number.isInteger(runs) && runs > 0 ? runs : 1 });
}
