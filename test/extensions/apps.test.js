// MCP Apps (SEP-1865) against the official package, @modelcontextprotocol/ext-apps: the wire shapes
// of appTool/appResource parse with its validators and equal what its own server helpers make;
// negotiation in both eras agrees with its getUiCapability; a client without the extension gets
// text; and the example app serves its view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpUiResourceMetaSchema, McpUiToolMetaSchema } from '@modelcontextprotocol/ext-apps';
import {
  EXTENSION_ID,
  getUiCapability,
  registerAppResource,
  registerAppTool,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import { createServer } from '../../dist/index.js';
import { APP_MIME_TYPE, APPS_EXTENSION, appResource, appsExtension, appsSupport, appTool } from '../../dist/extensions/apps.js';
import { connect, textOf } from '../../dist/testing/index.js';
import exampleServer from '../../examples/apps.js';

const VIEW = 'ui://weather/view.html';
const UI = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'], frameDomains: ['https://www.youtube.com'] },
  permissions: { clipboardWrite: {} },
  domain: 'a904794854a047f6.claudemcpcontent.com',
  prefersBorder: true,
};
const HTML = '<!doctype html><html><body>weather</body></html>';

const weather = appTool(
  {
    name: 'weather',
    title: 'Weather',
    description: 'Show the weather.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    run: ({ city }) => ({ content: [], structuredContent: { city, sky: 'clear' } }),
  },
  { resourceUri: VIEW, visibility: ['model', 'app'] },
);
const refresh = appTool(
  { name: 'refresh', description: 'Refresh the view.', inputSchema: { type: 'object' }, run: () => [] },
  { resourceUri: VIEW, visibility: ['app'] },
);

function server() {
  return createServer({
    info: { name: 'apps-test', version: '1.0.0' },
    tools: [weather, refresh],
    resources: [appResource({ uri: VIEW, name: 'weather-view', description: 'The weather view.', html: HTML, ui: UI })],
    extensions: [appsExtension()],
  });
}
const MODERN = '2026-07-28';
const modern = (capabilities) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_APPS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

test('the identifiers are the ones ext-apps ships', () => {
  assert.equal(APPS_EXTENSION, EXTENSION_ID);
  assert.equal(APP_MIME_TYPE, RESOURCE_MIME_TYPE);
  assert.equal(Object.keys(weather._meta).includes(RESOURCE_URI_META_KEY), true);
});

test("a tool's _meta parses with McpUiToolMetaSchema and equals what registerAppTool makes of the same tool", async () => {
  const s = server();
  const listed = (await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modern({}) } })).result.tools;
  let registered;
  registerAppTool({ registerTool: (_name, config) => (registered = config) }, 'weather', {
    description: 'Show the weather.',
    _meta: { ui: { resourceUri: VIEW, visibility: ['model', 'app'] } },
  }, () => ({ content: [] }));
  assert.deepEqual(listed[0]._meta, registered._meta);
  for (const tool of listed) {
    const parsed = McpUiToolMetaSchema.safeParse(tool._meta.ui);
    assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
    assert.equal(tool._meta[RESOURCE_URI_META_KEY], VIEW);
  }
  assert.deepEqual(listed[1]._meta.ui, { resourceUri: VIEW, visibility: ['app'] });
  // The validator is a real oracle: it refuses what hosts refuse.
  assert.equal(McpUiToolMetaSchema.safeParse({ resourceUri: VIEW, visibility: ['user'] }).success, false);
});

test("a resource's listing and content carry the MCP App MIME type and a _meta.ui that McpUiResourceMetaSchema accepts", async () => {
  const s = server();
  const [listed] = (await s.handle({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: modern({}) } })).result.resources;
  let registered;
  registerAppResource({ registerResource: (name, uri, config) => (registered = { name, uri, ...config }) }, 'weather-view', VIEW, { description: 'The weather view.', _meta: { ui: UI } }, () => ({ contents: [] }));
  for (const field of ['uri', 'name', 'mimeType', 'description', '_meta']) assert.deepEqual(listed[field], registered[field], field);
  const read = (await s.handle({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: VIEW, _meta: modern({}) } })).result;
  assert.deepEqual(read.contents, [{ uri: VIEW, mimeType: RESOURCE_MIME_TYPE, text: HTML, _meta: { ui: UI } }]);
  for (const meta of [listed._meta.ui, read.contents[0]._meta.ui]) {
    const parsed = McpUiResourceMetaSchema.safeParse(meta);
    assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
  }
  assert.throws(() => appResource({ uri: 'https://example.com/view.html', name: 'x', html: HTML }), /appResource: uri must start with ui:\/\/ \(got "https:\/\/example\.com\/view\.html"\)/);
  const dynamic = appResource({ uri: 'ui://dynamic/view.html', name: 'dynamic', html: (ctx) => `<p>${ctx.method}</p>` });
  assert.equal((await dynamic.read({ method: 'resources/read' })).contents[0].text, '<p>resources/read</p>');
});

