/**
 * The sitemaps (sitemaps.org protocol 0.9): `/sitemap.xml` is an index naming one file of
 * the prerendered pages and as many files of record pages as it takes, each holding at
 * most 50,000 URLs ("Each Sitemap file that you provide must have no more than 50,000
 * URLs"). Record URLs are read from the image by canonicalId alone, without parsing records.
 */
import { blogPath } from '../collections/blog.ts';
import { collection } from '../collections/index.ts';
import { recordsTable, type Image } from '../core/image.ts';
import { collectionPageUrl, PAGES, recordUrl, URLS } from '../urls.ts';
import { pageCollections } from './view.ts';

export const SITEMAP_URLS_MAX = 50_000;

/** The collections whose records have their own page on this site (writing links elsewhere, the blog's posts are pages). */
export const recordCollections = () => pageCollections.filter((c) => c.name !== 'writing');

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A URL's line in a urlset. */
export const urlLine = (url: string) => `  <url><loc>${escapeXml(url)}</loc></url>`;

const URLSET_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const URLSET_TAIL = '\n</urlset>\n';

/** A urlset of lines (`urlLine`), in order. */
export const urlsetOf = (lines: readonly string[]) => `${URLSET_HEAD}${lines.join('\n')}${URLSET_TAIL}`;

/**
 * `urlsetOf` as bytes, each line written where it goes: a record sitemap holds 50,000 lines,
 * and joining them into one string, then encoding it, took five times as long (a rebuild
 * at a million records writes up to twenty). Every line is ASCII — a URL's serialization
 * (`URL.href` percent-encodes everything else), XML-escaped — so each character is a byte.
 */
export function urlsetBytes(lines: readonly string[]): Buffer {
  let size = URLSET_HEAD.length + URLSET_TAIL.length + Math.max(0, lines.length - 1);
  for (const line of lines) size += line.length;
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write(URLSET_HEAD, 0, 'latin1');
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) bytes[at++] = 0x0a;
    at += bytes.write(lines[i]!, at, 'latin1');
  }
  bytes.write(URLSET_TAIL, at, 'latin1');
  return bytes;
}

const urlset = (urls: readonly string[]) => urlsetOf(urls.map(urlLine));

/** A record page's line in the record sitemaps. */
export const recordLine = (siteUrl: string, collectionName: string, cid: string) => urlLine(new URL(recordUrl(collectionName, cid), siteUrl).href);

export const recordSitemapPath = (n: number) => `/sitemap-records-${n}.xml`;
export const PAGES_SITEMAP = '/sitemap-pages.xml';

/** How many record sitemaps the image needs. */
export function recordSitemapCount(image: Image): number {
  const total = recordCollections().reduce((sum, c) => sum + image.count(c.name), 0);
  return Math.max(1, Math.ceil(total / SITEMAP_URLS_MAX));
}

export function sitemapIndex(image: Image): string {
  const files = [PAGES_SITEMAP, ...Array.from({ length: recordSitemapCount(image) }, (_, i) => recordSitemapPath(i + 1))];
  const entries = files.map((f) => `  <sitemap><loc>${escapeXml(new URL(f, image.siteUrl).href)}</loc></sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

export function pagesSitemap(image: Image): string {
  const slugs = (
    image.statement(`SELECT json ->> '$.slug' AS slug FROM ${recordsTable(collection('blog')!.name)} ORDER BY cid`).all() as { slug: string }[]
  ).map((r) => blogPath(r.slug));
  const paths = [
    '/',
    ...pageCollections.map((c) => collectionPageUrl(c.name)),
    URLS.blog,
    ...slugs,
    PAGES.map,
    PAGES.search,
    PAGES.api,
    PAGES.apiReference,
    URLS.subscribe,
  ];
  return urlset(paths.map((p) => new URL(p, image.siteUrl).href));
}

/** The `n`th (from 1) file of record pages: collections in the registry's order, records by canonicalId. */
export function recordSitemap(image: Image, n: number): string {
  let skip = (n - 1) * SITEMAP_URLS_MAX;
  const urls: string[] = [];
  for (const c of recordCollections()) {
    if (urls.length >= SITEMAP_URLS_MAX) break;
    const count = image.count(c.name);
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const rows = image.statement(`SELECT cid FROM ${recordsTable(c.name)} ORDER BY cid LIMIT ? OFFSET ?`).all(SITEMAP_URLS_MAX - urls.length, skip) as {
      cid: string;
    }[];
    skip = 0;
    for (const r of rows) urls.push(recordLine(image.siteUrl, c.name, r.cid));
  }
  return urlsetOf(urls);
}
