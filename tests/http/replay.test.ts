/**
 * Remembered REST lists replayed before the target is parsed or routed (issue 31): against
 * the real built server, a replay must be the answer the full path gives — the same bytes
 * and headers for every way of asking (media types, HEAD, absolute-form, spellings), the
 * same preconditions, API-Version refusals and Host checks — and spend the quota exactly
 * as the full path does: one unit per request, none for a 304, a 429 past the quota.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rawRequest } from '../helpers/raw-http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const QUOTA = 40;
let server: RunningServer;
let cold: RunningServer;
before(async () => {
  // Two clients by X-Forwarded-For (the test is the trusted proxy): each test spends its own quota.
  [server, cold] = await Promise.all([
    startServer({ RATE_LIMIT_REQUESTS: String(QUOTA), TRUSTED_PROXIES: '127.0.0.1' }),
    startServer({ ANSWER_CACHE_BYTES: '0', RATE_LIMIT_REQUESTS: String(QUOTA), TRUSTED_PROXIES: '127.0.0.1' }),
  ]);
});
after(() => Promise.all([server.stop(), cold.stop()]));

let clients = 0;
/** A client of its own, so each test starts with its whole quota. */
const client = () => `198.51.100.${++clients}`;

/** What an answer says, but the fields that change per request (Date, the client's count). */
async function shown(response: Response): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['date', 'ratelimit', 'connection', 'keep-alive'].includes(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

const remaining = (response: Response) => Number(/;r=(\d+)/.exec(response.headers.get('RateLimit') ?? '')?.[1]);

test('a replayed list is the answer the full path gives, for every way of asking', async () => {
  const asks: { path: string; method?: string; headers?: Record<string, string> }[] = [
    { path: '/api/movies.json' },
    { path: '/api/movies.json?limit=5&sort=year:desc' },
    { path: '/api/movies.json?sort=year:desc&limit=5' },
    { path: '/api/movies.json?limit=05&sort=year:desc' },
    { path: '/api/movies.json?limit=5', headers: { Accept: 'text/csv' } },
    { path: '/api/movies.json?limit=5', headers: { Accept: 'text/csv;q=0.5, application/json' } },
    { path: '/api/places.json', headers: { Accept: 'application/geo+json' } },
    { path: '/api/search.json?q=the' },
    { path: '/api/movies.json?limit=5', method: 'HEAD' },
    { path: '/api/movies.json', headers: { 'API-Version': ' 1.0.0 ' } },
  ];
  for (const ask of asks) {
    const who = client();
    const init = { method: ask.method ?? 'GET', headers: { ...ask.headers, 'X-Forwarded-For': who } };
    const expected = await shown(await fetch(cold.base + ask.path, init));
    assert.equal(expected.status, 200, ask.path);
    // The first asking computes, the second is remembered, the third and fourth are replayed.
    for (let i = 0; i < 4; i++)
      assert.deepEqual(await shown(await fetch(server.base + ask.path, init)), expected, `${ask.path} ${JSON.stringify(ask.headers)} #${i}`);
  }
});

test('an absolute-form target is replayed as its path, and an invalid Host is refused even for a remembered list', async () => {
  const who = client();
  const ask = (target: string, host = 'localhost') =>
    rawRequest(server.base, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: ${who}\r\nConnection: close\r\n\r\n`);
  const origin = await ask('/api/books.json?limit=3');
  for (let i = 0; i < 3; i++) {
    const absolute = await ask('http://elsewhere.test/api/books.json?limit=3');
    assert.equal(absolute.status, 200);
    assert.equal(absolute.body, origin.body);
    assert.equal(absolute.headers.etag, origin.headers.etag);
  }
  for (let i = 0; i < 3; i++) assert.equal((await ask('/api/books.json?limit=3')).status, 200);
  for (const host of ['a b', 'x:99999']) {
    const refused = await ask('/api/books.json?limit=3', host);
    assert.equal(refused.status, 400, host);
    assert.equal(refused.headers['content-type'], 'application/problem+json');
  }
  const twoHosts = await rawRequest(server.base, `GET /api/books.json?limit=3 HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`);
  assert.equal(twoHosts.status, 400);
  // An Upgrade this server does not take is answered, then the connection closes.
  const upgrade = await rawRequest(server.base, `GET /api/books.json?limit=3 HTTP/1.1\r\nHost: localhost\r\nUpgrade: h2c\r\nX-Forwarded-For: ${who}\r\n\r\n`);
  assert.equal(upgrade.status, 200);
  assert.equal(upgrade.headers.connection, 'close');
});

test('preconditions and API-Version are checked on a replay as on the full path', async () => {
  const who = client();
  const path = '/api/movies.json?limit=7';
  let first: Response | undefined;
  for (let i = 0; i < 3; i++) first = await fetch(server.base + path, { headers: { 'X-Forwarded-For': who } });
  const etag = first!.headers.get('ETag')!;
  const lastModified = first!.headers.get('Last-Modified')!;
  const before = remaining(first!);
  const validators: Record<string, string>[] = [{ 'If-None-Match': etag }, { 'If-None-Match': `"other", W/${etag}` }, { 'If-Modified-Since': lastModified }];
  for (const headers of validators) {
    const revalidated = await fetch(server.base + path, { headers: { ...headers, 'X-Forwarded-For': who } });
    assert.equal(revalidated.status, 304, JSON.stringify(headers));
    assert.equal(await revalidated.text(), '');
    assert.equal(revalidated.headers.get('ETag'), etag);
    assert.equal(revalidated.headers.get('X-Content-Type-Options'), 'nosniff', 'a 304 is secured too');
    assert.equal(remaining(revalidated), before, 'a 304 spends nothing');
  }
  const changed = await fetch(server.base + path, { headers: { 'If-None-Match': '"other"', 'X-Forwarded-For': who } });
  assert.equal(changed.status, 200);
  const refused = await fetch(server.base + path, { headers: { 'API-Version': '2.0.0', 'X-Forwarded-For': who } });
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { type: string }).type, '/problems/unsupported-api-version');
});

test('a replay spends one unit of the quota per request, and past the quota answers 429 with Retry-After', async () => {
  const who = client();
  const path = '/api/movies.json?limit=3';
  const counts: number[] = [];
  for (let i = 0; i < QUOTA; i++) {
    const answer = await fetch(server.base + path, { headers: { 'X-Forwarded-For': who } });
    assert.equal(answer.status, 200, `request ${i + 1}`);
    counts.push(remaining(answer));
    await answer.arrayBuffer();
  }
  assert.deepEqual(
    counts,
    Array.from({ length: QUOTA }, (_, i) => QUOTA - 1 - i),
  );
  const refused = await fetch(server.base + path, { headers: { 'X-Forwarded-For': who } });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('Retry-After'), '60');
  assert.equal(refused.headers.get('Content-Type'), 'application/problem+json');
  assert.equal(refused.headers.get('X-Content-Type-Options'), 'nosniff');
  assert.match(refused.headers.get('RateLimit') ?? '', /;r=0;/);
  // HEAD is refused alike, without a body.
  const head = await fetch(server.base + path, { method: 'HEAD', headers: { 'X-Forwarded-For': who } });
  assert.equal(head.status, 429);
  assert.equal(await head.text(), '');
});
