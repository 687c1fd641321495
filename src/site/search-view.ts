/**
 * The search page's view: `/search/?q=…` runs the query `/api/search.json` parses from the
 * same query string (src/core/search.ts), so the page lists the search list's hits in its
 * order, each linked to its record's page; the next page is the search cursor.
 */
import { collection } from '../collections/index.ts';
import type { SearchCore, SearchQuery } from '../core/search.ts';
import { searchCanonical } from '../core/search.ts';
import { LINKS, PAGES } from '../urls.ts';
import { itemView, type ItemView } from './view.ts';

export interface SearchView {
  q: string;
  items: (ItemView & { collection: string })[];
  totalCount: number;
  path: string;
  apiPath: string;
  first: string | undefined;
  next: string | undefined;
}

export function searchView(core: SearchCore, query: SearchQuery): SearchView {
  const page = core.run(query);
  const items = page.items.map((json) => {
    const hit = JSON.parse(json) as Record<string, unknown>;
    const c = collection(String(hit.collection))!;
    return { ...itemView(c, hit), collection: c.title };
  });
  return {
    q: query.q.value,
    items,
    totalCount: page.totalCount,
    path: `${PAGES.search}${searchCanonical(query, query.cursor)}`,
    apiPath: `${LINKS.search}${searchCanonical(query, query.cursor)}`,
    first: query.cursor === undefined ? undefined : `${PAGES.search}${searchCanonical(query)}`,
    next: page.next === undefined ? undefined : `${PAGES.search}${searchCanonical(query, page.next)}`,
  };
}
