/**
 * Checks a whole `tools/list` under one strict profile: every tool's schemas and name, plus the
 * limits that hold across the list (Anthropic's per-request totals for strict tools, unique
 * names for MCP). This is what `baremcp check` runs for each profile.
 * Spec: MCP 2025-11-25, Server / Tools; limits as cited in `strict-rules.ts`.
 * @module
 */
import type { JsonSchema } from '../protocol/types.js';
import { STRICT_RULES } from './strict-rules.js';
import type { StrictProfile } from './strict-rules.js';
import { checkProfile, violation, walk } from './strict-subset.js';
import type { StrictViolation } from './strict-subset.js';

/** A violation attributed to a tool, as `findToolSetViolations` and the CLI report it. */
export type ToolViolation = StrictViolation & { tool: string };

/** A tool as `findToolSetViolations` reads it (the `tools/list` shape). */
export interface ToolSchemas {
  name: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

const TOOL_SET_KEYWORD = {
  'strict-tools': 'strict', 'unique-names': 'name', 'optional-properties': 'required',
  'union-properties': 'anyOf',
} as const;

/**
 * Checks a whole tool list under `profile`: each tool's `inputSchema` and name, for `mcp` its
 * `outputSchema` too (paths prefixed `outputSchema.`; vendors never see an output schema, the
 * MCP client validates `structuredContent` with it), and the totals over the list (Anthropic's
 * per-request limits, counted as if every tool were sent strict, reported on the tool that passes
 * them; a repeated name for `mcp`). An empty list means every tool keeps `profile`.
 * @throws {TypeError} when `profile` is missing or not one of `STRICT_PROFILES` (the message
 *   lists them).
 */
export function findToolSetViolations(tools: readonly ToolSchemas[],
  profile: StrictProfile): ToolViolation[] {
  checkProfile('findToolSetViolations', profile);
  const rows: ToolViolation[] = [];
  const sums = new Map<string, number>();
  const names = new Set<string>();
  const setRules = STRICT_RULES.filter((r) => r.profile === profile && r.check.kind === 'tool-set');
  for (const tool of tools) {
    const input = walk(tool.inputSchema, profile, { toolName: tool.name, role: 'input' });
    rows.push(...input.out.map((v) => ({ ...v, tool: tool.name })));
    if (tool.outputSchema !== undefined && profile === 'mcp') {
      const output = walk(tool.outputSchema, profile, { role: 'output' }).out;
      rows.push(...output.map((v) => ({ ...v, path: `outputSchema.${v.path}`, tool: tool.name })));
    }
    for (const rule of setRules) {
      const c = rule.check;
      if (c.kind !== 'tool-set') continue;
      const add = c.measure === 'strict-tools' ? 1
        : c.measure === 'unique-names' ? 0 : input.totals.get(c.measure) ?? 0;
      const before = sums.get(rule.id) ?? 0;
      sums.set(rule.id, before + add);
      // A tool that alone passes the limit was already reported by its own schema rule.
      const passed = before <= c.max && before + add > c.max && add <= c.max;
      if (passed || (c.measure === 'unique-names' && names.has(tool.name))) {
        rows.push({ ...violation(rule, [], TOOL_SET_KEYWORD[c.measure]), tool: tool.name });
      }
    }
    names.add(tool.name);
  }
  return rows;
}
