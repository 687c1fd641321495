/** The sitemap index splits record pages into files of at most 50,000 URLs, none lost or repeated. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Image } from '../../src/core/image.ts';
import { recordSitemap, recordSitemapCount, SITEMAP_URLS_MAX, sitemapIndex } from '../../src/site/sitemap.ts';

/** An image whose movies hold 30,000 records and books 45,000 (every other collection none). */
function fakeImage(): Image {
  const counts: Record<string, number> = { movies: 30_000, books: 45_000 };
  const cid = (n: number) => `itm_${n.toString(16).padStart(24, '0')}`;
  return {
    siteUrl: 'https://example.org',
    count: (name: string) => counts[name] ?? 0,
    statement: (sql: string) => ({
      all: (limit: number, offset: number) => {
        const name = /FROM "([a-z-]+)"/.exec(sql)![1]!;
        const total = counts[name] ?? 0;
        return Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ cid: cid(offset + i) }));
      },
    }),
  } as unknown as Image;
}

test('record sitemaps hold at most 50,000 URLs each, and together every record page once', () => {
  const image = fakeImage();
  assert.equal(recordSitemapCount(image), 2);
  assert.equal([...sitemapIndex(image).matchAll(/<sitemap>/g)].length, 3);
  const urls = [1, 2].flatMap((n) => [...recordSitemap(image, n).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
  const first = [...recordSitemap(image, 1).matchAll(/<loc>/g)].length;
  assert.equal(first, SITEMAP_URLS_MAX);
  assert.equal(urls.length, 75_000);
  assert.equal(new Set(urls).size, 75_000);
  assert.ok(urls.filter((u) => u.includes('/movies/')).length === 30_000);
});
