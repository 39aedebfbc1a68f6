// fast-check generators for a hostile MCP client: JSON-RPC-shaped messages (valid and broken),
// arbitrary JSON, ids of every type, known and unknown methods, params of every type, batches,
// numbers JSON cannot hold exactly, lone surrogates, __proto__ keys, deep nesting; and byte
// streams (invalid UTF-8, BOMs, \r\n, over-long lines) split at random points.
import fc from 'fast-check';
import { TOOL_NAMES } from './fixture.js';
import { LEGACY, MODERN, DEFAULT_REVISION } from './model.js';

// Raw JSON text embedded in a generated value: toText() splices it in verbatim, so that numbers
// such as 1e400 or 9007199254740993, and nesting too deep for JSON.stringify, reach the parser.
const RAW = '\u0001raw:';
const raw = (text) => `${RAW}${text}\u0001`;
const RAW_TOKEN = /"\\u0001raw:((?:[^"\\]|\\.)*?)\\u0001"/g;

/** Serialises a generated value, splicing in its raw JSON fragments. */
export function toText(value) {
  return JSON.stringify(value).replace(RAW_TOKEN, (match) =>
    JSON.parse(match).slice(RAW.length, -1),
  );
}

export const RAW_NUMBERS = [
  '9007199254740993',
  '-9007199254740993',
  '9007199254740992',
  '1e400',
  '-1e400',
  '-0',
  '1E2',
  '1.0',
  '0.5e1',
  '1e-400',
  '5e-324',
  '123456789012345678901234567890',
  '-0.0',
];
const rawNumber = fc.constantFrom(...RAW_NUMBERS).map(raw);

/** Deeply nested JSON (arrays, objects, `__proto__` chains), as raw text. */
export const deep = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 95, max: 105 }), fc.integer({ min: 1, max: 3000 })),
    open: fc.constantFrom('[', '{"a":', '{"__proto__":', '[{"x":'),
  })
  .map(({ depth, open }) => {
    const close = open === '[' ? ']' : open === '[{"x":' ? '}]' : '}';
    return raw(open.repeat(depth) + '1' + close.repeat(depth));
  });

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const nastyChar = fc.oneof(
  fc.constantFrom(
    'a',
    '"',
    '\\',
    '\n',
    '\r',
    '\t',
    '\u2028',
    '\u0000',
    '\ufeff',
    '😀',
    '{',
    '}',
    ':',
  ),
  loneSurrogate,
);
/** Strings with quotes, control characters, lone surrogates and prototype names. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: nastyChar, maxLength: 8 }),
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'baremcp-1',
    '1',
    '0',
    'null',
    '\ud800',
    'a\udfffb',
    '😀'.slice(0, 1),
  ),
);
const key = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '_meta',
      'id',
      'jsonrpc',
      'method',
      'polluted',
      'a',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
);
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  nastyString,
  rawNumber,
);
/** Any JSON value, with dangerous keys (as own properties, as JSON.parse makes them). */
export const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, leaf, leaf, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc
    .array(fc.tuple(key, tie('json')), { maxLength: 4 })
    .map((entries) => Object.fromEntries(entries)),
}));
const jsonObject = fc
  .array(fc.tuple(key, json), { maxLength: 4 })
  .map((entries) => Object.fromEntries(entries));
/** Anything that may stand where a value is expected: JSON, deep nesting, odd numbers. */
const anything = fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: deep });

/** Mostly `valid`, sometimes `junk`. */
const mostly = (valid, junk) =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: junk });
/** A record with its `required` members in most cases, and any subset of them otherwise. */
const shape = (fields, required) =>
  mostly(fc.record(fields, { requiredKeys: required }), fc.record(fields, { requiredKeys: [] }));

/** A small pool of ids, so that duplicates and cancels hit real requests. */
const pooledId = fc.constantFrom(0, 1, 2, 7, '1', 'a', '');
export const validId = fc.oneof(
  pooledId,
  pooledId,
  fc.integer(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, -1),
  nastyString,
);
export const anyId = fc.oneof(
  { weight: 16, arbitrary: validId },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 1.5, -0.5, {}, [], [1]) },
  { weight: 1, arbitrary: rawNumber },
);

