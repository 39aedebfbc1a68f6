// One replica of the scale-out test: the conformance fixture plus the tools the kill -9 and
// rolling-restart runs call, served with serveHttp on 127.0.0.1:<port> (argv[2]) with a health
// endpoint. With REDIS_URL it shares sessions, stream events, the event bus and tasks through Redis
// (baremcp/redis and the `redis` client); without, it is a replica of today's design that shares
// only STATE_SECRET (how main is measured). Prints "ready <url>" on stdout; on SIGTERM it closes
// gracefully (stops accepting, finishes what is in flight) and exits 0. Writes "produced <token>"
// on stderr for each result the `count` tool produces, for the exactly-once count.
import { createClient } from 'redis';
import { serveHttp } from '../../dist/bundle/transport/http.js';
import { createConformanceServer } from '../conformance/server.js';

const port = Number(process.argv[2]);
const name = process.env.REPLICA_NAME ?? `replica-${port}`;
const url = process.env.REDIS_URL;
let client;
let bus;
const options = process.env.STATE_SECRET === undefined ? {} : { stateSecret: process.env.STATE_SECRET };
const handlerOptions = {};
if (url !== undefined && url !== '') {
  const redis = await import('../../dist/bundle/stores/redis/index.js');
  client = await createClient({ url }).connect();
  bus = new redis.RedisEventBus({ client });
  options.bus = bus;
  options.taskStore = new redis.RedisTaskStore({ client });
  handlerOptions.sessionStore = new redis.RedisSessionStore({ client });
  handlerOptions.eventStore = new redis.RedisEventStore({ client });
}
const server = createConformanceServer(options);
const delay = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
server.tools.add(
  {
    name: 'count',
    description: 'Counts `steps` steps of `delayMs` with a progress notification each, then returns its token and replica.',
    inputSchema: {
      type: 'object',
      properties: { token: { type: 'string' }, steps: { type: 'integer' }, delayMs: { type: 'integer' } },
      required: ['token'],
    },
    run: async ({ token, steps = 5, delayMs = 200 }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await delay(delayMs, ctx.signal);
        ctx.progress(i, steps);
      }
      process.stderr.write(`produced ${token}\n`);
      return `${token} from ${name}`;
    },
  },
  {
    name: 'announce_change',
    description: 'Announces a change of the tool list (from whichever replica serves it).',
    inputSchema: { type: 'object' },
    run: () => {
      server.listChanged('tools');
      return `changed on ${name}`;
    },
  },
);
if (typeof server.busReady === 'function') await server.busReady();
const serving = await serveHttp(server, { port, host: '127.0.0.1', healthPath: '/healthz', ...handlerOptions });
process.stdout.write(`ready ${serving.url}\n`);
process.once('SIGTERM', async () => {
  await serving.close();
  await bus?.close();
  await client?.close();
  process.exit(0);
});
