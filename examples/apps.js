// MCP Apps: a tool that opens an interactive view (a ui:// HTML page); other clients get its text.
import { createServer } from 'baremcp';
import { appResource, appsExtension, appTool } from 'baremcp/apps';

const VIEW = 'ui://dice/view.html';
// The view talks to the host over postMessage (JSON-RPC): ui/initialize, then tool results.
const html = `<!doctype html><html><body><p id="roll">rolling</p><button id="again">Roll again</button>
<script type="module">
let id = 0; const pending = new Map();
const request = (method, params) => new Promise((resolve) => {
  pending.set(++id, resolve); parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
const show = (result) => (document.getElementById('roll').textContent = result.structuredContent.dice.join(' '));
addEventListener('message', ({ data }) => {
  if (data?.method === 'ui/notifications/tool-result') show(data.params);
  if (pending.has(data?.id)) pending.get(data.id)(data.result), pending.delete(data.id);
});
await request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'dice', version: '1.0.0' }, appCapabilities: {} });
parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
document.getElementById('again').onclick = async () => show(await request('tools/call', { name: 'roll_dice', arguments: { count: 3 } }));
</script></body></html>`;

const rollDice = appTool(
  {
    name: 'roll_dice',
    description: 'Roll some six-sided dice and show them.',
    inputSchema: {
      type: 'object',
      properties: { count: { type: 'integer', description: 'How many dice, 1 to 10.' } },
      required: ['count'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { dice: { type: 'array', items: { type: 'integer' } } }, required: ['dice'] },
    run: ({ count }) => {
      const dice = Array.from({ length: Math.min(10, Math.max(1, Number(count))) }, () => 1 + Math.floor(Math.random() * 6));
      return { content: [{ type: 'text', text: `Rolled ${dice.join(', ')}.` }], structuredContent: { dice } };
    },
  },
  { resourceUri: VIEW },
);

export default createServer({
  info: { name: 'dice', version: '1.0.0' },
  tools: [rollDice],
  resources: [appResource({ uri: VIEW, name: 'dice-view', description: 'The dice, rolled again on a click.', html, ui: { prefersBorder: true } })],
  extensions: [appsExtension()],
});
