/**
 * Oracles for the cross-collection lists, computed in plain JavaScript from every
 * record of the image's collection tables (read independently of the query core): the
 * content records each list is built from, the feed's items and order, and the search
 * hits with their tier, field and order.
 */
import { contentCollections } from '../../src/collections/index.ts';
import { HAPPENED } from '../../src/collections/headline.ts';
import { fold } from '../../src/core/fold.ts';
import { paths } from '../../src/paths.ts';
import { allItems, type Item } from './oracle.ts';

const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Every content record by collection, as published (writing without the blog posts composed into it). */
export function contentItems(): Map<string, Item[]> {
  const blog = new Set(allItems(paths.image, 'blog').map((i) => i.canonicalId));
  return new Map(contentCollections.map((c) => [c.name, allItems(paths.image, c.name).filter((i) => c.name !== 'writing' || !blog.has(i.canonicalId))]));
}

/** A date as an instant-ordered key: dates stay, date-times with an offset become UTC. */
export function dateKey(date: string | undefined): string {
  if (date === undefined) return '';
  if (date.length <= 10) return date;
  if (/(Z|[+-]\d{2}:\d{2})$/.test(date))
    return new Date(date)
      .toISOString()
      .replace(/\.000Z$/, '')
      .replace(/Z$/, '');
  return date.length === 16 ? `${date}:00` : date;
}

export interface ExpectedHit {
  canonicalId: string;
  collection: string;
  field: string;
  tier: number;
  key: string;
  year: number | undefined;
}

export function expectedHits(items: Map<string, Item[]>, q: string, filter: { collections?: string[]; year?: number } = {}): ExpectedHit[] {
  const key = fold(q.trim());
  const hits: ExpectedHit[] = [];
  for (const c of contentCollections) {
    if (filter.collections?.length && !filter.collections.includes(c.name)) continue;
    for (const item of items.get(c.name)!) {
      const texts = c.search.map(
        (f) =>
          [
            f,
            values(item[f])
              .map((v) => fold(String(v)))
              .join('\n'),
          ] as const,
      );
      const at = texts.findIndex(([, t]) => t.includes(key));
      if (at < 0) continue;
      const date = HAPPENED[c.name]!(item) ?? (typeof item[c.dateField] === 'string' ? String(item[c.dateField]) : undefined);
      const year = date ? Number(date.slice(0, 4)) : undefined;
      if (filter.year !== undefined && year !== filter.year) continue;
      hits.push({ canonicalId: item.canonicalId, collection: c.name, field: texts[at]![0], tier: at === 0 ? 0 : 1, key: dateKey(date), year });
    }
  }
  return hits.sort((a, b) => a.tier - b.tier || -bytes(a.key, b.key) || bytes(a.canonicalId, b.canonicalId));
}

export interface ExpectedFeedItem {
  canonicalId: string;
  collection: string;
  date: string;
}

/** Feed items, newest first (ties: canonicalId descending, as every descending list). */
export function expectedFeed(items: Map<string, Item[]>, filter: { collections?: string[]; since?: string } = {}): ExpectedFeedItem[] {
  const feed: ExpectedFeedItem[] = [];
  for (const c of contentCollections) {
    if (filter.collections?.length && !filter.collections.includes(c.name)) continue;
    for (const item of items.get(c.name)!) {
      const date = HAPPENED[c.name]!(item);
      if (date === undefined) continue;
      if (filter.since !== undefined && dateKey(date) < dateKey(filter.since)) continue;
      feed.push({ canonicalId: item.canonicalId, collection: c.name, date });
    }
  }
  return feed.sort((a, b) => -bytes(dateKey(a.date), dateKey(b.date)) || -bytes(a.canonicalId, b.canonicalId));
}
