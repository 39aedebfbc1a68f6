// baremcp over Streamable HTTP: createServer + serveHttp, the echo tool of ../baremcp-echo.js. One
// endpoint serves both eras; bench/http.js measures it twice, as a 2025-11-25 session
// (`initialize`, then `Mcp-Session-Id`) and as stateless 2026-07-28 (per-request `_meta` and the
// `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers).
// Prints `{"listening":port}` on stdout once it listens on 127.0.0.1:$BENCH_PORT.
import { createServer } from '../../../dist/bundle/index.js';
import { serveHttp } from '../../../dist/bundle/transport/http.js';
import definition from '../baremcp-echo.js';

// Every session of the bench comes from one address (127.0.0.1): the per-address cap (a tenth of
// maxSessions by default) would have the 2500 sessions of the memory phase take each other's places.
const options = { port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1', path: '/mcp', maxSessionsPerAddress: 10_000 };
const { url } = await serveHttp(createServer(definition), options);
process.stdout.write(JSON.stringify({ listening: Number(new URL(url).port) }) + '\n');
