// Floor candidate: header object. `writeHead(status, { ... })` with a header object instead of a
// flat array of raw headers; otherwise as the floor (../floor.js).
import { createServer } from 'node:http';
import { listen, reply } from '../floor.js';

listen(
  createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') {
      res.writeHead(404, { 'content-length': '0' }).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const { status, text } = reply((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString());
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  }),
);
