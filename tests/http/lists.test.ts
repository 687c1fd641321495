/**
 * The cross-collection lists that are collections to every surface — blog, writing and
 * feed-items — over HTTP against the built server (every answer checked against the
 * OpenAPI description): what the generic collection tests cannot know (drafts, the
 * composed records, the feed's repeatable `collection` and its `since` bound), with full
 * cursor walks compared with oracles computed from the content records, and
 * `public.writing` compared with `/api/writing.json`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { contentItems, expectedFeed } from '../helpers/lists.ts';
import { contractFetch } from '../helpers/contract.ts';
import { restPage, walkRest } from '../helpers/rest-pages.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const items = contentItems();
type Item = Record<string, unknown> & { canonicalId: string };
interface Envelope {
  data: Item[];
  meta: { totalCount: number; facets?: Record<string, { value: string; count: number }[]> };
  links: { next?: string };
}

const page = (path: string, headers: Record<string, string> = {}) => restPage<Envelope>(server.base, path, headers);
const walk = (path: string) => walkRest<Item>(server.base, path);

async function problem(path: string, slug: string, parameter: string): Promise<void> {
  const response = await contractFetch(server.base + path);
  assert.equal(response.status, 400, path);
  const body = (await response.json()) as { type: string; parameter?: string };
  assert.equal(body.type, `/problems/${slug}`);
  assert.equal(body.parameter, parameter);
}

/** Front matter of every blog file, read here without the compiler. */
const blogFiles = readdirSync('content/blog').map((f) => readFileSync(`content/blog/${f}`, 'utf8'));
const drafts = blogFiles.filter((t) => /^draft: true$/m.test(t)).map((t) => /^slug: (.+)$/m.exec(t)![1]!);

test('blog: every non-draft post, with its canonical URL; drafts never published; tag and year filters', async () => {
  assert.ok(drafts.length >= 1, 'the demo content has a draft');
  const { data, total } = await walk('/api/blog.json?limit=9');
  assert.equal(total, blogFiles.length - drafts.length);
  for (const post of data) {
    assert.equal(post.url, `http://localhost:4321/blog/${post.slug}/`);
    assert.equal(post.draft, undefined, 'the draft flag is bookkeeping');
    assert.ok(!drafts.includes(String(post.slug)));
  }
  const tagged = await walk('/api/blog.json?tag=NODE.JS&limit=3');
  assert.deepEqual(
    tagged.data.map((p) => p.canonicalId),
    data.filter((p) => (p.tags as string[]).includes('node.js')).map((p) => p.canonicalId),
  );
  const year = await walk('/api/blog.json?year=2024');
  assert.deepEqual(
    year.data.map((p) => p.canonicalId),
    data.filter((p) => String(p.publishedAt).startsWith('2024')).map((p) => p.canonicalId),
  );
  assert.ok((await page('/api/blog.json?q=uetliberg')).data.length >= 1);
  for (const draft of drafts) {
    assert.equal((await page(`/api/blog.json?q=${draft}`)).data.length, 0);
    assert.equal((await fetch(`${server.base}/blog/${draft}/`)).status, 404);
  }
});

test('writing: the pieces published elsewhere plus every blog post, mapped to the writing fields', async () => {
  const { data, total } = await walk('/api/writing.json?limit=11');
  const blog = (await walk('/api/blog.json?limit=100')).data;
  assert.equal(total, items.get('writing')!.length + blog.length);
  const byId = new Map(data.map((w) => [w.canonicalId, w]));
  for (const post of blog) {
    const piece = byId.get(post.canonicalId)!;
    assert.ok(piece, `${post.slug} is in writing`);
    assert.deepEqual(
      [piece.title, piece.url, piece.publishedAt, piece.kind, piece.publication],
      [post.title, post.url, post.publishedAt, 'post', 'localhost:4321'],
    );
  }
  const posts = await walk('/api/writing.json?kind=post&limit=100');
  assert.equal(posts.total, blog.length);
  const talks = await walk('/api/writing.json?kind=talk');
  assert.ok(talks.total >= 1 && talks.data.every((w) => w.kind === 'talk'));
});

test('public.writing and /api/writing.json are the same set, field for field', async () => {
  const { data } = await walk('/api/writing.json?limit=100&sort=title:asc');
  const rows: unknown[][] = [];
  let last = '';
  let columns: string[] = [];
  for (;;) {
    const sql = `SELECT canonical_id, title, url, published_at, publication, kind, tags FROM public.writing WHERE canonical_id > '${last}' ORDER BY canonical_id LIMIT 100`;
    const r = await fetch(`${server.base}/api/sql`, { method: 'QUERY', headers: { 'Content-Type': 'application/sql' }, body: sql });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { columns: { name: string }[]; rows: unknown[][] };
    columns = body.columns.map((c) => c.name);
    rows.push(...body.rows);
    if (body.rows.length < 100) break;
    last = String(body.rows.at(-1)![0]);
  }
  assert.deepEqual(columns, ['canonical_id', 'title', 'url', 'published_at', 'publication', 'kind', 'tags']);
  const rest = data
    .map((w) => [w.canonicalId, w.title, w.url, w.publishedAt, w.publication ?? null, w.kind ?? null, JSON.stringify(w.tags)])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  assert.equal(rows.length, data.length);
  assert.deepEqual(rows, rest);
});

