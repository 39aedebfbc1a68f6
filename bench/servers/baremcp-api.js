// baremcp through its API: createServer + serveStdio, no CLI in between.
import { createServer } from '../../dist/index.js';
import { serveStdio } from '../../dist/transport/stdio.js';
import definition from './baremcp-echo.js';

serveStdio(createServer(definition));
