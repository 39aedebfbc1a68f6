// The request context: progress, logging, cancellation and elicitation (works in both eras).
import { createServer, defineTool } from 'baremcp';

const cleanUp = defineTool({
  name: 'clean_up',
  description: 'Delete the temporary files of a project, after asking the user.',
  inputSchema: {
    type: 'object',
    properties: { project: { type: 'string' } },
    required: ['project'],
  },
  annotations: { destructiveHint: true },
  run: async ({ project }, ctx) => {
    const files = ['a.tmp', 'b.tmp', 'c.tmp'];
    const { action, content } = await ctx.elicit({
      message: `Delete ${files.length} temporary files of ${project}?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      },
    });
    // `content` is JSON the user typed in: Object() makes any value safe to read a key from.
    if (action !== 'accept' || Object(content).confirm !== true) return 'Nothing deleted.';
    for (const [i, file] of files.entries()) {
      if (ctx.signal.aborted) return { content: [{ type: 'text', text: 'Stopped.' }], isError: true };
      ctx.log('info', { deleted: file });
      ctx.progress(i + 1, files.length, `deleted ${file}`);
    }
    return `Deleted ${files.length} files.`;
  },
});

export default createServer({ info: { name: 'ask', version: '1.0.0' }, tools: [cleanUp] });
