// The echo tool as a plain baremcp module: `export default { info, tools }`, no import at all.
// Served by `node dist/cli/main.js serve bench/servers/baremcp-echo.js`.

/** @type {import('../../dist/index.js').ToolDefinition} */
const echo = {
  name: 'echo',
  description: 'Echo the text back, optionally upper-cased and repeated.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to echo.' },
      count: { type: 'integer', minimum: 1, maximum: 100, description: 'Repetitions (default 1).' },
      loud: { type: 'boolean', description: 'Upper-case the text.' },
      tags: { type: 'array', items: { type: 'string' }, description: 'Labels (ignored).' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  run({ text, count = 1, loud = false }) {
    const word = loud ? text.toUpperCase() : text;
    return count === 1 ? word : Array(count).fill(word).join(' ');
  },
};

export default { info: { name: 'bench-baremcp', version: '1.0.0' }, tools: [echo] };