export const REQUEST_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'subscriptions/listen',
];
export const NOTIFICATION_METHODS = [
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
  'notifications/progress',
  'notifications/message',
];
const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...REQUEST_METHODS) },
  { weight: 3, arbitrary: fc.constantFrom(...NOTIFICATION_METHODS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '',
      'tools/call/',
      'TOOLS/LIST',
      'rpc.discover',
      'elicitation/create',
    ),
  },
  { weight: 1, arbitrary: nastyString },
);

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const capabilities = fc.oneof(
  fc.constant({}),
  fc.constant({ elicitation: {} }),
  fc.constant({ elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } }),
  json,
);
const modernMeta = fc
  .record(
    {
      [PV]: fc.oneof(
        { weight: 5, arbitrary: fc.constant(MODERN) },
        { weight: 1, arbitrary: fc.constantFrom('2025-11-25', '2099-01-01') },
        { weight: 1, arbitrary: json },
      ),
      [CAPS]: capabilities,
      'io.modelcontextprotocol/clientInfo': fc.oneof(
        fc.constant({ name: 'fuzz', version: '1' }),
        json,
      ),
      'io.modelcontextprotocol/logLevel': fc.oneof(fc.constantFrom('debug', 'info', 'error'), json),
      progressToken: fc.oneof(validId, json),
    },
    { requiredKeys: [PV, CAPS] },
  )
  .map((m) => Object.fromEntries(Object.entries(m)));
const meta = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.record({ progressToken: fc.oneof(validId, json) }) },
  { weight: 3, arbitrary: modernMeta },
  { weight: 1, arbitrary: anything },
);
const retry = fc.record(
  {
    requestState: fc.oneof(nastyString, fc.constantFrom('a.b', 'eyJiaW5kIjoiIn0.AAAA', '..')),
    inputResponses: fc.oneof(
      json,
      fc.constant({ 'elicitation-1': { action: 'accept', content: { name: 'x' } } }),
    ),
  },
  { requiredKeys: [] },
);

const toolArguments = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        text: mostly(fc.string({ maxLength: 20 }), fc.oneof(nastyString, json)),
        n: mostly(fc.integer(), fc.oneof(rawNumber, nastyString, json)),
        x: mostly(fc.double({ noNaN: true, noDefaultInfinity: true }), json),
        flag: mostly(fc.boolean(), fc.oneof(fc.constantFrom('true', 'FALSE'), json)),
        list: mostly(fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), json),
        nested: mostly(fc.record({ a: fc.integer() }), anything),
        choice: mostly(fc.oneof(fc.integer(), fc.constant(null)), json),
        what: json,
        size: fc.oneof(fc.constantFrom(10, 4096, 4097, 8192), fc.integer()),
        ms: fc.integer({ min: -1, max: 6 }),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: jsonObject },
  { weight: 1, arbitrary: anything },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      null,
      '{"a":1}',
      '[1]',
      '{bad',
      '{"__proto__":{"polluted":1}}',
    ),
  },
  { weight: 1, arbitrary: deep.map((d) => d.slice(RAW.length, -1)) },
);

/** `params` for a request or notification of `m` (sometimes of the wrong shape or type). */
function paramsFor(m, revision) {
  let specific;
  switch (m) {
    case 'initialize':
      // Keeps the session's revision: the protocolVersion is the session's, or no string at all.
      specific = shape(
        {
          protocolVersion: mostly(
            fc.constant(revision),
            json.filter((v) => typeof v !== 'string'),
          ),
          capabilities,
          clientInfo: mostly(fc.constant({ name: 'fuzz', version: '1' }), json),
        },
        ['protocolVersion', 'capabilities', 'clientInfo'],
      );
      break;
    case 'tools/call':
      specific = shape(
        { name: mostly(fc.constantFrom(...TOOL_NAMES), nastyString), arguments: toolArguments },
        ['name'],
      );
      break;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      const uris = [
        'file:///readme.txt',
        'mem://bytes',
        'items://1',
        'items://none',
        'items://%zz',
        'items://',
        'nope://x',
      ];
      specific = shape({ uri: mostly(fc.constantFrom(...uris), fc.oneof(nastyString, json)) }, [
        'uri',
      ]);
      break;
    }
    case 'prompts/get':
      specific = shape(
        {
          name: mostly(fc.constant('greet'), nastyString),
          arguments: mostly(
            shape({ who: nastyString, tone: mostly(nastyString, json) }, ['who']),
            json,
          ),
        },
        ['name'],
      );
      break;
    case 'completion/complete':
      specific = shape(
        {
          ref: mostly(
            fc.constantFrom(
              { type: 'ref/prompt', name: 'greet' },
              { type: 'ref/resource', uri: 'items://{id}' },
            ),
            json,
          ),
          argument: mostly(
            fc.record({
              name: fc.constantFrom('tone', 'id', 'who', '__proto__'),
              value: mostly(nastyString, json),
            }),
            json,
          ),
          context: mostly(
            fc.record({ arguments: fc.dictionary(nastyString, nastyString, { maxKeys: 2 }) }),
            json,
          ),
        },
        ['ref', 'argument'],
      );
      break;
    case 'logging/setLevel':
      specific = shape({ level: mostly(fc.constantFrom('debug', 'info', 'emergency'), json) }, [
        'level',
      ]);
      break;
    case 'notifications/cancelled':
      specific = shape({ requestId: mostly(pooledId, anyId), reason: nastyString }, ['requestId']);
      break;
    case 'subscriptions/listen':
      specific = shape(
        {
          notifications: mostly(
            fc.constant({
              toolsListChanged: true,
              resourceSubscriptions: ['file:///readme.txt', 7],
            }),
            json,
          ),
        },
        ['notifications'],
      );
      break;
    case 'tools/list':
    case 'resources/list':
    case 'prompts/list':
    case 'resources/templates/list':
      specific = fc.record({ cursor: fc.oneof(nastyString, json) }, { requiredKeys: [] });
      break;
    default:
      specific = jsonObject;
  }
  const rarely = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: retry },
  );
  const withMeta = fc.tuple(specific, meta, rarely).map(([p, _meta, r]) => {
    const out = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
    if (_meta !== undefined) out._meta = _meta;
    if (r !== null) Object.assign(out, r);
    return out;
  });
  return fc.oneof(
    { weight: 14, arbitrary: withMeta },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: anything },
  );
}

