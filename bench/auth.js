// Benchmark (issue 16): the cost of authorization per request with a warm key cache, for RS256
// and ES256 tokens. Floor: bare `crypto.subtle.verify` of the token's signature (pre-decoded
// bytes, imported key). baremcp: `ResourceServer.authenticate(request)` on a token it has not
// seen (header parsed, JWS decoded, key looked up, signature verified, claims checked, caller
// built and cached), and on a token it has seen (answered from the verified-token cache until its
// exp). Peer: jose's `jwtVerify` with a local JWK Set (the library most Node servers use; it has
// no token cache). Every figure is µs per request, the median of interleaved rounds; the cost
// is CPU time (user + system, all threads: WebCrypto verifies on libuv's thread pool), which a
// loaded machine does not stretch, with wall-clock time beside it.
//
//   node bench/auth.js [--quick] [--json]      (bench/run.js runs it and adds it to RESULTS.md)
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { createResourceServer } from '../dist/auth/index.js';

const AUDIENCE = 'https://mcp.example.com/mcp';
const ALGS = {
  RS256: { generate: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  ES256: { generate: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
};
const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** A loopback issuer serving its metadata and JWK Set; resolves to { issuer, keys, close }. */
async function startIssuer() {
  const keys = {};
  for (const [alg, spec] of Object.entries(ALGS)) {
    const pair = await crypto.subtle.generateKey(spec.generate, true, ['sign', 'verify']);
    keys[alg] = { ...pair, jwk: { ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: `bench-${alg}`, alg, use: 'sig' } };
  }
  const jwks = { keys: Object.values(keys).map((k) => k.jwk) };
  const http = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/oauth-authorization-server') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify(jwks));
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  return { issuer, keys, jwks, close: () => new Promise((resolve) => http.close(resolve)) };
}

/** `count` distinct tokens signed with `alg`, with their decoded signature and signing input. */
async function tokens(issuer, keys, alg, count) {
  const header = b64(JSON.stringify({ alg, typ: 'at+jwt', kid: `bench-${alg}` }));
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const out = [];
  for (let i = 0; i < count; i++) {
    const payload = b64(JSON.stringify({ iss: issuer, aud: AUDIENCE, sub: `user-${i}`, client_id: 'bench', scope: 'files:read files:write', jti: `t${i}`, iat: exp - 3600, exp }));
    const data = new TextEncoder().encode(`${header}.${payload}`);
    const signature = new Uint8Array(await crypto.subtle.sign(ALGS[alg].sign, keys[alg].privateKey, data));
    const token = `${header}.${payload}.${b64(signature)}`;
    out.push({ token, data, signature, request: new Request(AUDIENCE, { headers: { authorization: `Bearer ${token}` } }) });
  }
  return out;
}

/** `{ cpu, wall }` µs per item of `fn(item)` awaited one after another over `items`. */
async function perItem(items, fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (const item of items) await fn(item);
  const wall = ((performance.now() - start) * 1000) / items.length;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / items.length, wall };
}

/**
 * Runs every measurement; resolves to `{ rows, markdown }`: per algorithm the floor, baremcp's
 * first sight and repeat, and jose, in µs per request, with the ratios the targets name.
 */
export async function benchAuth({ quick = false } = {}) {
  const count = quick ? 200 : 800;
  const rounds = quick ? 3 : 9;
  const repeats = quick ? 20_000 : 100_000;
  const issuer = await startIssuer();
  const rows = [];
  try {
    for (const alg of Object.keys(ALGS)) {
      const set = await tokens(issuer.issuer, issuer.keys, alg, count);
      const floorKey = issuer.keys[alg].publicKey;
      const localJwks = createLocalJWKSet(issuer.jwks);
      const samples = { floor: [], first: [], repeat: [], jose: [] };
      // Round -1 warms the code paths (JIT) and is not recorded.
      for (let round = -1; round < rounds; round++) {
        // A fresh resource server each round: no token cached, its key fetched and imported once.
        const auth = createResourceServer({ issuer: issuer.issuer, audience: AUDIENCE });
        const warm = await auth.authenticate(set[0].request);
        if (!warm.ok) throw new Error(`${alg}: ${JSON.stringify(warm)}`);
        const fresh = set.slice(1);
        const record = (key) => (value) => {
          if (round >= 0) samples[key].push(value);
        };
        const order = [
          async () => record('floor')(await perItem(fresh, (t) => crypto.subtle.verify(ALGS[alg].sign, floorKey, t.signature, t.data))),
          async () => record('first')(await perItem(fresh, async (t) => {
            if (!(await auth.authenticate(t.request)).ok) throw new Error('refused');
          })),
          async () => record('jose')(await perItem(fresh, (t) => jwtVerify(t.token, localJwks, { issuer: issuer.issuer, audience: AUDIENCE, algorithms: [alg] }))),
        ];
        // Interleaved, the order rotated each round.
        for (let i = 0; i < order.length; i++) await order[(i + Math.max(0, round)) % order.length]();
        const same = set[1].request;
        record('repeat')(await perItem({ length: repeats, [Symbol.iterator]: function* () {
          for (let i = 0; i < repeats; i++) yield same;
        } }, (request) => auth.authenticate(request)));
      }
      // Ratios per round (the three ran back to back, under the same load), then their median.
      const of = (key, kind) => median(samples[key].map((s) => s[kind]));
      const ratio = (key, kind) => median(samples[key].map((s, i) => s[kind] / samples.floor[i][kind]));
      rows.push({
        alg,
        floor: of('floor', 'cpu'),
        first: of('first', 'cpu'),
        repeat: of('repeat', 'cpu'),
        jose: of('jose', 'cpu'),
        firstVsFloor: ratio('first', 'cpu'),
        joseVsFloor: ratio('jose', 'cpu'),
        wall: { floor: of('floor', 'wall'), first: of('first', 'wall'), repeat: of('repeat', 'wall'), jose: of('jose', 'wall'), firstVsFloor: ratio('first', 'wall') },
      });
    }
  } finally {
    await issuer.close();
  }
  const f = (n) => n.toFixed(n < 10 ? 2 : 1);
  const markdown = [
    'CPU time per request (µs):',
    '',
    '| algorithm | floor: bare `crypto.subtle.verify` | baremcp, first sight | first sight ÷ floor (target ≤ 1.5×) | baremcp, repeat of the same token (target ≤ 5 µs) | jose `jwtVerify` | jose ÷ floor |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) =>
      `| ${r.alg} | ${f(r.floor)} | ${f(r.first)} | ${r.firstVsFloor.toFixed(2)}× ${r.firstVsFloor <= 1.5 ? 'met' : '**missed**'} | ${f(r.repeat)} ${r.repeat <= 5 ? 'met' : '**missed**'} | ${f(r.jose)} | ${r.joseVsFloor.toFixed(2)}× |`,
    ),
    '',
    'Wall-clock time per request (µs), the same runs:',
    '',
    '| algorithm | floor | baremcp, first sight | first sight ÷ floor | baremcp, repeat | jose `jwtVerify` |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.alg} | ${f(r.wall.floor)} | ${f(r.wall.first)} | ${r.wall.firstVsFloor.toFixed(2)}× | ${f(r.wall.repeat)} | ${f(r.wall.jose)} |`),
    '',
    `Per request, awaited one after another: ${count - 1} distinct tokens per round (first sight: a fresh resource server each round, its JWKS fetched and key imported before timing), ${repeats} repeats of one token; medians of ${rounds} interleaved rounds (ratios: the median of each round's ratio). baremcp's figures include reading the \`Authorization\` header of a web \`Request\`. Both baremcp and jose verify through WebCrypto, whose \`verify\` runs on libuv's thread pool: CPU time counts every thread of the process; wall-clock time also counts waiting for the pool, and moves with the machine's load.`,
  ].join('\n');
  return { rows, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const result = await benchAuth({ quick });
  process.stdout.write(process.argv.includes('--json') ? JSON.stringify(result) : `${result.markdown}\n`);
}
