/**
 * Issue 28, item 3 (the per-client part): an answer a shared cache may store carries no
 * per-client count, and a 429 is never stored. Which answers a shared cache may store is
 * decided by `http-cache-semantics` (RFC 9111, as CDNs and proxies implement it), not by
 * our own rule. Every metered route is asked through the built server; storable answers
 * keep `RateLimit-Policy` and `RateLimit-Limit` (SPEC §4.1) and nothing else of the quota.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import CachePolicy from 'http-cache-semantics';
import { describeRoutes } from '../../src/runtime/routes.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const QUOTA = 40;
let server: RunningServer;

before(async () => {
  server = await startServer({ RATE_LIMIT_REQUESTS: String(QUOTA), TRUSTED_PROXIES: '127.0.0.1' });
});
after(() => server.stop());

interface Asked {
  path: string;
  init?: { method?: string; headers?: Record<string, string>; body?: string };
}

async function ask(client: string, { path, init = {} }: Asked): Promise<{ response: Response; storable: boolean }> {
  const headers = { ...init.headers, 'X-Forwarded-For': client };
  const response = await fetch(`${server.base}${path}`, { ...init, headers });
  await response.arrayBuffer();
  const policy = new CachePolicy(
    { url: path, method: init.method ?? 'GET', headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) },
    { status: response.status, headers: Object.fromEntries(response.headers) },
    { shared: true },
  );
  return { response, storable: policy.storable() };
}

const station = {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ schemaVersion: '1', stationSeed: 's', affinities: [], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 3 }),
};

test('a storable success answer carries the quota policy but no per-client count; a no-store one carries the count', async () => {
  const record = describeRoutes().find((r) => r.name === 'record-page')!.examples[0]!;
  const asked: Asked[] = [
    { path: '/api/movies.json' },
    { path: '/api/movies.json?year=2019&limit=2' },
    { path: '/api/movies.json?limit=2', init: { headers: { Accept: 'text/csv' } } },
    { path: '/api/search.json?q=the' },
    { path: '/api/taste/summary.json' },
    { path: '/movies/?genre=Drama' },
    { path: record },
    { path: '/api/music/station.json', init: station },
  ];
  let storable = 0;
  for (const question of asked) {
    const { response, storable: stored } = await ask('198.51.100.10', question);
    assert.equal(response.status, 200, question.path);
    assert.equal(response.headers.get('ratelimit-policy'), `"collections";q=${QUOTA};w=60`, question.path);
    assert.equal(response.headers.get('ratelimit-limit'), String(QUOTA), question.path);
    if (stored) {
      storable++;
      assert.equal(response.headers.get('ratelimit'), null, `${question.path} may be stored by a shared cache, so it carries no per-client count`);
    } else assert.match(response.headers.get('ratelimit')!, /^"collections";r=\d+;t=\d+$/, question.path);
  }
  // Lists and pages are negotiated by Accept, so they are `private` (issue 28: a CDN that
  // ignores Vary must not mix representations); the taste summary has one representation.
  assert.ok(storable >= 1, 'the taste summary is public');
  const first = await ask('198.51.100.11', { path: '/api/taste/summary.json' });
  const revalidated = await ask('198.51.100.11', {
    path: '/api/taste/summary.json',
    init: { headers: { 'If-None-Match': first.response.headers.get('etag')! } },
  });
  assert.equal(revalidated.response.status, 304);
  // RFC 9111 §4.3.4: a cache copies a 304's fields into the answer it stored.
  assert.equal(revalidated.response.headers.get('ratelimit'), null, 'a 304 of a storable answer carries no per-client count');
});

test('no-store surfaces carry the count: SQL, GraphQL, MCP', async () => {
  const answers = [
    await ask('198.51.100.12', {
      path: '/api/sql',
      init: { method: 'QUERY', headers: { 'Content-Type': 'application/sql' }, body: 'SELECT title FROM public.writing LIMIT 1' },
    }),
    await ask('198.51.100.12', {
      path: '/graphql',
      init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ movies(first: 1) { nodes { title } } }' }) },
    }),
    await ask('198.51.100.12', {
      path: '/mcp',
      init: {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
    }),
  ];
  for (const { response, storable } of answers) {
    assert.equal(response.status, 200);
    assert.equal(storable, false);
    assert.match(response.headers.get('ratelimit')!, /;r=\d+;t=\d+$/);
  }
});

test('a 429 is never stored by a shared cache, and says when to come back', async () => {
  const client = '198.51.100.13';
  for (let i = 0; i < QUOTA; i++) assert.equal((await ask(client, { path: `/api/movies.json?limit=1&year=${2000 + (i % 5)}` })).response.status, 200);
  for (const question of [{ path: '/api/movies.json' }, { path: '/movies/?genre=Drama' }, { path: '/api/taste/summary.json' }]) {
    const { response, storable } = await ask(client, question);
    assert.equal(response.status, 429, question.path);
    assert.equal(storable, false, `${question.path}: a shared cache must not store a 429`);
    assert.match(response.headers.get('cache-control')!, /no-store/);
    assert.equal(response.headers.get('retry-after'), '60');
    assert.match(response.headers.get('ratelimit')!, /^"collections";r=0;t=\d+$/);
  }
});
