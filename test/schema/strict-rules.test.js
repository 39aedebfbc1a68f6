// Tests for src/schema/strict-rules.ts: the rule table is well formed, every rule cites a
// source, and the strict-subset modules stay pure (no node: import, no Node global).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { STRICT_RULES } from '../../dist/schema/strict-rules.js';
import { STRICT_PROFILES } from '../../dist/schema/index.js';
import { repoRoot } from '../helpers.js';

test('every rule has a unique id prefixed by its profile', () => {
  const ids = STRICT_RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const r of STRICT_RULES) {
    assert.ok(STRICT_PROFILES.includes(r.profile), r.id);
    assert.ok(r.id.startsWith(`${r.profile}.`), r.id);
    assert.ok(['error', 'warning'].includes(r.severity), r.id);
  }
});

test('every rule cites an https source and has a one-line remedy', () => {
  for (const r of STRICT_RULES) {
    assert.match(r.source, /^https:\/\/\S+$/, r.id);
    assert.ok(r.remedy.length > 0 && !r.remedy.includes('\n'), r.id);
  }
});

test('every profile has rules', () => {
  for (const p of STRICT_PROFILES) assert.ok(STRICT_RULES.some((r) => r.profile === p), p);
});

test('the strict-subset sources import no node: module and use no Node global', () => {
  const dir = resolve(repoRoot, 'src', 'schema');
  const files = readdirSync(dir).filter((f) => f.startsWith('strict-') && f.endsWith('.ts'));
  assert.ok(files.length >= 5);
  for (const f of files) {
    const text = readFileSync(resolve(dir, f), 'utf8');
    assert.doesNotMatch(text, /from ['"]node:|require\(|\bprocess\.|\bBuffer\b/, f);
  }
});
