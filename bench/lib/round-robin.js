// Interleaving for the benchmark drivers (bench/run.js over stdio, bench/http.js over HTTP): every
// server measured in turn, the order rotated each repetition, so that a drift of the machine (load,
// frequency, the file cache) falls on all of them alike.
import { performance } from 'node:perf_hooks';

/**
 * Runs `await fn(server)` for each server of `list`, `reps` times, rotating the order each
 * repetition. A server whose `fn` throws is marked `failed` and left out from then on; the error
 * goes to `problems` and, like each timing (ms), to `log` as `<what> <rep>/<reps> <key> …`.
 */
export async function roundRobin(list, reps, what, fn, { log, problems }) {
  for (let r = 0; r < reps; r++) {
    const order = list.map((_, i) => list[(i + r) % list.length]);
    for (const server of order) {
      if (server.failed) continue;
      const t = performance.now();
      try {
        await fn(server);
      } catch (error) {
        server.failed = true;
        problems.push(`${what} ${r + 1}: ${error.message}`);
        log(`${what} ${r + 1}/${reps} ${server.key} FAILED: ${error.message}`);
        continue;
      }
      log(`${what} ${r + 1}/${reps} ${server.key} ${(performance.now() - t).toFixed(0)} ms`);
    }
  }
}
