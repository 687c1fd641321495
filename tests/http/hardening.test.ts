/**
 * Regression tests for the crash and method defects of issue 12, each with the request
 * that showed it, against the real built server: malformed targets and Host headers
 * (the process died), methods on record pages (TRACE was a 500 from Astro), HEAD on every
 * GET route, Node's own parser errors as problems, and the security headers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LIMITS } from '../../src/core/limits.ts';
import { paths } from '../../src/paths.ts';
import { describeRoutes } from '../../src/runtime/routes.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const isProblem = (headers: Record<string, string> | Headers, body: string, status: number) => {
  const type = headers instanceof Headers ? headers.get('content-type') : headers['content-type'];
  assert.equal(type, 'application/problem+json');
  const problem = JSON.parse(body) as { status: number; type: string };
  assert.equal(problem.status, status);
  assert.match(problem.type, /^\/problems\/[a-z-]+$/);
};

const stillServing = async () => assert.equal((await fetch(`${server.base}/api/status.json`)).status, 200);

const routes = describeRoutes();
const example = (name: string) => routes.find((r) => r.name === name)!.examples[0]!;

test('D1: a malformed target or Host is a 400 problem, and the server keeps serving', async () => {
  const requests = [
    'GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n',
    'GET / HTTP/1.1\r\nConnection: close\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    'GET http://[/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    'GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
  ];
  for (const request of requests) {
    const answer = await rawRequest(server.base, request);
    assert.equal(answer.status, 400, JSON.stringify(request));
    isProblem(answer.headers, answer.body, 400);
  }
  // `//` is a path (origin-form), not an authority: nothing is published there.
  const slashes = await rawRequest(server.base, 'GET // HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  assert.equal(slashes.status, 404);
  isProblem(slashes.headers, slashes.body, 404);
  // An empty Host is valid (RFC 9110 §7.2) and an absolute-form target is answered by its path.
  assert.equal((await rawRequest(server.base, 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')).status, 200);
  assert.equal(
    (await rawRequest(server.base, 'GET http://elsewhere.test/api/status.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status,
    200,
  );
  await stillServing();
});

test("D8: Node's own parser errors are problems: garbage 400, a 20 KB header 431, an over-long target 414", async () => {
  const garbage = await rawRequest(server.base, 'GARBAGE\r\n\r\n');
  isProblem(garbage.headers, garbage.body, 400);
  const big = await rawRequest(server.base, `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
  assert.equal(big.status, 431);
  isProblem(big.headers, big.body, 431);
  const long = await rawRequest(server.base, `GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  assert.equal(long.status, 414);
  isProblem(long.headers, long.body, 414);
  await stillServing();
});

test('a request with more header fields than headersCountMax is a 431 problem; one at the bound is served', async () => {
  const request = (fields: number) => {
    // Host and Connection are two of the fields.
    const extra = Array.from({ length: fields - 2 }, (_, i) => `X-Field-${i}: ${i}\r\n`).join('');
    // Connection first: a server that drops the fields past its bound must still close.
    return `GET /api/status.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`;
  };
  assert.equal((await rawRequest(server.base, request(LIMITS.headersCountMax))).status, 200);
  const refused = await rawRequest(server.base, request(LIMITS.headersCountMax + 1));
  assert.equal(refused.status, 431);
  isProblem(refused.headers, refused.body, 431);
  const problem = JSON.parse(refused.body) as { type: string; detail: string };
  assert.equal(problem.type, '/problems/headers-too-large');
  assert.match(problem.detail, new RegExp(`more than ${LIMITS.headersCountMax} fields`), 'the detail names the bound that was passed');
  await stillServing();
});

test('D4: a record page takes GET and HEAD only; every other method is a 405 problem with Allow', async () => {
  const page = example('record-page');
  for (const method of ['TRACE', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'QUERY']) {
    const response = await fetch(`${server.base}${page}`, { method }).catch(() => undefined);
    // fetch refuses to send TRACE; the raw request below covers it.
    if (!response) continue;
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.get('allow'), 'GET, HEAD');
    isProblem(response.headers, await response.text(), 405);
  }
  const trace = await rawRequest(server.base, `TRACE ${page} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  assert.equal(trace.status, 405);
  assert.equal(trace.headers.allow, 'GET, HEAD');
  assert.equal((await fetch(`${server.base}${page}`)).status, 200);
});

test('every route answers a method it does not take with 405 and an Allow listing what it takes', async () => {
  for (const route of routes) {
    const path = route.examples[0];
    if (path === undefined) continue;
    // A method the route does not take (DELETE, unless the route takes it: /mcp does).
    const method = ['DELETE', 'PUT'].find((m) => !route.methods.includes(m))!;
    const response = await fetch(`${server.base}${path}`, { method });
    assert.equal(response.status, 405, `${route.name} ${path}`);
    assert.equal(response.headers.get('allow'), route.methods.join(', '), route.name);
    await response.body?.cancel();
  }
});

test('every route that reads a body answers one declared a gibibyte long from its headers, and closes the connection', async () => {
  const readers = routes.filter((route) => route.bodyMax !== undefined);
  assert.ok(readers.length >= 5, readers.map((r) => r.name).join(', '));
  for (const route of readers) {
    const method = ['POST', 'QUERY', 'PUT'].find((m) => route.methods.includes(m))!;
    const path = route.examples[0]!.replace(/\{[^}]+\}/g, 'x');
    // No body byte is ever sent: the answer must come from the headers alone.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.base).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`);
    });
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    // Its own refusal (413, or what it checks first: 400, 401, 404, 415), not a 408 after waiting for bytes that never come.
    assert.ok(status >= 400 && status < 500 && status !== 408, `${route.name} ${method} ${path}: ${answer.slice(0, 120)}`);
    assert.match(answer, /\r\nConnection: close\r\n/i, route.name);
  }
});

test('D8: HEAD answers exactly what GET answers, without a body, on every GET route', async () => {
  const varying = new Set(['date', 'ratelimit', 'keep-alive', 'connection', 'graphql-cost', 'transfer-encoding']);
  const headersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => !varying.has(name)));
  for (const route of routes.filter((r) => r.methods.includes('GET'))) {
    for (const path of route.examples.slice(0, 3)) {
      const get = await fetch(`${server.base}${path}`);
      await get.arrayBuffer();
      const head = await fetch(`${server.base}${path}`, { method: 'HEAD' });
      assert.equal(head.status, get.status, `HEAD ${path}`);
      assert.deepEqual(headersOf(head), headersOf(get), `HEAD ${path}`);
      assert.equal((await head.arrayBuffer()).byteLength, 0, `HEAD ${path} has no body`);
    }
  }
  // The defect's own request: HEAD /graphql was a 405 while GET was a 400.
  const [get, head] = [await fetch(`${server.base}/graphql`), await fetch(`${server.base}/graphql`, { method: 'HEAD' })];
  assert.equal(head.status, get.status);
});

test('D5: pages carry a same-origin CSP, frame-ancestors none, nosniff, a referrer and permissions policy; API answers nosniff', async () => {
  for (const path of ['/', example('record-page'), '/subscribe/', '/graphql/']) {
    const response = await fetch(`${server.base}${path}`, { headers: { Accept: 'text/html' } });
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/, path);
    assert.match(csp, /frame-ancestors 'none'/, path);
    assert.doesNotMatch(csp, /https?:|\*/, `${path}: nothing outside the site`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    assert.match(response.headers.get('permissions-policy')!, /camera=\(\)/);
    await response.body?.cancel();
  }
  for (const path of ['/api/movies.json', '/api/movies.json?year=1', '/api/status.json', '/nothing-here', '/openapi.json']) {
    const response = await fetch(`${server.base}${path}`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    await response.body?.cancel();
  }
});

