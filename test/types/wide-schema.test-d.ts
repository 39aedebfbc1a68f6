// A 30-property input schema through defineTool: the type-check cost of a large, realistic tool.
// Measure with: npx tsc -p test/types/tsconfig.json --extendedDiagnostics
import { defineTool } from '../../src/server/define.js';
import { expectTrue, expectType, type Equal } from './expect.js';

export const wide = defineTool({
  name: 'wide',
  description: 'A tool with thirty arguments.',
  inputSchema: {
    type: 'object',
    properties: {
      p00: { type: 'string' },
      p01: { type: 'integer', minimum: 0 },
      p02: { type: 'boolean' },
      p03: { enum: ['low', 'medium', 'high'] },
      p04: { type: 'array', items: { type: 'string' } },
      p05: { type: ['string', 'null'] },
      p06: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x'],
        additionalProperties: false,
      },
      p07: { $ref: '#/$defs/range' },
      p08: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      p09: {
        type: 'array',
        prefixItems: [{ type: 'number' }, { type: 'number' }],
        minItems: 2,
        items: false,
      },
      p10: { type: 'string' },
      p11: { type: 'integer', minimum: 0 },
      p12: { type: 'boolean' },
      p13: { enum: ['low', 'medium', 'high'] },
      p14: { type: 'array', items: { type: 'string' } },
      p15: { type: ['string', 'null'] },
      p16: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x'],
        additionalProperties: false,
      },
      p17: { $ref: '#/$defs/range' },
      p18: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      p19: {
        type: 'array',
        prefixItems: [{ type: 'number' }, { type: 'number' }],
        minItems: 2,
        items: false,
      },
      p20: { type: 'string' },
      p21: { type: 'integer', minimum: 0 },
      p22: { type: 'boolean' },
      p23: { enum: ['low', 'medium', 'high'] },
      p24: { type: 'array', items: { type: 'string' } },
      p25: { type: ['string', 'null'] },
      p26: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x'],
        additionalProperties: false,
      },
      p27: { $ref: '#/$defs/range' },
      p28: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      p29: {
        type: 'array',
        prefixItems: [{ type: 'number' }, { type: 'number' }],
        minItems: 2,
        items: false,
      },
    },
    required: [
      'p00',
      'p02',
      'p04',
      'p06',
      'p08',
      'p10',
      'p12',
      'p14',
      'p16',
      'p18',
      'p20',
      'p22',
      'p24',
      'p26',
      'p28',
    ],
    additionalProperties: false,
    $defs: {
      range: {
        type: 'object',
        properties: { from: { type: 'integer' }, to: { type: 'integer' } },
        required: ['from', 'to'],
      },
    },
  },
  outputSchema: {
    type: 'object',
    properties: { ok: { type: 'boolean' }, count: { type: 'integer' } },
    required: ['ok'],
    additionalProperties: false,
  },
  run(args) {
    expectType<string>(args.p00);
    expectType<number | undefined>(args.p01);
    expectTrue<Equal<typeof args.p03, 'low' | 'medium' | 'high' | undefined>>();
    expectTrue<Equal<typeof args.p06, { x: number; y?: number }>>();
    expectTrue<
      Equal<typeof args.p07, { from: number; to: number } | undefined>
    >();
    expectTrue<Equal<typeof args.p09, [number, number] | undefined>>();
    expectTrue<Equal<typeof args.p28, string | number>>();
    expectType<string | null | undefined>(args.p25);
    // @ts-expect-error p25 is optional
    expectType<string | null>(args.p25);
    // @ts-expect-error p29 is optional
    expectType<[number, number]>(args.p29);
    // @ts-expect-error there is no p30
    args.p30;
    return { content: [], structuredContent: { ok: true, count: Object.keys(args).length } };
  },
});