/** Drops `undefined` members (JSON has none). */
const message = (fields) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

const request = (revision) =>
  fc
    .tuple(method, anyId)
    .chain(([m, id]) =>
      paramsFor(m, revision).map((params) => message({ jsonrpc: '2.0', id, method: m, params })),
    );
const notification = (revision) =>
  fc
    .oneof(fc.constantFrom(...NOTIFICATION_METHODS), method)
    .chain((m) =>
      paramsFor(m, revision).map((params) => message({ jsonrpc: '2.0', method: m, params })),
    );
const response = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.constantFrom('baremcp-1', 'baremcp-2'), anyId),
    result: fc.oneof(fc.constant({ action: 'accept', content: { name: 'n' } }), json),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.constantFrom('baremcp-1', 'baremcp-2'), anyId),
    error: fc.oneof(fc.constant({ code: -1, message: 'no' }), json),
  }),
);

/** Breaks a message: wrong or missing members, extra members, reordered keys. */
const MUTATIONS = {
  'drop jsonrpc': ({ jsonrpc, ...m }) => m,
  'jsonrpc 1.0': (m) => ({ ...m, jsonrpc: '1.0' }),
  'jsonrpc number': (m) => ({ ...m, jsonrpc: 2 }),
  'method number': (m) => ({ ...m, method: 5 }),
  'drop method': ({ method: _m, ...m }) => m,
  'params array': (m) => ({ ...m, params: [m.params ?? 1] }),
  'params string': (m) => ({ ...m, params: 'x' }),
  'params null': (m) => ({ ...m, params: null }),
  'add result': (m) => ({ ...m, result: {} }),
  'add error': (m) => ({ ...m, error: { code: 1, message: 'x' } }),
  'id last': ({ id, ...m }) => (id === undefined ? m : { ...m, id }),
  'id null': (m) => ({ ...m, id: null }),
};
const broken = (revision) =>
  fc
    .tuple(
      fc.oneof(request(revision), notification(revision)),
      fc.subarray(Object.keys(MUTATIONS), { minLength: 1, maxLength: 2 }),
    )
    .map(([m, names]) => {
      let out = m;
      for (const name of names) out = MUTATIONS[name](out);
      return out;
    });

/** One client message for a session at `revision`: mostly requests, also the rest. */
export function clientMessage(revision) {
  const single = fc.oneof(
    { weight: 10, arbitrary: request(revision) },
    { weight: 3, arbitrary: notification(revision) },
    { weight: 1, arbitrary: response },
    { weight: 3, arbitrary: broken(revision) },
    { weight: 1, arbitrary: anything },
  );
  return fc.oneof(
    { weight: 12, arbitrary: single },
    { weight: 1, arbitrary: fc.array(single, { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom([], [[]], [1], [[{ jsonrpc: '2.0', id: 1, method: 'ping' }]]),
    },
  );
}

const initialize = (revision, id) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: revision,
    capabilities: { elicitation: {} },
    clientInfo: { name: 'fuzz', version: '1' },
  },
});

/**
 * A session: the revision it runs at (set by an opening `initialize`, or the default), and its
 * messages as JSON text. Later `initialize` requests keep that revision, so that the model knows
 * which schema every reply must satisfy.
 */
