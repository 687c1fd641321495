/**
 * The prerendered site pages made of records, as a rebuild under a running server sees
 * them: the home page (and its twin, and `/llms.txt`) reads every list's count and newest
 * records, each collection's page one (and its twin) reads that collection, the map reads
 * the located collections, the blog
 * index and each post's page read the blog, the sitemaps list the record pages and the
 * posts. A rebuild renders again only the pages whose records changed, through the
 * `rerender` route (src/pages/rerender/), which uses the same components and data as
 * the prerendered pages; a post that left the blog takes its page with it.
 */
import { blogPath } from '../../collections/blog.ts';
import { restCollections } from '../../collections/index.ts';
import { MAPPED } from '../../site/map.ts';
import { PAGES_SITEMAP, recordCollections, recordSitemapCount, recordSitemapPath, SITEMAP_URLS_MAX, urlsetBytes } from '../../site/sitemap.ts';
import type { QueryCore } from '../../core/query.ts';
import { SITEMAP_LINES, type RecordOrders } from '../artifacts/record-order.ts';
import { pageCollections } from '../../site/view.ts';
import type { Image } from '../../core/image.ts';
import type { ContentChanges } from './changes.ts';
import { collectionPageUrl, markdownTwinUrl, PAGES, URLS } from '../../urls.ts';

/** A page to render again: its URL path, its file under the client directory, and the route that renders it. */
export interface PageRender {
  path: string;
  file: string;
  route: string;
}

export const RERENDER_ROUTE = '/rerender';
const RECORD_SITEMAP = 'sitemap-records/';

const page = (path: string, route: string): PageRender => ({ path, file: `${path.slice(1)}index.html`, route: `${RERENDER_ROUTE}/${route}` });
/** A file served at its own path (a Markdown twin, `/llms.txt`). */
const file = (path: string, route: string): PageRender => ({ path, file: path.slice(1), route: `${RERENDER_ROUTE}/${route}` });

/** The pages `changes` touch (`before` and `after` are the images on either side), and the paths of pages that no longer exist. */
export function pagesToRender(changes: ContentChanges, before: Image, after: Image): { render: PageRender[]; remove: string[] } {
  const render: PageRender[] = [];
  const remove: string[] = [];
  const changed = (name: string) => (changes.records.get(name)?.size ?? 0) > 0;
  if (restCollections.some((c) => before.count(c.name) !== after.count(c.name) || changed(c.name))) {
    render.push(page('/', 'home'), file(markdownTwinUrl('/'), 'home.md'), file(PAGES.llms, 'llms'));
  }
  if (MAPPED().some((c) => changed(c.name))) render.push(page(PAGES.map, 'map'), file(markdownTwinUrl(PAGES.map), 'map.md'));
  for (const c of pageCollections.filter((c) => changed(c.name))) {
    const path = collectionPageUrl(c.name);
    render.push(page(path, `collection/${c.name}`), file(markdownTwinUrl(path), `collection.md/${c.name}`));
  }
  // The sitemaps list pages, not their content: they change when a record page comes or goes, or a post does.
  const cameOrWent = (name: string) => [...(changes.records.get(name)?.values() ?? [])].some((c) => (c.before === undefined) !== (c.after === undefined));
  if (recordCollections().some((c) => cameOrWent(c.name))) {
    const [was, is] = [recordSitemapCount(before), recordSitemapCount(after)];
    render.push(file(PAGES.sitemap, 'sitemap'));
    for (let n = 1; n <= is; n++) render.push(file(recordSitemapPath(n), `${RECORD_SITEMAP}${n}`));
    for (let n = is + 1; n <= was; n++) remove.push(recordSitemapPath(n));
  }
  if (changed('blog')) render.push(file(PAGES_SITEMAP, 'sitemap-pages'));
  const blog = changes.records.get('blog');
  if (blog && blog.size > 0) {
    render.push(page(URLS.blog, 'blog'), file(markdownTwinUrl(URLS.blog), 'blog.md'));
    const kept = new Set<string>();
    for (const change of blog.values()) {
      if (change.after === undefined) continue;
      const path = blogPath(String(change.after.slug));
      kept.add(path);
      render.push(page(path, `blog/${change.cid}`), file(markdownTwinUrl(path), `blog.md/${change.cid}`));
    }
    for (const change of blog.values()) {
      if (change.before === undefined) continue;
      const path = blogPath(String(change.before.slug));
      if (!kept.has(path)) remove.push(path, markdownTwinUrl(path));
    }
  }
  return { render, remove };
}

/** Which record sitemap a page is (its number), or undefined. */
export const recordSitemapNumber = (page: PageRender): number | undefined =>
  page.route.startsWith(`${RERENDER_ROUTE}/${RECORD_SITEMAP}`) ? Number(page.route.slice(RERENDER_ROUTE.length + 1 + RECORD_SITEMAP.length)) : undefined;

/**
 * The record sitemaps as `recordSitemap` (src/site/sitemap.ts) writes them — the record
 * collections in the registry's order, each by canonicalId, SITEMAP_URLS_MAX lines a
 * file — from the lines `orders` keeps across rebuilds: a record that comes or goes moves
 * every later line to the next file, and each file is then a join of kept lines rather
 * than fifty thousand URLs read and built again.
 */
export function keptRecordSitemaps(core: QueryCore, orders: RecordOrders): (n: number) => Buffer {
  const lists = recordCollections().map((c) => orders.list(core, c.name, SITEMAP_LINES));
  return (n) => {
    let skip = (n - 1) * SITEMAP_URLS_MAX;
    let lines: string[] = [];
    for (const list of lists) {
      if (lines.length >= SITEMAP_URLS_MAX) break;
      if (skip >= list.length) {
        skip -= list.length;
        continue;
      }
      lines = lines.concat(list.slice(skip, skip + SITEMAP_URLS_MAX - lines.length));
      skip = 0;
    }
    return urlsetBytes(lines);
  };
}
