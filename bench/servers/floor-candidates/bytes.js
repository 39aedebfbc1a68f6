// Floor candidate: bytes. Each chunk stays a Buffer: one indexOf(0x0a) scan, one utf8 decode per
// line (Buffer#toString over the line's range), one write per chunk. Slower than the string floor
// (bench/servers/floor.js): a decode call per line costs more than one decode per chunk.
import { reply } from '../floor.js';

let rest = null; // the unfinished line of the previous chunk
process.stdin.on('data', (chunk) => {
  let out = '';
  let start = 0;
  let newline = chunk.indexOf(10);
  if (newline !== -1 && rest !== null) {
    out += reply(Buffer.concat([rest, chunk.subarray(0, newline)]).toString());
    rest = null;
    start = newline + 1;
    newline = chunk.indexOf(10, start);
  }
  while (newline !== -1) {
    if (newline > start) out += reply(chunk.toString('utf8', start, newline));
    start = newline + 1;
    newline = chunk.indexOf(10, start);
  }
  if (start < chunk.length) rest = rest === null ? chunk.subarray(start) : Buffer.concat([rest, chunk.subarray(start)]);
  if (out !== '') process.stdout.write(out);
});
