// Unit tests for src/schema/format.ts and format-hostname.ts (format assertions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCheck, isDateTime, isEmail, isAbsoluteUri, isIpv6 } from '../../dist/schema/format.js';
import { decodePunycode, isHostname } from '../../dist/schema/format-hostname.js';

test('date-time checks the calendar and leap seconds in UTC', () => {
  assert.equal(isDateTime('2024-02-29T12:00:00Z'), true);
  assert.equal(isDateTime('2023-02-29T12:00:00Z'), false);
  assert.equal(isDateTime('1998-12-31T15:59:60.1-08:00'), true);
  assert.equal(isDateTime('1998-12-31T23:58:60Z'), false);
});

test('email, ipv6 and uri follow their RFC grammars', () => {
  assert.equal(isEmail('"joe bloggs"@example.com'), true);
  assert.equal(isEmail('te..st@example.com'), false);
  assert.equal(isIpv6('1::d6:192.168.0.1'), true);
  assert.equal(isIpv6('1.2.3.4::'), false);
  assert.equal(isAbsoluteUri('urn:oasis:names:x'), true);
  assert.equal(isAbsoluteUri('/relative'), false);
});

test('hostnames decode Punycode labels and apply IDNA context rules', () => {
  assert.equal(decodePunycode('9n2bp8q'), '실례');
  assert.equal(isHostname('xn--9n2bp8q.xn--9t4b11yi5a'), true);
  assert.equal(isHostname('xn--X'), false);
  assert.equal(isHostname('xn--l-fda'), false);
  assert.equal(isHostname('-bad.com'), false);
});

test('formatCheck knows only the asserted formats', () => {
  assert.equal(typeof formatCheck('uuid'), 'function');
  assert.equal(formatCheck('idn-email'), undefined);
  assert.equal(formatCheck('constructor'), undefined);
});