test('the extension is negotiated in both eras, and appsSupport agrees with getUiCapability', async () => {
  const s = server();
  const init = await s.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: WITH_APPS, clientInfo: { name: 'host', version: '1' } } });
  assert.deepEqual(init.result.capabilities.extensions, { [EXTENSION_ID]: {} });
  const discover = await s.handle({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: modern({}) } });
  assert.deepEqual(discover.result.capabilities.extensions, { [EXTENSION_ID]: {} });
  for (const capabilities of [{}, WITH_APPS, { extensions: { [EXTENSION_ID]: {} } }, { extensions: { [EXTENSION_ID]: { mimeTypes: ['text/html'] } } }]) {
    const theirs = getUiCapability(capabilities);
    const ours = appsSupport({ client: { capabilities } });
    const canShow = theirs?.mimeTypes === undefined ? theirs !== undefined : theirs.mimeTypes.includes(RESOURCE_MIME_TYPE);
    assert.equal(ours !== undefined, canShow, JSON.stringify(capabilities));
  }
});

test('a client without MCP Apps gets text for a result that has none; a host with it gets the result as is', async () => {
  const s = server();
  const call = async (capabilities, name = 'weather') =>
    (await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { city: 'Oslo' }, _meta: modern(capabilities) } })).result;
  const plain = await call({});
  assert.deepEqual(plain.content, [{ type: 'text', text: '{"city":"Oslo","sky":"clear"}' }]);
  assert.deepEqual(plain.structuredContent, { city: 'Oslo', sky: 'clear' });
  const host = await call(WITH_APPS);
  assert.deepEqual(host.content, []);
  const nothing = await call({}, 'refresh');
  assert.deepEqual(nothing.content, [{ type: 'text', text: 'refresh shows an interactive view, which this client cannot display.' }]);
});

test('the example app serves its view and a tool with text for every client', async () => {
  const client = await connect(exampleServer, { protocolVersion: '2025-11-25', capabilities: WITH_APPS });
  const tools = await client.listTools();
  assert.deepEqual(tools[0]._meta, { ui: { resourceUri: 'ui://dice/view.html' }, [RESOURCE_URI_META_KEY]: 'ui://dice/view.html' });
  const result = await client.callTool('roll_dice', { count: 3 });
  assert.equal(result.structuredContent.dice.length, 3);
  assert.match(textOf(result), /^Rolled [1-6], [1-6], [1-6]\.$/);
  const view = await client.readResource('ui://dice/view.html');
  assert.equal(view.contents[0].mimeType, RESOURCE_MIME_TYPE);
  assert.match(view.contents[0].text, /ui\/initialize/);
  assert.equal(McpUiResourceMetaSchema.safeParse(view.contents[0]._meta.ui).success, true);
  await client.close();
});

test('appTool refuses a resourceUri that is not ui:// and a visibility outside model/app, as appResource refuses its uri', () => {
  const tool = { name: 'show', description: 'Show it.', inputSchema: { type: 'object' }, run: () => 'shown' };
  assert.throws(() => appTool(tool, { resourceUri: 'https://example.com/view.html' }), {
    name: 'TypeError',
    message: 'appTool: tool "show": resourceUri must start with ui:// (got "https://example.com/view.html")',
  });
  assert.throws(() => appTool(tool, { resourceUri: VIEW, visibility: ['user'] }), {
    name: 'TypeError',
    message: 'appTool: tool "show": unknown visibility "user" (choose from model, app)',
  });
  assert.throws(() => appTool(tool, { resourceUri: VIEW, visibility: 'app' }), {
    name: 'TypeError',
    message: 'appTool: tool "show": visibility must be a non-empty array of "model" and/or "app"',
  });
  assert.equal(appTool(tool, { resourceUri: VIEW, visibility: ['app'] })._meta.ui.resourceUri, VIEW);
});
