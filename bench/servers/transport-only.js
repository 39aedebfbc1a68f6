// baremcp's stdio transport (serve() from the bundle) over a stand-in for the dispatcher that
// answers like the floor: no validation, no method table, one resolved promise per request. Its
// instructions per call (bench/callgrind.js) are the transport's own cost over the floor's; what
// baremcp spends beyond that is the dispatcher's.
import { serve } from '../../dist/bundle/transport/stdio.js';

const tool = { name: 'echo' };

function answer(method, params) {
  if (method === 'initialize') {
    return { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench-transport', version: '1.0.0' } };
  }
  if (method === 'tools/list') return { tools: [tool] };
  if (method === 'tools/call') {
    const { text, count = 1, loud = false } = params.arguments;
    const word = loud ? text.toUpperCase() : text;
    return { content: [{ type: 'text', text: count === 1 ? word : Array(count).fill(word).join(' ') }] };
  }
  return {};
}

const server = {
  report: (line) => process.stderr.write(`${line}\n`),
  connect: () => ({
    handle: (m) => Promise.resolve(m.id === undefined ? null : { jsonrpc: '2.0', id: m.id, result: answer(m.method, m.params) }),
    close() {},
    inputEnded() {},
  }),
};

serve(process.stdin, process.stdout, server);
