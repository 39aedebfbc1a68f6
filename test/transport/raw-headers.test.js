// The node:http path reads request headers from `rawHeaders` (RawHeaders) instead of copying them
// into a web Headers per request; it must read them exactly as a Headers would. And the readings
// the endpoint remembers (Accept, Host) must never answer for a different value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawHeaders } from '../../dist/transport/node-request.js';
import { acceptsAll, requestHostAllowed } from '../../dist/transport/http-rules.js';

const cases = [
  ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'],
  ['X-Test', 'one', 'x-test', 'two', 'X-TEST', ' three '],
  ['Host', 'a.example', 'Host', 'b.example'],
  ['Mcp-Param-Region', '=?base64?ZXU=?=', 'mcp-method', 'tools/call'],
  // node:http hands over a byte 0xA0 (obs-text) as U+00A0: a web Headers trims only tab, space,
  // CR and LF (String.prototype.trim takes U+00A0 too).
  ['Mcp-Method', '\u00a0tools/call\u00a0', 'X-Test', '\t\u00a0two \t', 'x-test', '\u00a0'],
  [],
];

test('RawHeaders reads every name as a web Headers does: any case, repeated values joined by ", "', () => {
  for (const raw of cases) {
    const reader = new RawHeaders(raw);
    const web = new Headers();
    for (let i = 0; i < raw.length; i += 2) web.append(raw[i], raw[i + 1]);
    for (const name of ['content-type', 'ACCEPT', 'x-test', 'Host', 'mcp-param-region', 'Mcp-Method', 'absent']) {
      assert.equal(reader.get(name), web.get(name), `${JSON.stringify(raw)}: ${name}`);
    }
    assert.deepEqual([...reader.toHeaders()], [...web]);
  }
});

test('remembered Accept and Host readings answer for their own value only, past the table bound', () => {
  const needs = ['application/json', 'text/event-stream'];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 100; i++) {
      assert.equal(acceptsAll(`application/json, text/event-stream, x/y${i}`, needs), true);
      assert.equal(acceptsAll(`application/json, x/y${i}`, needs), false);
      assert.equal(acceptsAll(`application/json;q=0, text/event-stream, x/y${i}`, needs), false);
    }
  }
  const url = new URL('http://localhost:3000/mcp');
  for (let i = 0; i < 150; i++) {
    assert.equal(requestHostAllowed(url, 'localhost:3000', ['localhost']), true);
    assert.equal(requestHostAllowed(url, `evil${i}.example`, ['localhost']), false);
    assert.equal(requestHostAllowed(url, `user@localhost`, ['localhost']), false);
  }
});
