// Floor candidate: setHeader. `statusCode` and `setHeader` then `end(text)`, leaving Content-Length
// to node:http (what most bare servers write); otherwise as the floor (../floor.js).
import { createServer } from 'node:http';
import { listen, reply } from '../floor.js';

listen(
  createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') {
      res.statusCode = 404;
      res.end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const { status, text } = reply((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString());
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(text);
    });
  }),
);
