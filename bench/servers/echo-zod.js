// The bench's echo tool for the peers that take zod (SDK v1 and v2, fastmcp, mcp-lite, tmcp, over
// stdio and HTTP), one copy: the same tool as baremcp-echo.js and the floors' (which stay one file
// each, so that a floor's cold start loads nothing more). Each peer wraps `shape` as its API wants
// (a shape, or `z.object(shape)`).
import { z } from 'zod';

/** The tool's description. */
export const description = 'Echo the text back, optionally upper-cased and repeated.';

/** Its arguments as a zod shape: `text` required; `count` 1–100, `loud`, `tags` optional. */
export const shape = {
  text: z.string().describe('The text to echo.'),
  count: z.number().int().min(1).max(100).optional().describe('Repetitions (default 1).'),
  loud: z.boolean().optional().describe('Upper-case the text.'),
  tags: z.array(z.string()).optional().describe('Labels (ignored).'),
};

/** The echoed text: `text`, upper-cased when `loud`, `count` times joined by spaces. */
export function echoText({ text, count = 1, loud = false }) {
  const word = loud ? text.toUpperCase() : text;
  return count === 1 ? word : Array(count).fill(word).join(' ');
}

/** The `tools/call` result of {@link echoText}: one text content item. */
export const echoResult = (args) => ({ content: [{ type: 'text', text: echoText(args) }] });
