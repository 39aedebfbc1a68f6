// The smallest server: a plain object, no import. Serve it: `npx baremcp serve examples/echo.js`.
export default {
  info: { name: 'echo', version: '1.0.0' },
  tools: [
    {
      name: 'echo',
      description: 'Repeat a text back, `times` times (default 1).',
      inputSchema: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'What to say.' },
          times: { type: 'integer', minimum: 1, maximum: 10 },
        },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      run: ({ text, times = 1 }) => Array(times).fill(text).join(' '),
    },
  ],
};
