/**
 * The rules each vendor's strict tool mode and each strict MCP client apply to a tool's JSON
 * Schema, kept as data: one entry per rule, each naming its source. When a vendor changes its
 * subset, edit the entry here; the walker in `strict-subset.ts` gives each `check.kind` its meaning
 * and needs no change unless a new kind of check appears.
 *
 * Remedies are one-line templates. Placeholders: `{keyword}` (the offending keyword), `{value}`
 * (its value, or a suggested value for tool names), `{name}` (a property name), `{limit}` (the
 * rule's `max`), `{verb}` (`add` when the keyword is missing, `set` when it has the wrong value).
 *
 * Sources were read in the vendors' current documentation and in public client issues; where a
 * vendor documents nothing and only observed refusals exist, the entry says so.
 * @module
 */

/**
 * A strict target: `openai` (strict function calling / Structured Outputs), `anthropic` (strict
 * tool use), `gemini` (function declarations `parameters`, the OpenAPI-subset field) and `mcp`
 * (what MCP clients refuse on their own, whatever the model).
 */
export type StrictProfile = 'openai' | 'anthropic' | 'gemini' | 'mcp';

/** `error`: the target refuses the tool (often the whole request). `warning`: some do. */
export type StrictSeverity = 'error' | 'warning';

/** A running total or size the walker measures (see `strict-subset.ts`). */
export type LimitMeasure =
  | 'object-depth'
  | 'total-properties'
  | 'total-enum-values'
  | 'enum-string-chars'
  | 'total-string-chars'
  | 'optional-properties'
  | 'union-properties';

/** What a rule checks. Each kind is interpreted by the walker in `strict-subset.ts`. */
export type RuleCheck =
  /** One of `keywords` is present (`at: 'root'`: only on the root schema). */
  | { kind: 'keyword'; keywords: readonly string[]; at?: 'root' }
  /** A keyword outside this list is present, unless another `keyword` rule claims it. */
  | { kind: 'allowed-keywords'; keywords: readonly string[] }
  /** `keyword` is present with a value outside `allowed`. */
  | { kind: 'value-in'; keyword: string; allowed: readonly (string | number)[] }
  /** `keyword` holds an array (a type list, draft-07 tuple `items`). */
  | { kind: 'not-array'; keyword: 'type' | 'items' }
  /** `enum` holds a value that is not primitive (`primitive`) or not a string (`string`). */
  | { kind: 'enum-values'; allow: 'primitive' | 'string' }
  /** `pattern` uses a backreference, a lookaround or a word boundary. */
  | { kind: 'pattern-subset' }
  /** The root schema is not `"type": "object"` (for the given role of the schema). */
  | { kind: 'root-object'; role: 'input' | 'output' | 'any' }
  /** An object schema lacks `"additionalProperties": false`. */
  | { kind: 'closed-object' }
  /** An object schema has a property not listed in `required`. */
  | { kind: 'all-required' }
  /** An object schema has no `properties` (`nonEmpty`: or an empty one). */
  | { kind: 'object-properties'; nonEmpty: boolean }
  /** A non-root schema has no `type` and no `anyOf`/`oneOf`/`allOf`, `$ref`, `enum` or `const`. */
  | { kind: 'typed' }
  /** An array schema has no `items`. */
  | { kind: 'array-items' }
  /** A `$ref` does not resolve / is not local / is recursive. */
  | { kind: 'ref'; test: 'resolves' | 'local' | 'not-recursive' }
  /** A measured total passes `max` (`above`: only for enums of more than that many values). */
  | { kind: 'limit'; measure: LimitMeasure; max: number; above?: number }
  /** The tool's name breaks a naming rule (checked only when a tool name is given). */
  | { kind: 'tool-name'; test: 'chars' | 'length' | 'dot'; max: number }
  /** A total over a whole tool list (checked by `findToolSetViolations`). */
  | {
      kind: 'tool-set';
      measure: 'strict-tools' | 'optional-properties' | 'union-properties' | 'unique-names';
      max: number;
    };

/** One rule of one profile. */
export interface StrictRule {
  /** Stable id, `<profile>.<name>`; reported on every violation as `rule`. */
  readonly id: string;
  readonly profile: StrictProfile;
  readonly severity: StrictSeverity;
  readonly check: RuleCheck;
  /** One-line fix, a template (see the module comment for placeholders). */
  readonly remedy: string;
  /** Where the rule comes from: the vendor's documentation page or a client issue. */
  readonly source: string;
}

