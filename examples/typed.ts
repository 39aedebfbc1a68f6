// Typed definitions: `run`, `get` and `read` see arguments typed from the literals, with no casts.
import { createServer, definePrompt, defineResourceTemplate, defineTool } from 'baremcp';

const units = { celsius: 'C', fahrenheit: 'F' } as const;

export const forecast = defineTool({
  name: 'forecast',
  description: 'The forecast for a city, for up to 7 days.',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, highs: { type: 'array', items: { type: 'number' } } },
    required: ['city', 'highs'],
  },
  run: ({ city, days = 3, unit = 'celsius' }) => {
    const highs = Array.from({ length: days }, (_, i) => (unit === 'celsius' ? 20 + i : 68 + 2 * i));
    const text = `${city}: ${highs.map((h) => `${h}°${units[unit]}`).join(', ')}`;
    return { content: [{ type: 'text', text }], structuredContent: { city, highs } };
  },
});

const plan = definePrompt({
  name: 'plan_trip',
  description: 'Plan a trip around the weather.',
  arguments: [{ name: 'city', required: true }, { name: 'month' }],
  get: ({ city, month }) =>
    `Plan three days in ${city}${month ? ` in ${month}` : ''}; check the forecast first.`,
});

const cities = defineResourceTemplate({
  uriTemplate: 'weather://cities/{name}',
  name: 'city',
  mimeType: 'text/plain',
  read: ({ name }) => `${name}: a city with weather.`,
});

const info = { name: 'weather', version: '1.0.0' };
export default createServer({ info, tools: [forecast], prompts: [plan], resources: [cities] });
