// Floor candidate: readline (issue 9's floor). node:readline over stdin, one write per reply:
// what a bare stdio server usually looks like. Slower than the string floor (bench/servers/floor.js):
// a line event and a stream write for every message.
import { createInterface } from 'node:readline';
import { reply } from '../floor.js';

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const out = reply(line);
  if (out !== '') process.stdout.write(out);
});