// Sources used by several entries.
const OPENAI_SO =
  'https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas';
const AZURE_SO = 'https://learn.microsoft.com/en-us/azure/foundry/openai/how-to/structured-outputs';
const CLAUDE_SO = 'https://platform.claude.com/docs/en/build-with-claude/structured-outputs' +
  '#json-schema-limitations';
const GEMINI_SCHEMA = 'https://ai.google.dev/api/caching#Schema';
const MCP_TOOLS = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools';
const MCP_JSON_SCHEMA =
  'https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage';

/** The JSON Schema 2020-12 meta-schema URI, as `$schema` may name it. */
export const DIALECT_2020_12: readonly string[] = [
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2020-12/schema#',
];

/** Fields of Gemini's `Schema` (the OpenAPI 3.0 subset `parameters` takes); others are refused. */
const GEMINI_FIELDS: readonly string[] = [
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems',
  'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern',
  'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum',
];

/** Every rule, grouped by profile. */
export const STRICT_RULES: readonly StrictRule[] = [
  // ---- openai: strict function calling and Structured Outputs ---------------------------------
  // "the root level object of a schema must be an object, and not use anyOf" (OpenAI doc); the
  // API says "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at
  // the top level" (github.com/cecli-dev/cecli/issues/281). oneOf/allOf/not have rules below.
  { id: 'openai.root-object', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'root-object', role: 'any' },
    remedy: 'set "type": "object" at the root and move the value into a property' },
  { id: 'openai.root-anyOf', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['anyOf', 'enum'], at: 'root' },
    remedy: 'move the root "{keyword}" into a property; the root must be a plain object' },
  // Only anyOf is listed as supported composition; "'oneOf' is not permitted"
  // (github.com/openai/openai-node/pull/2602).
  { id: 'openai.oneOf', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['oneOf'] }, remedy: 'use anyOf' },
  // "Composition: allOf, not, dependentRequired, dependentSchemas, if, then, else" (OpenAI doc).
  { id: 'openai.allOf', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['allOf'] },
    remedy: 'merge the allOf branches into one schema' },
  { id: 'openai.not', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['not'] },
    remedy: 'remove "not" and check the value in the tool handler' },
  { id: 'openai.conditional', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['if', 'then', 'else'] },
    remedy: 'remove "{keyword}" and check the condition in the tool handler' },
  { id: 'openai.dependent', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'keyword', keywords: ['dependentRequired', 'dependentSchemas'] },
    remedy: 'remove "{keyword}" and check the dependency in the tool handler' },
  // "'uniqueItems' is not permitted" (github.com/1jehuang/jcode/issues/687).
  { id: 'openai.uniqueItems', profile: 'openai', severity: 'error',
    source: 'https://github.com/1jehuang/jcode/issues/687',
    check: { kind: 'keyword', keywords: ['uniqueItems'] },
    remedy: 'remove "uniqueItems" and drop duplicates in the tool handler' },
  // "'propertyNames' is not permitted" (github.com/can1357/oh-my-pi/issues/209); patternProperties
  // and the rest are listed as unsupported in Azure OpenAI's copy of the strict subset.
  { id: 'openai.open-object-keywords', profile: 'openai', severity: 'error', source: AZURE_SO,
    check: { kind: 'keyword',
      keywords: ['patternProperties', 'propertyNames', 'unevaluatedProperties', 'minProperties',
        'maxProperties'] },
    remedy: 'remove "{keyword}" and name every key in "properties"' },
  { id: 'openai.array-keywords', profile: 'openai', severity: 'error', source: AZURE_SO,
    check: { kind: 'keyword',
      keywords: ['unevaluatedItems', 'contains', 'minContains', 'maxContains'] },
    remedy: 'remove "{keyword}" and check the items in the tool handler' },
  // "'default' is not permitted" (github.com/567-labs/instructor/issues/1074); api.openai.com
  // accepted it in 2026 while Azure still refused it
  // (github.com/openai/openai-agents-python/issues/4390).
  { id: 'openai.default', profile: 'openai', severity: 'warning',
    source: 'https://github.com/openai/openai-agents-python/issues/4390',
    check: { kind: 'keyword', keywords: ['default'] },
    remedy: 'remove "default" (strict mode sends every property, so it is never used)' },
  // "additionalProperties: false must always be set in objects" (OpenAI doc).
  { id: 'openai.closed-object', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'closed-object' }, remedy: '{verb} "additionalProperties": false' },
  // "all fields or function parameters must be specified as required"; optional = union with null.
  { id: 'openai.all-required', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'all-required' }, remedy: 'list "{name}" in required and make it nullable' },
  // "In context=(), object schema missing properties" (github.com/kagent-dev/kagent/issues/1888,
  // github.com/openai/openai-agents-python/issues/449).
  { id: 'openai.object-properties', profile: 'openai', severity: 'error',
    source: 'https://github.com/openai/openai-agents-python/issues/449',
    check: { kind: 'object-properties', nonEmpty: false }, remedy: 'add "properties": {}' },
  // "In context=('properties', 'x'), schema must have a 'type' key"
  // (github.com/FlowiseAI/Flowise/issues/5109).
  { id: 'openai.typed', profile: 'openai', severity: 'error',
    source: 'https://github.com/FlowiseAI/Flowise/issues/5109',
    check: { kind: 'typed' }, remedy: 'add a "type" (or use anyOf over typed branches)' },
  // "format — Currently supported: date-time, time, date, duration, email, hostname, ipv4, ipv6,
  // uuid" (OpenAI doc): no uri.
  { id: 'openai.format', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'value-in', keyword: 'format',
      allowed: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6',
        'uuid'] },
    remedy: 'remove "format": "{value}" and say it in the "description"' },
  // "up to 5000 object properties total, with up to 10 levels of nesting"; "up to 1000 enum values
  // across all enum properties"; "more than 250 enum values ... cannot exceed 15,000 characters";
  // "total string length of all property names, definition names, enum values, and const values
  // cannot exceed 120,000 characters" (OpenAI doc). Nesting counts object schemas.
  { id: 'openai.nesting', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'limit', measure: 'object-depth', max: 10 },
    remedy: 'flatten the schema to at most {limit} levels of nested objects' },
  { id: 'openai.total-properties', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'limit', measure: 'total-properties', max: 5000 },
    remedy: 'split the tool: at most {limit} properties in one schema' },
  { id: 'openai.total-enum-values', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'limit', measure: 'total-enum-values', max: 1000 },
    remedy: 'use a plain string: at most {limit} enum values in one schema' },
  { id: 'openai.enum-string-chars', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'limit', measure: 'enum-string-chars', max: 15000, above: 250 },
    remedy: 'shorten the enum: at most {limit} characters when it has more than 250 values' },
  { id: 'openai.total-string-chars', profile: 'openai', severity: 'error', source: OPENAI_SO,
    check: { kind: 'limit', measure: 'total-string-chars', max: 120000 },
    remedy: 'shorten names and enum values: at most {limit} characters in one schema' },

  // ---- anthropic: strict tool use (same grammar compiler as Structured Outputs) ---------------
  // Any tool: "input_schema does not support oneOf, allOf, or anyOf at the top level"
  // (github.com/anthropics/claude-code/issues/5319); input_schema must be an object.
  { id: 'anthropic.root-object', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'root-object', role: 'any' },
    remedy: 'set "type": "object" at the root and move the value into a property' },
  { id: 'anthropic.root-combinator', profile: 'anthropic', severity: 'error',
    source: 'https://github.com/anthropics/claude-code/issues/5319',
    check: { kind: 'keyword', keywords: ['anyOf', 'oneOf', 'allOf'], at: 'root' },
    remedy: 'remove the root "{keyword}" and check the combination in the tool handler' },
  // Not supported: "Numerical constraints (minimum, maximum, multipleOf)", "String constraints
  // (minLength, maxLength)", "Array constraints beyond minItems of 0 or 1" (Claude doc);
  // "For 'integer' type, property 'minimum' is not supported"
  // (github.com/agentjido/req_llm/issues/302).
  { id: 'anthropic.numeric-bounds', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'keyword',
      keywords: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] },
    remedy: 'remove "{keyword}" and check the bound in the tool handler' },
  { id: 'anthropic.string-length', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'keyword', keywords: ['minLength', 'maxLength'] },
    remedy: 'remove "{keyword}" and check the length in the tool handler' },
  { id: 'anthropic.min-items', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'value-in', keyword: 'minItems', allowed: [0, 1] },
    remedy: 'use "minItems": 0 or 1 and check the count in the tool handler' },
  { id: 'anthropic.array-bounds', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'keyword', keywords: ['maxItems', 'uniqueItems'] },
    remedy: 'remove "{keyword}" and check the items in the tool handler' },
  // "additionalProperties ... must be set to false" on every object in a strict schema.
  { id: 'anthropic.closed-object', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'closed-object' }, remedy: '{verb} "additionalProperties": false' },
  // "Recursive schemas" and "External $ref" are not supported.
  { id: 'anthropic.recursive-ref', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'ref', test: 'not-recursive' },
    remedy: 'unroll the recursion to a fixed depth and inline the $ref' },
  { id: 'anthropic.external-ref', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'ref', test: 'local' }, remedy: 'inline the $ref' },
  // "Complex types in enums" are not supported.
  { id: 'anthropic.enum-values', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'enum-values', allow: 'primitive' },
    remedy: 'use only strings, numbers, booleans or null in "enum"' },
  // Supported formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid.
  { id: 'anthropic.format', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'value-in', keyword: 'format',
      allowed: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4',
        'ipv6', 'uuid'] },
    remedy: 'remove "format": "{value}" and say it in the "description"' },
  // "pattern": regular expressions without backreferences, lookaround or word boundaries.
  { id: 'anthropic.pattern', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'pattern-subset' },
    remedy: 'rewrite "pattern" without backreferences, lookaround or \\b' },
  // Per request, across all strict tools: "24 optional parameters", "16 parameters using union
  // types" (anyOf or type arrays), "20 strict tools" (Claude doc). One schema past 24 or 16 can
  // never be sent; the request-wide totals are checked by findToolSetViolations.
  { id: 'anthropic.optional-properties', profile: 'anthropic', severity: 'error',
    source: CLAUDE_SO, check: { kind: 'limit', measure: 'optional-properties', max: 24 },
    remedy: 'list "{name}" in required: at most {limit} optional parameters per request' },
  { id: 'anthropic.union-properties', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'limit', measure: 'union-properties', max: 16 },
    remedy: 'use one type here: at most {limit} union-typed parameters per request' },
  { id: 'anthropic.strict-tools', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'tool-set', measure: 'strict-tools', max: 20 },
    remedy: 'mark at most {limit} tools strict in one request' },
  { id: 'anthropic.tool-set-optional', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'tool-set', measure: 'optional-properties', max: 24 },
    remedy: 'make more parameters required: at most {limit} optional across strict tools' },
  { id: 'anthropic.tool-set-union', profile: 'anthropic', severity: 'error', source: CLAUDE_SO,
    check: { kind: 'tool-set', measure: 'union-properties', max: 16 },
    remedy: 'use single types: at most {limit} union-typed parameters across strict tools' },

  // ---- gemini: FunctionDeclaration.parameters (OpenAPI 3.0 subset) ----------------------------
  // "functionDeclaration parameters schema should be of type OBJECT"
  // (github.com/diegosouzapw/OmniRoute/pull/3360).
  { id: 'gemini.root-object', profile: 'gemini', severity: 'error',
    source: 'https://github.com/diegosouzapw/OmniRoute/pull/3360',
    check: { kind: 'root-object', role: 'any' },
    remedy: 'set "type": "object" at the root and move the value into a property' },
  // Fields outside Schema get "Invalid JSON payload received. Unknown name ... Cannot find field":
  // additionalProperties (github.com/nanbingxyz/5ire/issues/42), const
  // (github.com/zed-industries/zed/issues/44875), $ref (github.com/decolua/9router/issues/1036),
  // $schema (github.com/openswarm-ai/openswarm/issues/24).
  { id: 'gemini.additionalProperties', profile: 'gemini', severity: 'error',
    source: 'https://github.com/nanbingxyz/5ire/issues/42',
    check: { kind: 'keyword', keywords: ['additionalProperties'] },
    remedy: 'remove "additionalProperties" (Gemini parameters have no such field)' },
  { id: 'gemini.ref', profile: 'gemini', severity: 'error',
    source: 'https://github.com/decolua/9router/issues/1036',
    check: { kind: 'keyword', keywords: ['$ref'] }, remedy: 'inline the $ref' },
  { id: 'gemini.defs', profile: 'gemini', severity: 'error', source: GEMINI_SCHEMA,
    check: { kind: 'keyword', keywords: ['$defs', 'definitions'] },
    remedy: 'inline each definition where it is used and remove "{keyword}"' },
  { id: 'gemini.const', profile: 'gemini', severity: 'error',
    source: 'https://github.com/zed-industries/zed/issues/44875',
    check: { kind: 'keyword', keywords: ['const'] },
    remedy: 'use "enum" with the one value as a string' },
  { id: 'gemini.oneOf', profile: 'gemini', severity: 'error', source: GEMINI_SCHEMA,
    check: { kind: 'keyword', keywords: ['oneOf'] }, remedy: 'use anyOf' },
  { id: 'gemini.unknown-field', profile: 'gemini', severity: 'error',
    source: 'https://github.com/openswarm-ai/openswarm/issues/24',
    check: { kind: 'allowed-keywords', keywords: GEMINI_FIELDS },
    remedy: 'remove "{keyword}" (not a field of Gemini\'s Schema)' },
  // Schema.type is one Type, not a list; nullability is "nullable": true.
  { id: 'gemini.type-array', profile: 'gemini', severity: 'error', source: GEMINI_SCHEMA,
    check: { kind: 'not-array', keyword: 'type' },
    remedy: 'use one "type" and "nullable": true (or anyOf, one type per branch)' },
  // Schema.enum is string[]: "Invalid value at '...enum[0]' (TYPE_STRING), 2"
  // (github.com/microsoft/azure-devops-mcp/issues/145); "enum only allowed for STRING type"
  // (github.com/decolua/9router/pull/380).
  { id: 'gemini.enum-string', profile: 'gemini', severity: 'error',
    source: 'https://github.com/microsoft/azure-devops-mcp/issues/145',
    check: { kind: 'enum-values', allow: 'string' },
    remedy: 'use "type": "string" and write the enum values as strings' },
  // format "must be either 'enum' or 'date-time'" for strings on the Gemini Developer API
  // (firebase.google.com/docs/reference/js/ai.schemashared); float/double/int32/int64 for numbers.
  { id: 'gemini.format', profile: 'gemini', severity: 'error',
    source: 'https://firebase.google.com/docs/reference/js/ai.schemashared',
    check: { kind: 'value-in', keyword: 'format',
      allowed: ['enum', 'date-time', 'float', 'double', 'int32', 'int64'] },
    remedy: 'remove "format": "{value}" and say it in the "description"' },
  // "parameters.properties: should be non-empty for OBJECT type"
  // (github.com/pipecat-ai/pipecat-flows/issues/110); accepted by some models since.
  { id: 'gemini.empty-object', profile: 'gemini', severity: 'warning',
    source: 'https://github.com/pipecat-ai/pipecat-flows/issues/110',
    check: { kind: 'object-properties', nonEmpty: true },
    remedy: 'declare at least one property (a client should omit parameters for no arguments)' },

  // ---- mcp: what MCP clients refuse on their own -----------------------------------------------
  // Tool.inputSchema: "type": {"const": "object"} (every revision's schema.json).
  { id: 'mcp.input-root-object', profile: 'mcp', severity: 'error', source: MCP_TOOLS,
    check: { kind: 'root-object', role: 'input' },
    remedy: 'set "type": "object" at the root and move the value into a property' },
  // Tool.outputSchema "Currently restricted to type: object at the root level" up to 2025-11-25;
  // one client discards the whole tool list on it (cases file, case 5).
  { id: 'mcp.output-root-object', profile: 'mcp', severity: 'error', source: MCP_TOOLS,
    check: { kind: 'root-object', role: 'output' },
    remedy: 'set "type": "object" at the root and return the value in a property' },
  // Root composition is refused by the Anthropic API whatever the client
  // (github.com/anthropics/claude-code/issues/5319) and by OpenAI (cecli-dev/cecli#281).
  { id: 'mcp.root-combinator', profile: 'mcp', severity: 'error',
    source: 'https://github.com/anthropics/claude-code/issues/5319',
    check: { kind: 'keyword', keywords: ['anyOf', 'oneOf', 'allOf'], at: 'root' },
    remedy: 'remove the root "{keyword}" and check the combination in the tool handler' },
  // VS Code: "tool parameters array type must have items"
  // (github.com/microsoft/vscode/issues/246119).
  { id: 'mcp.array-items', profile: 'mcp', severity: 'error',
    source: 'https://github.com/microsoft/vscode/issues/246119',
    check: { kind: 'array-items' },
    remedy: 'add "items" (for example "items": {"type": "string"})' },
  // Clients "MUST NOT automatically dereference network $ref values"; a local one must resolve.
  { id: 'mcp.dangling-ref', profile: 'mcp', severity: 'error', source: MCP_JSON_SCHEMA,
    check: { kind: 'ref', test: 'resolves' }, remedy: 'define the $ref target or inline the $ref' },
  { id: 'mcp.remote-ref', profile: 'mcp', severity: 'warning', source: MCP_JSON_SCHEMA,
    check: { kind: 'ref', test: 'local' }, remedy: 'inline the $ref (clients do not fetch it)' },
  // 2020-12 is the default dialect (MCP 2025-11-25, JSON Schema usage); a client whose validator
  // takes 2020-12 only refuses draft-07 forms and dialects (cases file, cases 1 and 2).
  { id: 'mcp.schema-dialect', profile: 'mcp', severity: 'error', source: MCP_JSON_SCHEMA,
    check: { kind: 'value-in', keyword: '$schema', allowed: DIALECT_2020_12 },
    remedy: 'remove "$schema" (MCP defaults to JSON Schema 2020-12)' },
  { id: 'mcp.dependencies', profile: 'mcp', severity: 'error', source: MCP_JSON_SCHEMA,
    check: { kind: 'keyword', keywords: ['dependencies'] },
    remedy: 'use "dependentRequired" (name lists) or "dependentSchemas" (schemas)' },
  { id: 'mcp.tuple-items', profile: 'mcp', severity: 'error', source: MCP_JSON_SCHEMA,
    check: { kind: 'not-array', keyword: 'items' },
    remedy: 'use "prefixItems" for the tuple (2020-12 "items" is one schema)' },
  { id: 'mcp.additionalItems', profile: 'mcp', severity: 'error', source: MCP_JSON_SCHEMA,
    check: { kind: 'keyword', keywords: ['additionalItems'] },
    remedy: 'use "items" next to "prefixItems" instead of "additionalItems"' },
  // `definitions` still resolves by JSON Pointer in 2020-12, so it is a warning.
  { id: 'mcp.definitions', profile: 'mcp', severity: 'warning', source: MCP_JSON_SCHEMA,
    check: { kind: 'keyword', keywords: ['definitions'] },
    remedy: 'rename "definitions" to "$defs" and update each $ref' },
  // Names: 1-128 of [A-Za-z0-9_.-] (MCP 2025-11-25, Tool Names), but OpenAI and Gemini cap
  // function names at 64 and several clients take only ^[A-Za-z0-9_-]{1,64}$.
  { id: 'mcp.tool-name-chars', profile: 'mcp', severity: 'error', source: MCP_TOOLS + '#tool-names',
    check: { kind: 'tool-name', test: 'chars', max: 64 },
    remedy: 'rename the tool to "{value}" (only A-Z a-z 0-9 _ - .)' },
  { id: 'mcp.tool-name-length', profile: 'mcp', severity: 'error',
    source: MCP_TOOLS + '#tool-names', check: { kind: 'tool-name', test: 'length', max: 64 },
    remedy: 'shorten the tool name to {limit} characters or fewer' },
  { id: 'mcp.tool-name-dot', profile: 'mcp', severity: 'warning',
    source: MCP_TOOLS + '#tool-names', check: { kind: 'tool-name', test: 'dot', max: 64 },
    remedy: 'rename the tool to "{value}" (several clients take only ^[A-Za-z0-9_-]{1,64}$)' },
  // "Tool names SHOULD be unique within a server."
  { id: 'mcp.unique-names', profile: 'mcp', severity: 'error', source: MCP_TOOLS + '#tool-names',
    check: { kind: 'tool-set', measure: 'unique-names', max: 1 },
    remedy: 'give each tool its own name' },
];
