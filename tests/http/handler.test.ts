/**
 * The REST handler as a Web-standard function: called with `new Request(...)`, no
 * server. The same answers as over the wire, with and without the answer cache.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { paths } from '../../src/paths.ts';

const image = new Image(paths.image);
after(() => image.close());
const cached = createRestFetchHandler(new QueryCore(image));
const uncached = createRestFetchHandler(new QueryCore(image), { cacheBytes: 0 });
const request = (path: string, init?: RequestInit) => new Request(`http://example.test${path}`, init);

test('cached and uncached handlers answer the same bytes, tags and pages', async () => {
  for (const path of ['/api/movies.json?genre=drama', '/api/places.json?limit=3&sort=name:desc', '/api/books.json?q=the&facets=1']) {
    for (let round = 0; round < 2; round++) {
      const [a, b] = [await cached(request(path)), await uncached(request(path))];
      assert.equal(a.status, 200);
      assert.equal(a.headers.get('etag'), b.headers.get('etag'));
      assert.equal(await a.text(), await b.text());
    }
  }
});

test('the handler answers problems, 405 with Allow, and 304 for a matching tag', async () => {
  const missing = await cached(request('/api/unknown.json'));
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('content-type'), 'application/problem+json');
  const del = await cached(request('/api/movies.json', { method: 'DELETE' }));
  assert.equal(del.status, 405);
  assert.equal(del.headers.get('allow'), 'GET, HEAD, OPTIONS');
  const first = await cached(request('/api/movies.json?year=2019'));
  const again = await cached(request('/api/movies.json?year=2019', { headers: { 'If-None-Match': first.headers.get('etag')! } }));
  assert.equal(again.status, 304);
  assert.equal(again.body, null);
});
