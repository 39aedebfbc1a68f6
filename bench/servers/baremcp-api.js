// baremcp through its API: createServer + serveStdio, no CLI in between.
import { createServer } from '../../dist/bundle/index.js';
import { serveStdio } from '../../dist/bundle/transport/stdio.js';
import definition from './baremcp-echo.js';

serveStdio(createServer(definition));
