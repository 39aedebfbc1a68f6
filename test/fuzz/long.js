// The long fuzz run (`npm run fuzz`): generated sessions (2025-03-26 batches among them) against
// the dispatcher, the stdio transport and the Streamable HTTP handler (legacy sessions) for
// FUZZ_SECONDS (default 180), then a summary: cases run, crashes, lost and
// duplicated replies, invalid replies, known deviations, and memory. Exit code 1 on any failure.
//
//   FUZZ_SECONDS=600 FUZZ_SEED=42 npm run fuzz
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { session, byteSession } from './arbitraries.js';
import { FUZZ_LIMITS } from './fixture.js';
import { runHttpSession } from './http.js';
import { runHandleSession, runStdioSession } from './run.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const seconds = Number(process.env.FUZZ_SECONDS ?? 180);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const BATCH = 25;
/** Heap growth (after GC) past which the run counts as leaking. */
const MAX_HEAP_GROWTH = 64 * 1024 * 1024;

const modes = [
  { name: 'handle', arbitrary: session, run: (s) => runHandleSession(s) },
  {
    name: 'stdio',
    arbitrary: byteSession(FUZZ_LIMITS.maxLineBytes),
    run: (s) => runStdioSession(s, { maxLineBytes: FUZZ_LIMITS.maxLineBytes }),
  },
  { name: 'http', arbitrary: session, run: (s) => runHttpSession(s) },
  {
    name: 'stdio, 2 in flight, slow reader',
    arbitrary: byteSession(FUZZ_LIMITS.maxLineBytes),
    run: (s) =>
      runStdioSession(s, {
        maxLineBytes: FUZZ_LIMITS.maxLineBytes,
        maxInFlight: 2,
        slowReader: true,
      }),
  },
];

const totals = {
  cases: 0,
  messages: 0,
  replies: 0,
  crashes: 0,
  failing: 0,
  lost: 0,
  duplicated: 0,
  invalid: 0,
  idlessOld: 0,
  wrongIdOnRefusedLine: 0,
};
const perMode = Object.fromEntries(modes.map((m) => [m.name, 0]));
const failures = [];
gc();
const heapStart = process.memoryUsage().heapUsed;
let rssPeak = process.memoryUsage().rss;
const started = Date.now();
const deadline = started + seconds * 1000;
let lastReport = started;

for (let round = 0; Date.now() < deadline; round++) {
  const mode = modes[round % modes.length];
  const samples = fc.sample(mode.arbitrary, { numRuns: BATCH, seed: seed + round });
  for (const [index, sample] of samples.entries()) {
    const result = await mode.run(sample);
    totals.cases++;
    perMode[mode.name]++;
    totals.messages += sample.texts?.length ?? sample.stream.toString('latin1').split('\n').length;
    for (const key of [
      'replies',
      'lost',
      'duplicated',
      'invalid',
      'idlessOld',
      'wrongIdOnRefusedLine',
    ])
      totals[key] += result.stats[key] ?? 0;
    if (result.crashed) totals.crashes++;
    if (result.problems.length > 0) {
      totals.failing++;
      if (failures.length < 5)
        failures.push({
          mode: mode.name,
          seed: seed + round,
          index,
          problems: result.problems.slice(0, 5),
          sample: sample.texts ?? sample.stream.toString('utf8'),
        });
    }
  }
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  if (Date.now() - lastReport > 30_000) {
    lastReport = Date.now();
    console.log(
      `${Math.round((Date.now() - started) / 1000)} s: ${totals.cases} cases, ${totals.failing} failing`,
    );
  }
}

gc();
const heapGrowth = process.memoryUsage().heapUsed - heapStart;
const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
console.log(`\nbaremcp fuzz: ${seconds} s, seed ${seed}`);
console.log(
  `cases run:                 ${totals.cases} (${Object.entries(perMode)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ')})`,
);
console.log(`messages sent:             ${totals.messages}`);
console.log(`replies checked:           ${totals.replies}`);
console.log(`failing sessions:          ${totals.failing}`);
console.log(`crashes (throw/reject/hang): ${totals.crashes}`);
console.log(`lost replies:              ${totals.lost}`);
console.log(`duplicated replies:        ${totals.duplicated}`);
console.log(`invalid replies:           ${totals.invalid}`);
console.log(`refusals with a wrong id:  ${totals.wrongIdOnRefusedLine}`);
console.log(
  `id-less errors on revisions before 2025-11-25 (by design, see SECURITY.md): ${totals.idlessOld}`,
);
console.log(`memory: heap growth after GC ${mib(heapGrowth)}, peak RSS ${mib(rssPeak)}`);
for (const f of failures) {
  console.log(
    `\nFAILED (${f.mode}, seed ${f.seed}, case ${f.index}):\n  ${f.problems.join('\n  ')}`,
  );
  console.log(`  input: ${JSON.stringify(f.sample).slice(0, 2000)}`);
}
const failed = totals.failing > 0 || heapGrowth > MAX_HEAP_GROWTH;
if (heapGrowth > MAX_HEAP_GROWTH)
  console.log(`\nFAILED: the heap grew by ${mib(heapGrowth)} (limit ${mib(MAX_HEAP_GROWTH)})`);
process.exitCode = failed ? 1 : 0;
