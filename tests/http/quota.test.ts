/**
 * Quotas and the provenance refusal, through the Web-standard handler with an injected
 * clock and client, and an image compiled from a small fixture.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { compile } from '../../src/compile/compile.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { paths } from '../../src/paths.ts';

const request = (path: string, headers: Record<string, string> = {}) => new Request(`http://example.test${path}`, { headers });

test('the 1001st request of a client in a window is a 429 problem with Retry-After: 60', async () => {
  const image = new Image(paths.image);
  let client = 'a';
  const handler = createRestFetchHandler(new QueryCore(image), { now: () => 5_000, clientOf: () => client });
  for (let i = 1; i <= 1000; i++) {
    const r = await handler(request('/api/movies.json?limit=1'));
    assert.equal(r.status, 200, `request ${i}`);
    assert.equal(r.headers.get('ratelimit-limit'), '1000');
  }
  const refused = await handler(request('/api/movies.json?limit=1'));
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '60');
  assert.equal(refused.headers.get('ratelimit-policy'), '"collections";q=1000;w=60');
  assert.match(refused.headers.get('ratelimit')!, /^"collections";r=0;t=\d+$/);
  assert.equal(((await refused.json()) as { type: string }).type, '/problems/rate-limited');
  const head = await handler(new Request('http://example.test/api/movies.json?limit=1', { method: 'HEAD' }));
  assert.equal(head.status, 429, 'HEAD is counted and refused like GET');
  assert.equal(head.headers.get('retry-after'), '60');
  assert.equal(await head.text(), '');
  client = 'b';
  assert.equal((await handler(request('/api/movies.json?limit=1'))).status, 200, 'another client still has its quota');
  image.close();
});

test('a geographic format with incomplete location provenance is a 503 problem; JSON still answers', async () => {
  const root = mkdtempSync(join(tmpdir(), 'provenance-'));
  mkdirSync(join(root, 'content/photos'), { recursive: true });
  writeFileSync(
    join(root, 'content/photos/p.yaml'),
    '- title: Tram\n  src: /photos/tram.jpg\n  alt: A tram\n  takenAt: 2024-05-01T10:00:00Z\n  width: 10\n  height: 10\n  coordinates: { latitude: 38.7, longitude: -9.1 }\n',
  );
  const result = compile({ contentDir: join(root, 'content'), imagePath: join(root, 'site.db'), clientDir: join(root, 'client'), secret: 's' });
  assert.match(result.warnings.join('\n'), /p\.yaml\[0\]: coordinatesSource: /);
  const image = new Image(join(root, 'site.db'));
  const handler = createRestFetchHandler(new QueryCore(image));
  const refused = await handler(request('/api/photos.json', { Accept: 'application/geo+json' }));
  assert.equal(refused.status, 503);
  assert.equal(((await refused.json()) as { type: string }).type, '/problems/location-provenance-incomplete');
  assert.equal((await handler(request('/api/photos.json'))).status, 200);
  assert.equal((await handler(request('/api/photos.json', { Accept: 'text/csv' }))).status, 200);
  image.close();
});
