/**
 * The service's own documents over the wire: problem registry (HTML and JSON), service
 * metadata, status and the RFC 9727 API catalog, and that their links resolve.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { restCollections } from '../../src/collections/index.ts';
import { PROBLEMS } from '../../src/core/errors.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());
const get = (path: string, headers: Record<string, string> = {}) => contractFetch(server.base + path, { headers });

test('every problem type resolves: JSON by default, HTML for browsers', async () => {
  for (const [slug, p] of Object.entries(PROBLEMS)) {
    const asJson = await get(`/problems/${slug}`);
    assert.equal(asJson.status, 200, slug);
    assert.equal(asJson.headers.get('content-type'), 'application/json');
    assert.equal(asJson.headers.get('vary'), 'Accept');
    const doc = (await asJson.json()) as Record<string, unknown>;
    assert.deepEqual([doc.type, doc.status, doc.title], [`/problems/${slug}`, p.status, p.title]);
    const asHtml = await get(`/problems/${slug}`, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(asHtml.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await asHtml.text(), new RegExp(`<code>${slug}</code>`));
  }
  const index = (await (await get('/problems/')).json()) as { problems: { slug: string }[] };
  assert.deepEqual(index.problems.map((p) => p.slug), Object.keys(PROBLEMS));
  const html = await (await get('/problems/', { Accept: 'text/html' })).text();
  for (const slug of Object.keys(PROBLEMS)) assert.ok(html.includes(`href="/problems/${slug}"`), slug);
});

test('service metadata lists every collection and links to the other documents', async () => {
  const meta = (await (await get('/api/meta.json')).json()) as { version: string; links: Record<string, string>; collections: { name: string; path: string; count: number }[] };
  assert.equal(meta.version, '1.0.0');
  assert.deepEqual(meta.collections.map((c) => c.name), restCollections.map((c) => c.name));
  for (const c of meta.collections) {
    const list = (await (await get(`${c.path}?limit=1`)).json()) as { meta: { totalCount: number } };
    assert.equal(list.meta.totalCount, c.count, c.name);
  }
  for (const [name, href] of Object.entries(meta.links)) {
    if (name === 'openapi' || name === 'openapiYaml') continue; // checked with the OpenAPI contract
    if (name === 'sql') continue; // QUERY only; tests/sql and tests/http/sql.test.ts
    if (name === 'graphql' || name === 'graphqlSchema') continue; // its own contract: tests/graphql
    if (name === 'search') continue; // needs q; tests/http/search.test.ts
    if (name === 'mcp') continue; // JSON-RPC over POST; tests/mcp
    if (name === 'rpc') continue; // POST batches and WebSocket sessions; tests/rpc
    assert.equal((await get(href)).status, 200, `${name} ${href}`);
  }
});

test('status reports the version and the data as-of time of this process', async () => {
  const r = await get('/api/status.json');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const body = (await r.json()) as { status: string; version: string; dataAsOf: string; collections: Record<string, { count: number; asOf: string }> };
  assert.equal(body.status, 'ok');
  assert.equal(body.version, '1.0.0');
  assert.deepEqual(Object.keys(body.collections), restCollections.map((c) => c.name));
  assert.equal(body.dataAsOf, Object.values(body.collections).map((c) => c.asOf).sort().at(-1));
});

test('the API catalog is an RFC 9727 linkset pointing at the description, docs, metadata and status', async () => {
  const r = await get('/.well-known/api-catalog');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  const { linkset } = (await r.json()) as { linkset: Record<string, unknown>[] };
  const entry = linkset[0] as Record<string, { href: string }[]>;
  for (const rel of ['service-desc', 'service-doc', 'service-meta', 'status']) assert.ok(entry[rel]?.length, rel);
  for (const rel of ['service-doc', 'service-meta', 'status']) assert.equal((await get(entry[rel]![0]!.href)).status, 200, rel);
});
