// Shared by the server tests: validators for ../shared/mcp-schema/<revision>/schema.json
// definitions, and a fake request context. Not a test file itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { shared } from '../helpers.js';

/** Every published revision, oldest first. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** The folder of the official schemas, or undefined (tests then skip with this message). */
export const schemaDir = shared('mcp-schema');
export const SKIP = schemaDir === undefined ? 'needs ../shared/mcp-schema (absent)' : false;

const validators = new Map();

function ajvFor(revision) {
  if (validators.has(revision)) return validators.get(revision);
  const schema = JSON.parse(readFileSync(join(schemaDir, revision, 'schema.json'), 'utf8'));
  const modern = schema.$defs !== undefined;
  // Formats (uri, byte, uri-template) are not checked here: the tests check URIs with isUri.
  const ajv = modern
    ? new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
    : new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(schema, 'mcp');
  const entry = { ajv, pointer: modern ? 'mcp#/$defs/' : 'mcp#/definitions/', schema };
  validators.set(revision, entry);
  return entry;
}

/** True when `revision`'s schema defines `name`. */
export function hasDefinition(revision, name) {
  const { schema } = ajvFor(revision);
  return (schema.$defs ?? schema.definitions)[name] !== undefined;
}

/** Fails with ajv's messages unless `value` is a valid `definition` of `revision`. */
export function assertSchema(revision, definition, value) {
  const { ajv, pointer } = ajvFor(revision);
  const validate = ajv.getSchema(pointer + definition);
  if (validate === undefined) throw new Error(`${revision} has no definition ${definition}`);
  if (!validate(value)) {
    throw new Error(
      `not a valid ${revision} ${definition}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`,
    );
  }
}

/** A request context as a handler receives it, for `revision`. */
export function fakeCtx(protocolVersion = '2025-11-25', extra = {}) {
  return {
    requestId: 1,
    method: 'test',
    protocolVersion,
    client: { capabilities: {} },
    signal: new AbortController().signal,
    meta: undefined,
    progress() {},
    log() {},
    ...extra,
  };
}

/**
 * A registry's result as the server would send it at `revision` (the pipeline adds the
 * 2026-07-28 fields in one pass: resultType, serverInfo, and for a cacheable method, named by
 * its `cacheScope`, the server's default hints: ttlMs 0).
 */
export async function shaped(revision, result, cacheScope) {
  const cache = cacheScope === undefined ? undefined : { ttlMs: 0, cacheScope };
  const { shapeResult } = await import('../../dist/server/result.js');
  return shapeResult(await result, {
    modern: revision >= '2026-07-28',
    serverInfo: { name: 'test', version: '1.0.0' },
    cache,
  });
}