export const session = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...LEGACY) },
    { weight: 1, arbitrary: fc.constant(null) },
  )
  .chain((opening) => {
    const revision = opening ?? DEFAULT_REVISION;
    return fc.tuple(
      fc.constant(opening),
      fc.constant(revision),
      fc.boolean(),
      fc.array(clientMessage(revision), { minLength: 1, maxLength: 10 }),
    );
  })
  .map(([opening, revision, initialized, body]) => {
    const values = [];
    if (opening !== null) values.push(initialize(opening, 'init'));
    if (opening !== null && initialized)
      values.push({ jsonrpc: '2.0', method: 'notifications/initialized' });
    values.push(...body);
    return { revision, texts: values.map(toText) };
  });

// Byte-level decoration of lines for the stdio transport.
const BOM = [0xef, 0xbb, 0xbf];
const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf0, 0x9f, 0x98],
  [0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** A line's bytes (no newline) and how the transport must treat it. */
const line = (revision, maxLineBytes) =>
  fc.oneof(
    {
      weight: 10,
      arbitrary: clientMessage(revision).map((m) => ({ kind: 'text', text: toText(m) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 40 })
        .map((b) => ({ kind: 'bytes', bytes: b.filter((x) => x !== 0x0a) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 30 })
        .map((s) => ({ kind: 'text', text: s.replace(/\n/g, ' ') })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(request(revision), fc.constantFrom(...INVALID_UTF8), fc.nat())
        .map(([m, bad, at]) => {
          const bytes = Buffer.from(toText(m));
          const cut = at % (bytes.length + 1);
          return {
            kind: 'bytes',
            bytes: Buffer.concat([bytes.subarray(0, cut), Buffer.from(bad), bytes.subarray(cut)]),
          };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyId, fc.boolean(), fc.integer({ min: 1, max: 3 }))
        .map(([id, idFirst, times]) => {
          // Longer than the limit: a tools/call whose arguments carry a nested "id" too.
          const pad = 'p'.repeat(maxLineBytes * times);
          const fields = {
            jsonrpc: '2.0',
            method: 'tools/call',
            params: { name: 'echo', arguments: { id: 'nested', pad } },
          };
          return { kind: 'text', text: toText(idFirst ? { id, ...fields } : { ...fields, id }) };
        }),
    },
  );
const decoration = fc.record(
  { bom: fc.boolean(), cr: fc.boolean(), blank: fc.boolean(), spaces: fc.boolean() },
  { requiredKeys: [] },
);

/**
 * A stdio session: lines of bytes (valid messages, garbage, invalid UTF-8, over-long lines) with
 * BOMs, \r\n endings, blank lines and padding, then cut into chunks at random points.
 */
export const byteSession = (maxLineBytes) =>
  session.chain(({ revision, texts }) =>
    fc
      .tuple(
        fc.array(fc.tuple(line(revision, maxLineBytes), decoration), { maxLength: 6 }),
        fc.array(decoration, { minLength: texts.length, maxLength: texts.length }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        fc.nat(),
      )
      .map(([extra, decorations, cuts, finalNewline, seed]) => {
        const lines = texts.map((text, i) => [{ kind: 'text', text }, decorations[i]]);
        // Extra lines go anywhere after the opening handshake.
        for (const [i, entry] of extra.entries())
          lines.splice(Math.min(lines.length, 2 + ((seed + i * 7) % (lines.length + 1))), 0, entry);
        const pieces = [];
        for (const [l, d] of lines) {
          let bytes = l.kind === 'text' ? Buffer.from(l.text, 'utf8') : Buffer.from(l.bytes);
          if (d.spaces) bytes = Buffer.concat([Buffer.from(' \t'), bytes, Buffer.from(' ')]);
          if (d.bom) bytes = Buffer.concat([Buffer.from(BOM), bytes]);
          if (d.cr) bytes = Buffer.concat([bytes, Buffer.from('\r')]);
          pieces.push(bytes);
          if (d.blank) pieces.push(Buffer.alloc(0));
        }
        let stream = Buffer.from(pieces.map((p) => p.toString('latin1')).join('\n'), 'latin1');
        if (finalNewline) stream = Buffer.concat([stream, Buffer.from('\n')]);
        const at = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const chunks = [];
        let start = 0;
        for (const cut of [...at, stream.length]) {
          chunks.push(stream.subarray(start, cut));
          start = cut;
        }
        return { revision, stream, chunks: chunks.filter((c) => c.length > 0) };
      }),
  );
