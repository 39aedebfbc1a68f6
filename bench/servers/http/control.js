// Preloaded (`node --expose-gc --import ./control.js server.js`) into a server whose memory or
// profile bench/http.js measures; not part of any server. Each `gc` line on stdin runs two full
// garbage collections and answers `{"gc":n,...process.memoryUsage()}` on stdout; the end of stdin
// exits the process normally (so that `--cpu-prof` writes its profile).
let n = 0;
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    if (line.trim() !== 'gc') continue;
    globalThis.gc?.();
    globalThis.gc?.();
    process.stdout.write(JSON.stringify({ gc: ++n, ...process.memoryUsage() }) + '\n');
  }
});
process.stdin.on('end', () => process.exit(0));
