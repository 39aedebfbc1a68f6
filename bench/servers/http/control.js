// Preloaded (`node --expose-gc --import ./control.js server.js`) into a server whose memory or
// profile bench/http.js measures; not part of any server. Each `gc` line on stdin runs two full
// garbage collections and answers `{"gc":n,...process.memoryUsage()}` on stdout; the end of stdin
// exits the process normally (so that `--cpu-prof` writes its profile). Each `heap` line answers
// `{"heap":n,"used":heapUsed,"collections":c}` without collecting (c: collections so far, forced
// ones included; bench/http-counts.js).
import { PerformanceObserver } from 'node:perf_hooks';

let n = 0;
let collections = 0;
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] });
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    if (line.trim() === 'heap') {
      const used = process.memoryUsage().heapUsed;
      process.stdout.write(JSON.stringify({ heap: ++n, used, collections }) + '\n');
    }
    if (line.trim() !== 'gc') continue;
    globalThis.gc?.();
    globalThis.gc?.();
    process.stdout.write(JSON.stringify({ gc: ++n, ...process.memoryUsage() }) + '\n');
  }
});
process.stdin.on('end', () => process.exit(0));
