/**
 * `GET /api/search.json` over HTTP against the built server, every answer checked against
 * the OpenAPI description: full cursor walks equal the oracle computed from every
 * content record, filters, ranking and matched fields, CSV, conditional requests, and
 * the 400 problems for missing, blank or over-long `q` and unknown collections.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { contractFetch } from '../helpers/contract.ts';
import { contentItems, expectedHits } from '../helpers/lists.ts';
import { restPage, walkRest } from '../helpers/rest-pages.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const items = contentItems();

interface Hit {
  canonicalId: string;
  collection: string;
  title: string;
  field: string;
  url: string;
  date?: string;
  year?: number;
}
interface Envelope {
  data: Hit[];
  meta: { totalCount: number; pageSize: number; timestamp: string };
  links: { self: string; first: string; next?: string };
}

const page = (path: string) => restPage<Envelope>(server.base, path);
const walk = async (path: string) => {
  const { data, total } = await walkRest<Hit>(server.base, path);
  return { hits: data, total };
};

async function problem(path: string, status: number, slug: string, parameter?: string): Promise<void> {
  const response = await contractFetch(server.base + path);
  assert.equal(response.status, status, path);
  const body = (await response.json()) as { type: string; parameter?: string };
  assert.equal(body.type, `/problems/${slug}`, path);
  if (parameter !== undefined) assert.equal(body.parameter, parameter, path);
}

test('walking next visits exactly the oracle’s hits, in rank order, each saying its collection and matched field', async () => {
  const cases: [string, { collections?: string[]; year?: number }][] = [
    ['zurich', {}],
    ['ZÜRICH', { collections: ['activities', 'blog'] }],
    ['the', { year: 2024 }],
    ['run', {}],
    ['e', { collections: ['books'] }],
    ['lisbon', { collections: ['writing', 'places', 'concerts'] }],
  ];
  for (const [q, filter] of cases) {
    const params = new URLSearchParams({ q, limit: '7' });
    for (const c of filter.collections ?? []) params.append('collection', c);
    if (filter.year !== undefined) params.set('year', String(filter.year));
    const { hits, total } = await walk(`/api/search.json?${params}`);
    const expected = expectedHits(items, q, filter);
    assert.ok(expected.length > 0, `${q}: the oracle finds something`);
    assert.equal(total, expected.length, q);
    assert.deepEqual(
      hits.map((h) => h.canonicalId),
      expected.map((e) => e.canonicalId),
      q,
    );
    assert.deepEqual(
      hits.map((h) => `${h.collection}.${h.field}`),
      expected.map((e) => `${e.collection}.${e.field}`),
      q,
    );
    for (const h of hits) {
      assert.match(h.url, /^https?:\/\//);
      if (h.date !== undefined) assert.equal(h.year, Number(h.date.slice(0, 4)));
    }
  }
});

test('title hits rank before hits in other fields; blog posts and writing are searched', async () => {
  const { data } = await page('/api/search.json?q=uetliberg&limit=100');
  const tiers = data.map((h) => (h.field === 'title' || h.field === 'name' || h.field === 'artist' || h.field === 'text' || h.field === 'company' ? 0 : 1));
  assert.deepEqual(
    tiers,
    [...tiers].sort((a, b) => a - b),
  );
  assert.ok(data.some((h) => h.collection === 'blog' && h.url.includes('/blog/the-uetliberg-in-every-season/')));
  const writing = await page('/api/search.json?q=backpressure&collection=writing');
  assert.ok(writing.data.length > 0 && writing.data.every((h) => h.collection === 'writing' && h.url.startsWith('https://example.com/')));
  // A blog post composed into writing is found once, as a blog post.
  const post = await page('/api/search.json?q=keyset%20pagination,%20explained');
  assert.deepEqual(
    post.data.map((h) => h.collection),
    ['blog'],
  );
});

test('CSV, the list headers, HEAD and a matching If-None-Match (304)', async () => {
  const path = '/api/search.json?q=the&limit=5';
  const json = await contractFetch(server.base + path);
  assert.equal(json.headers.get('api-version'), '1.0.0');
  assert.match(json.headers.get('link')!, /rel="next"/);
  assert.equal(json.headers.get('link-template'), '"/api/search.json{?q,collection*,year,limit,cursor}"; rel="search"');
  const body = (await json.json()) as Envelope;
  assert.equal(json.headers.get('x-total-count'), String(body.meta.totalCount));
  const csv = await contractFetch(server.base + path, { headers: { Accept: 'text/csv' } });
  assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
  const rows = parseCsv(await csv.text(), { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    rows.map((r) => r.canonicalId),
    body.data.map((h) => h.canonicalId),
  );
  assert.deepEqual(Object.keys(rows[0]!), ['canonicalId', 'collection', 'title', 'field', 'url', 'date', 'year']);
  const etag = json.headers.get('etag')!;
  const again = await contractFetch(server.base + path, { headers: { 'If-None-Match': etag } });
  assert.equal(again.status, 304);
  const head = await contractFetch(server.base + path, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), etag);
  const refused = await contractFetch(server.base + path, { headers: { Accept: 'application/geo+json' } });
  assert.equal(refused.status, 406);
});

test('missing, blank or over-long q, unknown collections and parameters, and foreign cursors are 400 problems', async () => {
  await problem('/api/search.json', 400, 'invalid-query', 'q');
  await problem('/api/search.json?q=', 400, 'invalid-query', 'q');
  await problem('/api/search.json?q=%20%20%09', 400, 'invalid-query', 'q');
  await problem(`/api/search.json?q=${'x'.repeat(201)}`, 400, 'invalid-query', 'q');
  await problem('/api/search.json?q=a&q=b', 400, 'invalid-query', 'q');
  await problem('/api/search.json?q=run&collection=nope', 400, 'invalid-query', 'collection');
  await problem('/api/search.json?q=run&year=20x4', 400, 'invalid-query', 'year');
  await problem('/api/search.json?q=run&sort=title', 400, 'unknown-parameter', 'sort');
  await problem('/api/search.json?q=run&cursor=made-up', 400, 'invalid-cursor', 'cursor');
  const { links } = await page('/api/search.json?q=run&limit=2');
  await problem(links.next!.replace('q=run', 'q=ride'), 400, 'invalid-cursor', 'cursor');
  await problem(links.next!.replace('limit=2', 'limit=2&collection=books'), 400, 'invalid-cursor', 'cursor');
  const movies = await page('/api/search.json?q=run&limit=3');
  assert.equal(movies.data.length, 3, 'the page size may change between pages: it is not part of the binding');
});
