// The default Host allow-list of a bind address (src/transport/bound-hosts.ts; issue 21 reads the interfaces only for a wildcard bind):
// a wildcard or an address spelled another way than `0.0.0.0`, `::` or the canonical form is what
// `listen` binds to all the same, and a `Host` header is compared in its WHATWG URL form, so the
// list must hold that form: `--host ::0` or `--host 0` answers on the machine's own addresses and
// name, `--host 2001:DB8:0::1` on `[2001:db8::1]`. Failing closed (403) was the fault. The same over a
// real socket: test/transport/host-check.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostsForBind } from '../../dist/transport/bound-hosts.js';

const interfaces = {
  lo: [{ address: '127.0.0.1', family: 'IPv4' }, { address: '::1', family: 'IPv6' }],
  eth0: [{ address: '192.0.2.2', family: 'IPv4' }, { address: 'fd00::2', family: 'IPv6' }],
};

test('hostsForBind: every spelling of a wildcard lists the machine, every address its URL form', () => {
  const all = hostsForBind('::', interfaces, 'box');
  const v4 = hostsForBind('0.0.0.0', interfaces, 'box');
  assert.deepEqual(all, ['localhost', '127.0.0.1', '[::1]', '192.0.2.2', '[fd00::2]', 'box']);
  for (const wildcard of ['::0', '0:0:0:0:0:0:0:0', '0::0', '[::]']) assert.deepEqual(hostsForBind(wildcard, interfaces, 'box'), all, wildcard);
  // getaddrinfo (and the WHATWG URL parser) read `0` as 0.0.0.0.
  assert.deepEqual(hostsForBind('0', interfaces, 'box'), v4);
  assert.deepEqual(hostsForBind('2001:DB8:0:0::1', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '[2001:db8::1]']);
  assert.deepEqual(hostsForBind('::ffff:192.0.2.9', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', '[::ffff:c000:209]']);
  assert.deepEqual(hostsForBind('0:0:0:0:0:0:0:1', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]']);
  assert.deepEqual(hostsForBind('Example.COM', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', 'example.com']);
  // Not a URL host at all: kept as given (lower case); no Host header can name it.
  assert.deepEqual(hostsForBind('a b', interfaces, 'box'), ['localhost', '127.0.0.1', '[::1]', 'a b']);
});