test("D5: the CDN's _headers file gives static pages the same security headers as the runtime", async () => {
  const cdn = readFileSync(join(paths.client, '_headers'), 'utf8');
  // Every rule whose pattern (`*` any characters) matches the path applies, as on Cloudflare Pages and Netlify.
  const matches = (pattern: string, path: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(path);
  const block = (path: string) =>
    cdn
      .split(/\n(?=\/)/)
      .filter((b) => matches(b.slice(0, b.indexOf('\n')), path))
      .join('\n');
  const page = await fetch(`${server.base}/subscribe/`);
  for (const name of ['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy']) {
    assert.ok(block('/subscribe/').includes(`  ${name}: ${page.headers.get(name)}`), name);
  }
  assert.match(block('/openapi.json'), /X-Content-Type-Options: nosniff/);
});

test('parameter names and sort fields that name Object.prototype members are refused, not a 500 (found by the 1M-request fuzz run)', async () => {
  for (const query of ['sort=hasOwnProperty', 'sort=constructor:desc', 'sort=toString', 'constructor=x', '__proto__=x', 'hasOwnProperty=1']) {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${server.base}/api/concerts.json?${query}`, { method });
      assert.equal(response.status, 400, `${method} ${query}`);
      await response.body?.cancel();
    }
  }
});

/** Writes `first` on a new connection and, once its head has arrived, `second`; resolves with everything read until the server closes the connection. */
function twoOnOneConnection(first: string, second: string): Promise<string> {
  const { hostname, port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let sent = false;
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!sent && text.includes('\r\n\r\n')) {
        sent = true;
        // The server may already be closing the connection; that is the point.
        socket.write(second, () => undefined);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => resolve(text));
    socket.write(first);
  });
}

test('a 417 to an Upgrade request closes the connection: a malformed request after it got neither an answer nor a close (found by the fuzz campaign)', async () => {
  const upgrade = 'HEAD /api/status.json HTTP/1.1\r\nHost: localhost\r\nExpect: nothing\r\nConnection: Upgrade\r\nUpgrade: HTTP/2.0\r\n\r\n';
  const text = await twoOnOneConnection(upgrade, 'GET /api/status.json HTTP/1.1\r\nHost: localhost\r\nX-Fold: a\r\n b\r\n\r\n');
  const [head] = text.split('\r\n\r\n');
  assert.match(head!, /^HTTP\/1\.1 417 /);
  assert.match(head!, /\r\nConnection: close(\r\n|$)/i);
  // Without an Upgrade the connection stays usable: the next request is answered on it.
  const plain = await twoOnOneConnection(
    'GET /api/status.json HTTP/1.1\r\nHost: localhost\r\nExpect: nothing\r\n\r\n',
    'GET /api/status.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
  );
  assert.match(plain, /^HTTP\/1\.1 417 /);
  // The 417 is a problem like every other refusal, and the next request is answered after it.
  assert.match(plain, /^HTTP\/1\.1 417 [^]*?\r\n\r\n\{"type":"\/problems\/expectation-failed"[^}]*\}HTTP\/1\.1 200 /);
  await stillServing();
});
