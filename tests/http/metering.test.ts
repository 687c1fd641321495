/**
 * Every unit of work is metered (issue 12, D7): music POSTs, record pages and the taste
 * summary spend the collections quota like the lists do; a conditional request answered
 * 304 spends nothing; a GraphQL document that fails to parse or validate still costs a
 * point. Against the real server with small quotas set by environment.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeRoutes } from '../../src/runtime/routes.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const QUOTA = 5;
let server: RunningServer;
before(async () => {
  server = await startServer({ RATE_LIMIT_REQUESTS: String(QUOTA), GRAPHQL_COST_BUDGET: '3', TRUSTED_PROXIES: '127.0.0.1' });
});
after(() => server.stop());

/** Each test is a client of its own (its address forwarded by the trusted local proxy), so tests do not share a quota. */
let address = '';
const client = (n: number) => {
  address = `192.0.2.${n}`;
};

async function spend(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  const response = await fetch(`${server.base}${path}`, { ...init, headers: { ...init.headers, 'X-Forwarded-For': address } });
  await response.arrayBuffer();
  return response;
}

const station = {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ schemaVersion: '1', stationSeed: 's', affinities: [], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 3 }),
};

test('music POSTs, the taste summary, record pages and lists share one quota; the next one is a 429 problem', async () => {
  client(1);
  const page = describeRoutes().find((r) => r.name === 'record-page')!.examples[0]!;
  const spent = [
    await spend('/api/music/station.json', station),
    await spend('/api/taste/summary.json'),
    await spend(page),
    await spend('/api/movies.json'),
    await spend('/api/music/station.json', station),
  ];
  for (const [i, response] of spent.entries()) {
    assert.ok(response.status < 400, `request ${i + 1}: ${response.status}`);
    assert.equal(response.headers.get('ratelimit-policy'), `"collections";q=${QUOTA};w=60`);
    // One client's count only on what no shared cache stores (the music POSTs are no-store,
    // negotiated lists and pages private; the taste summary is public).
    if (/no-store|private/.test(response.headers.get('cache-control')!)) assert.match(response.headers.get('ratelimit')!, new RegExp(`r=${QUOTA - i - 1};`));
    else assert.equal(response.headers.get('ratelimit'), null);
  }
  for (const [path, init] of [
    ['/api/music/station.json', station],
    ['/api/taste/summary.json', {}],
    [page, {}],
    ['/api/movies.json', {}],
  ] as const) {
    const refused = await fetch(`${server.base}${path}`, { ...init, headers: { ...('headers' in init ? init.headers : {}), 'X-Forwarded-For': address } });
    assert.equal(refused.status, 429, path);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    assert.equal(((await refused.json()) as { type: string }).type, '/problems/rate-limited');
  }
  // Preflights are never metered.
  assert.equal((await spend('/api/music/station.json', { method: 'OPTIONS' })).status, 204);
});

test('a conditional request answered 304 spends no quota', async () => {
  client(2);
  const first = await spend('/api/books.json?limit=3');
  const etag = first.headers.get('etag')!;
  for (let i = 0; i < QUOTA * 3; i++) {
    const again = await spend('/api/books.json?limit=3', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304, `conditional request ${i + 1}`);
    // A list is private (negotiated by Accept), so its 304 may carry the client's count; a storable one never does.
    if (!/no-store|private/.test(again.headers.get('cache-control')!))
      assert.equal(again.headers.get('ratelimit'), null, 'a 304 refreshes a stored answer: no per-client count');
  }
  const summary = await spend('/api/taste/summary.json');
  const unchanged = await spend('/api/taste/summary.json', { headers: { 'If-None-Match': summary.headers.get('etag')! } });
  assert.equal(unchanged.status, 304);
  assert.equal(unchanged.headers.get('ratelimit-policy'), `"collections";q=${QUOTA};w=60`);
  assert.equal((await spend('/api/books.json?limit=4')).status, 200, 'the quota is still there');
});

test('GraphQL documents that fail to parse or validate cost a point each; the budget refuses them once spent', async () => {
  client(3);
  const post = (query: string) =>
    spend('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query }),
    });
  const answers = [await post('{'), await post('{ nope }'), await post('{ movies(first: 1) { nodes { nope } } }')];
  for (const answer of answers) assert.equal(answer.status, 400);
  for (const [i, answer] of answers.entries()) assert.match(answer.headers.get('ratelimit')!, new RegExp(`^"graphql";r=${2 - i};t=\\d+$`));
  const refused = await post('{');
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
});

test('the owner lane spends the same quota: a bearer token does not make requests free', async () => {
  client(3);
  const call = () =>
    spend('/owner/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
  for (let i = 0; i < QUOTA; i++) assert.equal((await call()).status, 401, `request ${i + 1} reaches the token check`);
  const refused = await call();
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '60');
});