test('feed-items: one reverse-chronological stream; the walk equals the oracle, with collection (repeatable) and since', async () => {
  const cases: [string, { collections?: string[]; since?: string }][] = [
    ['limit=37', {}],
    ['collection=blog&limit=5', { collections: ['blog'] }],
    ['collection=concerts&collection=books&collection=movies&limit=13', { collections: ['concerts', 'books', 'movies'] }],
    ['since=2025-01-01&limit=20', { since: '2025-01-01' }],
    ['since=2024-06-01T12:00:00%2B02:00&collection=activities&limit=6', { collections: ['activities'], since: '2024-06-01T12:00:00+02:00' }],
  ];
  for (const [query, filter] of cases) {
    const { data, total } = await walk(`/api/feed-items.json?${query}`);
    const expected = expectedFeed(items, filter);
    assert.ok(expected.length > 0, query);
    assert.equal(total, expected.length, query);
    assert.deepEqual(
      data.map((i) => i.canonicalId),
      expected.map((e) => e.canonicalId),
      query,
    );
    assert.deepEqual(
      data.map((i) => `${i.collection} ${i.date}`),
      expected.map((e) => `${e.collection} ${e.date}`),
      query,
    );
    for (const item of data) assert.match(String(item.url), /^https?:\/\//);
  }
  // A film watched, a run, a concert, a post and a book finished are all in the stream.
  const { meta } = await page('/api/feed-items.json?facets=1&limit=1');
  const present = new Set(meta.facets!.collection!.map((f) => f.value));
  for (const c of ['movies', 'activities', 'concerts', 'blog', 'books', 'writing']) assert.ok(present.has(c), c);
  // The same query in another order of its values is the same list, with the same links.
  const a = await page('/api/feed-items.json?collection=books&collection=blog&limit=3');
  const b = await page('/api/feed-items.json?collection=blog&collection=books&limit=3');
  assert.deepEqual(a, b);
  const csv = await contractFetch(`${server.base}/api/feed-items.json?limit=4`, { headers: { Accept: 'text/csv' } });
  assert.deepEqual(Object.keys((parseCsv(await csv.text(), { columns: true }) as Record<string, string>[])[0]!), [
    'canonicalId',
    'collection',
    'title',
    'date',
    'url',
    'year',
  ]);
});

test('feed-items: a stable cursor while content is unchanged; bad since and unknown collections are 400 problems', async () => {
  const first = await page('/api/feed-items.json?limit=10');
  const again = await page('/api/feed-items.json?limit=10');
  assert.equal(first.links.next, again.links.next);
  const response = await contractFetch(`${server.base}/api/feed-items.json?limit=10`);
  const etag = response.headers.get('etag')!;
  assert.equal((await contractFetch(`${server.base}/api/feed-items.json?limit=10`, { headers: { 'If-None-Match': etag } })).status, 304);
  await problem('/api/feed-items.json?since=yesterday', 'invalid-query', 'since');
  await problem('/api/feed-items.json?since=2024-02-30', 'invalid-query', 'since');
  await problem('/api/feed-items.json?since=2024-05-01T10:00:00', 'invalid-query', 'since');
  await problem('/api/feed-items.json?since=2024-01-01&since=2025-01-01', 'invalid-query', 'since');
  await problem('/api/feed-items.json?collection=nope', 'invalid-query', 'collection');
  await problem(`${first.links.next!}&collection=blog`, 'invalid-cursor', 'cursor');
});

test('a post’s page is prerendered at its canonical URL: Markdown rendered, code highlighted, canonical link, linked from the blog index', async () => {
  const { data } = await page('/api/blog.json?q=abortsignal');
  const post = data[0]!;
  const response = await fetch(`${server.base}/blog/${post.slug}/`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type')!, /^text\/html/);
  const html = await response.text();
  assert.ok(html.includes(`<link rel="canonical" href="${post.url}">`));
  assert.ok(html.includes(`<h1 class="p-name">${post.title}</h1>`));
  assert.match(html, /<pre><code class="hljs language-js"><span class="hljs-keyword">import<\/span>/);
  assert.ok(!html.includes('```'), 'the Markdown is rendered, not shown');
  const index = await (await fetch(`${server.base}/blog/`)).text();
  for (const p of (await walk('/api/blog.json?limit=100')).data) assert.ok(index.includes(`href="/blog/${p.slug}/"`), String(p.slug));
  for (const draft of drafts) assert.ok(!index.includes(draft));
});
