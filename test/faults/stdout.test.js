// A tool that writes to stdout: nothing but protocol messages may reach the wire. Extends
// test/cli/process.test.js (console.log/info/debug, process.stdout.write of a string) to every
// other console method, Buffers, write callbacks, a Console made on process.stdout, and a forged
// JSON-RPC line. Issue 10; cases/protocol.md case 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWire } from '../fuzz/model.js';
import { INIT, INITD, callLine, pingLine, startServer } from './process.js';

test('console.dir/table/group/count, Buffers, write callbacks and a Console on process.stdout stay off the wire', async () => {
  const server = startServer();
  server.child.stdin.end(`${INIT}\n${INITD}\n${callLine(1, 'noisy')}\n${pingLine(2)}\n`);
  const { code } = await server.exited;
  assert.equal(code, 0);
  const { messages, problems } = parseWire(server.stdoutBytes());
  assert.deepEqual(problems, []);
  assert.deepEqual(messages.map((m) => String(m.id)).sort(), ['1', '2', 'init']);
  // The forged line a tool printed is not a reply the client sees.
  assert.equal(
    messages.some((m) => m.id === 99),
    false,
  );
  assert.equal(
    server.byId(1).result.content[0].text,
    'callbacks fired: 3',
    'write callbacks still fire',
  );
  for (const text of [
    'console.log',
    'console.info',
    'console.debug',
    'console.dir',
    'console.table',
    'console.group',
    'inside a group',
    'console.count',
    'a Console made on process.stdout',
    'stdout.write with a callback',
    'stdout.write of a Buffer',
    'stdout.write with an encoding',
    '"id":99',
  ]) {
    assert.ok(server.stderr().includes(text), `stderr has "${text}"`);
  }
});

// Found by this suite: the guard replaces process.stdout.write and the console, but cannot stop a
// write to file descriptor 1 itself: fs.writeSync(1, ...) and a child process that inherits
// stdout put raw text on the wire. baremcp cannot close that hole in-process (SECURITY.md).
for (const tool of ['fd1', 'child_inherit']) {
  test(
    `a tool that writes to fd 1 directly (${tool}) does not corrupt the wire`,
    { todo: 'fd 1 is shared; documented in SECURITY.md as not defended' },
    async () => {
      const server = startServer();
      server.child.stdin.end(`${INIT}\n${callLine(1, tool)}\n`);
      await server.exited;
      assert.deepEqual(parseWire(server.stdoutBytes()).problems, []);
    },
  );
}
