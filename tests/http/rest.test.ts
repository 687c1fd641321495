/**
 * The REST collection endpoints, over HTTP against the real built server and the demo
 * content: every collection, every filter, every sort field, search, cursors, problems.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { restCollections } from '../../src/collections/index.ts';
import { fold } from '../../src/core/fold.ts';
import { sortKey } from '../../src/core/image.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../src/paths.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

interface Envelope {
  data: Record<string, unknown>[];
  meta: { totalCount: number; pageSize: number; timestamp: string; facets?: Record<string, { value: string; count: number }[]> };
  links: { self: string; first: string; next?: string };
}

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return contractFetch(server.base + path, { headers });
}

async function list(path: string): Promise<Envelope> {
  const response = await get(path);
  assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
  return (await response.json()) as Envelope;
}

async function problem(path: string, status: number, slug: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await contractFetch(server.base + path, init);
  assert.equal(response.status, status, path);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(body.type, `/problems/${slug}`);
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  return body;
}

const values = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

test('every collection answers page one with the envelope, its headers and at least 25 demo records', async () => {
  for (const c of restCollections) {
    const response = await get(`/api/${c.name}.json`);
    assert.equal(response.status, 200, c.name);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.match(response.headers.get('etag')!, /^"[A-Za-z0-9_-]+"$/);
    assert.equal(response.headers.get('api-version'), '1.0.0');
    const body = (await response.json()) as Envelope;
    assert.ok(body.meta.totalCount >= 25, `${c.name} has ${body.meta.totalCount} records`);
    assert.equal(response.headers.get('x-total-count'), String(body.meta.totalCount));
    assert.equal(body.meta.pageSize, 50);
    assert.match(body.meta.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(body.data.length, Math.min(50, body.meta.totalCount));
    for (const item of body.data) assert.match(String(item.canonicalId), /^itm_[0-9a-f]{24}$/);
    assert.equal(body.links.self, `/api/${c.name}.json`);
    assert.match(response.headers.get('link')!, new RegExp(`</api/${c.name}\\.json>; rel="self"`));
    assert.equal(body.meta.facets, undefined);
  }
});

test('every filter of every collection finds records, and only matching ones', async () => {
  for (const c of restCollections) {
    const { meta } = await list(`/api/${c.name}.json?facets=true&limit=1`);
    for (const [param, spec] of Object.entries(c.filters)) {
      // Range filters (since) have no facet values; tests/http/lists.test.ts covers them.
      if (spec.kind.type === 'since') continue;
      const top = meta.facets![param]![0];
      assert.ok(top, `${c.name}: no value for ${param}`);
      const given = spec.kind.type === 'string' ? top.value.toUpperCase() : top.value;
      const body = await list(`/api/${c.name}.json?${param}=${encodeURIComponent(given)}&limit=100`);
      assert.equal(body.meta.totalCount, top.count, `${c.name} ${param}=${given}`);
      for (const item of body.data)
        assert.ok(
          values(item[spec.field]).some((v) => fold(v) === fold(top.value)),
          `${c.name} ${param}`,
        );
    }
  }
});

test('every sort field orders both ways, ties broken by canonicalId', async () => {
  for (const c of restCollections) {
    for (const [field, type] of Object.entries(c.sort)) {
      for (const direction of ['asc', 'desc'] as const) {
        const { data } = await list(`/api/${c.name}.json?sort=${field}:${direction}&limit=100`);
        for (let i = 1; i < data.length; i++) {
          const [a, b] = [sortKey(type, data[i - 1]![field]), sortKey(type, data[i]![field])];
          const order = a === b ? String(data[i - 1]!.canonicalId) < String(data[i]!.canonicalId) === (direction === 'asc') : a < b === (direction === 'asc');
          assert.ok(order, `${c.name} sort=${field}:${direction} at ${i}`);
        }
      }
    }
  }
});

test('q is a case- and accent-insensitive substring search over the declared fields', async () => {
  for (const c of restCollections) {
    const { data } = await list(`/api/${c.name}.json?limit=5`);
    const item = data[data.length - 1]!;
    const text = String(values(item[c.search[0]!])[0]);
    const needle = text.slice(1, 6).trim().toUpperCase();
    const found = await list(`/api/${c.name}.json?q=${encodeURIComponent(needle)}&limit=100`);
    assert.ok(
      found.data.some((i) => i.canonicalId === item.canonicalId),
      `${c.name} q=${needle}`,
    );
    for (const i of found.data) {
      assert.ok(
        c.search.flatMap((f) => values(i[f])).some((v) => fold(v).includes(fold(needle))),
        `${c.name} q=${needle} matched ${i.canonicalId}`,
      );
    }
  }
  const places = await list('/api/places.json?q=zurich&limit=100');
  assert.ok(
    places.data.some((p) => String(p.city).includes('Zürich')),
    'zurich finds Zürich',
  );
});

test('following links.next visits every record exactly once', async () => {
  for (const c of restCollections) {
    const ids: string[] = [];
    let next: string | undefined = `/api/${c.name}.json?limit=7&sort=${Object.keys(c.sort)[0]}:asc`;
    let total = 0;
    while (next) {
      const page = await list(next);
      total = page.meta.totalCount;
      ids.push(...page.data.map((i) => String(i.canonicalId)));
      next = page.links.next;
    }
    assert.equal(ids.length, total, c.name);
    assert.equal(new Set(ids).size, total, c.name);
  }
});

test('the static page-one files (for CDNs) hold the bytes and headers the runtime answers', async () => {
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Record<string, { file: string; headers: Record<string, string> }>;
  for (const c of restCollections) {
    const entry = manifest[`/api/${c.name}.json`]!;
    const [fixed, dynamic] = await Promise.all([get(`/api/${c.name}.json`), get(`/api/${c.name}.json?limit=50`)]);
    const file = readFileSync(join(paths.client, entry.file), 'utf8');
    assert.equal(await fixed.text(), file, c.name);
    assert.equal(await dynamic.text(), file, c.name);
    for (const [name, value] of Object.entries(entry.headers)) assert.equal(fixed.headers.get(name), value, `${c.name} ${name}`);
  }
});

test('a matching If-None-Match answers 304 without a body; HEAD answers headers only', async () => {
  for (const path of ['/api/movies.json', '/api/movies.json?genre=drama']) {
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    const again = await get(path, { 'If-None-Match': `"nope", W/${etag}` });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), '');
    const head = await contractFetch(server.base + path, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), etag);
    assert.equal(head.headers.get('content-length'), first.headers.get('content-length'));
    assert.equal(await head.text(), '');
  }
});

test('faults are RFC 9457 problems that name the parameter and echo nothing else', async () => {
  await problem('/api/nothing.json', 404, 'not-found');
  const typo = await problem('/api/movies.json?gnere=drama', 400, 'unknown-parameter');
  assert.equal(typo.parameter, 'gnere');
  assert.equal((await problem('/api/movies.json?year=199x', 400, 'invalid-query')).parameter, 'year');
  assert.equal((await problem('/api/places.json?category=pizza', 400, 'invalid-query')).parameter, 'category');
  assert.equal((await problem('/api/movies.json?limit=many', 400, 'invalid-query')).parameter, 'limit');
  assert.equal((await problem('/api/movies.json?sort=budget:desc', 400, 'invalid-query')).parameter, 'sort');
  const cursor = await problem('/api/movies.json?cursor=abc', 400, 'invalid-cursor');
  assert.match(String(cursor.detail), /cursor must be a valid opaque value returned by the API/);
  await problem(`/api/movies.json?q=${'a'.repeat(5000)}`, 414, 'query-too-long');
  const post = await contractFetch(`${server.base}/api/movies.json`, { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  const { next } = (await list('/api/movies.json?limit=2')).links;
  await problem(`${next!.replace('limit=2', 'limit=2&type=tv')}`, 400, 'invalid-cursor');
  await problem(`${next!.replace('/movies.json', '/books.json')}`, 400, 'invalid-cursor');
});

test('the home page lists every collection with its count (the feed as its latest items)', async () => {
  const response = await get('/');
  assert.equal(response.status, 200);
  const html = await response.text();
  for (const c of restCollections.filter((c) => c.name !== 'feed-items')) {
    const { meta } = await list(`/api/${c.name}.json?limit=1`);
    assert.match(html, new RegExp(`href="/${c.name}/">[^<]+</a> <span class="count-badge">${meta.totalCount}</span>`), c.name);
  }
  assert.match(html, /<h2 id="latest" class="p-name">Latest<\/h2>/);
});
