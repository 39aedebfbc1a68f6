// Floor candidate: blocking. No event loop and no streams: fs.readSync on fd 0 into one buffer,
// the bytes candidate's scan, and fs.writeSync on fd 1. Not faster than the string floor
// (bench/servers/floor.js): the reads return small chunks while the client keeps 256 in flight,
// and each chunk costs a decode per line.
import { readSync, writeSync } from 'node:fs';
import { reply } from '../floor.js';

const buffer = Buffer.allocUnsafe(64 * 1024);
let rest = null; // the unfinished line of the previous read
for (;;) {
  let n;
  try {
    n = readSync(0, buffer, 0, buffer.length, null);
  } catch (error) {
    if (error.code === 'EAGAIN') continue;
    if (error.code === 'EOF') break;
    throw error;
  }
  if (n === 0) break;
  const chunk = buffer.subarray(0, n);
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
  // Copy: the next read reuses the buffer.
  if (start < n) rest = Buffer.concat(rest === null ? [chunk.subarray(start)] : [rest, chunk.subarray(start)]);
  const bytes = Buffer.from(out);
  for (let written = 0; written < bytes.length; ) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}
