// Floor candidate: string body. The request stream decodes utf8 (`setEncoding`) and the body is
// built by string concatenation; otherwise as the floor (../floor.js).
import { createServer } from 'node:http';
import { listen, reply } from '../floor.js';

listen(
  createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') {
      res.writeHead(404, ['content-length', '0']).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { status, text } = reply(body);
      res.writeHead(status, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))]);
      res.end(text);
    });
  }),
);
