// `npm run conformance`: runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// a devDependency; see suite.js) against the fixture server for the 2025-11-25 and 2026-07-28
// requirement sets. The suite needs Node >= 22: when this Node is older, a Node 22 binary is
// installed from the npm registry as a package into .cache/node22 (once). The fixture runs in
// this process, from the shipped bundle, on 127.0.0.1 and a free port. Prints one line per
// scenario and a final "N passed, M failed, K skipped"; exits 1 on any failure of a required
// scenario, of the two SEP-2243 header scenarios or of the tasks extension's scenarios (not scored
// by the suite, required here). A scenario whose every check was SKIPPED (the suite's stub of
// tasks-status-notifications) is reported as skipped, never as passed. Other not-scored scenarios
// are reported for information only. test/runtimes/run.js runs the same suite against
// the fixture under Deno, Bun and workerd.
import { spawnSync } from 'node:child_process';
import { serveHttp } from '../../dist/bundle/transport/http.js';
import { createConformanceServer } from './server.js';
import { node22, runConformance, SUITE_VERSION } from './suite.js';

const node = await node22();
const server = createConformanceServer({ stateSecret: 'conformance-fixture-secret' });
const serving = await serveHttp(server, { port: 0, host: '127.0.0.1' });
process.stdout.write(
  `fixture server at ${serving.url}; suite ${SUITE_VERSION}; node ${spawnSync(node, ['--version']).stdout.toString().trim()}\n`,
);
const started = Date.now();
const { passed, failed, skipped, report } = await runConformance(node, serving.url);
process.stdout.write(report);
await serving.close();
process.stdout.write(
  `\n${passed} passed, ${failed} failed, ${skipped} skipped (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
process.exit(failed === 0 ? 0 : 1);
