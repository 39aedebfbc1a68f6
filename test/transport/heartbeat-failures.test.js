// The lazy heartbeat (issue 21): the endpoint's heartbeat now starts on the first legacy
// stream, inside a request, instead of when the endpoint is made. An event store whose
// `heartbeat` throws synchronously (or returns something that is not a promise) must cost that
// request nothing: it gets its one response, its in-flight place is given back, and the failure
// is reported, as an asynchronous failure is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, MemoryEventStore } from '../../dist/index.js';
import { createFetchHandler } from '../../dist/transport/http.js';

const initialize = (id) => new Request('http://127.0.0.1/mcp', {
  method: 'POST',
  headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0', id, method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  }),
});

class ThrowingBeat extends MemoryEventStore {
  heartbeat() {
    throw new Error('store down');
  }
}
class PlainBeat extends MemoryEventStore {
  heartbeat() {
    return undefined;
  }
}

for (const [name, Store] of [['throws synchronously', ThrowingBeat], ['returns no promise', PlainBeat]]) {
  test(`a heartbeat that ${name} neither rejects a legacy request nor keeps its in-flight place`, async () => {
    const lines = [];
    const server = createServer({ info: { name: 'h', version: '1' }, report: (line) => lines.push(line), stateSecret: 'k'.repeat(32) });
    const handler = createFetchHandler(server, { path: '/mcp', eventStore: new Store(), maxInFlightTotal: 2 });
    try {
      // More requests than places in flight: a leaked place would make the last ones 503.
      for (let id = 1; id <= 4; id++) {
        const response = await handler(initialize(id));
        assert.equal(response.status, 200, `request ${id}: ${await response.clone().text()}`);
        const body = await response.text();
        assert.match(body, /"protocolVersion":"2025-03-26"/, `request ${id}`);
      }
      if (Store === ThrowingBeat) {
        assert.ok(lines.some((l) => l.includes('heartbeat failed: store down')), `reported: ${lines.join('\n')}`);
      }
    } finally {
      await handler.close();
    }
  });
}
