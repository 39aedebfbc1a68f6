// baremcp on Cloudflare Workers (`npx wrangler deploy`, config in wrangler.toml). 2026-07-28
// requests keep nothing between requests, so any isolate serves them; legacy sessions
// (2025-11-25 and before) live in memory, and Workers spread requests over isolates, so those
// requests go to one Durable Object that holds every session.
import { createFetchHandler, createServer, MODERN_REVISIONS } from 'baremcp';

const makeHandler = (env) =>
  createFetchHandler(
    createServer({
      info: { name: 'worker-echo', version: '1.0.0' },
      stateSecret: env.MCP_STATE_SECRET, // `wrangler secret put MCP_STATE_SECRET`: one for every isolate
      tools: [
        {
          name: 'echo',
          description: 'Repeat a text back.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          run: ({ text }) => String(text),
        },
      ],
    }),
    // Cloudflare routes only your own host names here: no DNS rebinding to guard against.
    { path: '/mcp', allowedHosts: '*', healthPath: '/healthz' },
  );

/** The Durable Object that serves every legacy session (binding LEGACY_SESSIONS). */
export class LegacySessions {
  constructor(state, env) {
    this.env = env;
  }
  fetch(request) {
    this.handler ??= makeHandler(this.env); // made on the first request: no timers at start-up
    return this.handler(request);
  }
}

let handler;
export default {
  fetch(request, env, ctx) {
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && MODERN_REVISIONS.includes(version)) {
      handler ??= makeHandler(env);
      // ctx keeps work that outlives the response alive (a task's run, with tasksExtension).
      return handler(request, ctx);
    }
    const sessions = env.LEGACY_SESSIONS;
    return sessions.get(sessions.idFromName('legacy-sessions')).fetch(request);
  },
};
