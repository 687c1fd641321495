/**
 * The search list answer: run the search core once, render the page as the JSON list
 * envelope or CSV, tag the bytes and build the same list headers collections carry
 * (links, count, template, version, usage preferences), so search behaves like every
 * other list to caches and clients.
 */
import { LIMITS } from '../core/limits.ts';
import type { PageSummary } from '../core/query.ts';
import { SEARCH_PARAMETERS, searchCanonical, type SearchCore, type SearchQuery } from '../core/search.ts';
import { renderCsv } from '../formats/csv.ts';
import { renderEnvelopeJoined, type PageLinks } from '../formats/json.ts';
import { strongEtag } from './etag.ts';
import { listHeaders } from './headers.ts';
import type { ListAnswer } from './list.ts';
import { URLS } from '../urls.ts';

/** RFC 9652 query template of search (RFC 6570 `*`: collection is given once per value). */
export const SEARCH_LINK_TEMPLATE = `"${URLS.search}{?${SEARCH_PARAMETERS.map((p) => (p === 'collection' ? `${p}*` : p)).join(',')}}"; rel="search"`;

/** A hit's fields, in order: the CSV columns. */
export const SEARCH_COLUMNS = ['canonicalId', 'collection', 'title', 'field', 'url', 'date', 'year'] as const;
export const SEARCH_MEDIA_TYPES = [
  { mediaType: 'application/json', contentType: 'application/json' },
  { mediaType: 'text/csv', contentType: 'text/csv; charset=utf-8; header=present' },
] as const;

export function searchAnswer(core: SearchCore, query: SearchQuery, mediaType: string): ListAnswer {
  const format = SEARCH_MEDIA_TYPES.find((m) => m.mediaType === mediaType) ?? SEARCH_MEDIA_TYPES[0];
  const { page, links, body } = format.mediaType === 'text/csv' ? csv(core, query) : json(core, query);
  const headers = listHeaders({
    path: URLS.search,
    template: SEARCH_LINK_TEMPLATE,
    contentType: format.contentType,
    etag: strongEtag(body),
    totalCount: page.totalCount,
    links,
    lastModified: page.lastModified,
  });
  headers['Content-Length'] = String(body.length);
  return { body, headers };
}

/** The page's links: itself, the first page and, when another follows, the next. */
function searchLinks(query: SearchQuery, page: PageSummary): PageLinks {
  const links: PageLinks = { self: URLS.search + searchCanonical(query, query.cursor), first: URLS.search + searchCanonical(query) };
  if (page.next !== undefined) links.next = URLS.search + searchCanonical(query, page.next);
  return links;
}

/** The JSON list: the hits spliced in as bytes, joined by the core. */
function json(core: SearchCore, query: SearchQuery): { page: PageSummary; links: PageLinks; body: Buffer } {
  const page = core.runJoined(query);
  const links = searchLinks(query, page);
  const meta = { totalCount: page.totalCount, pageSize: Math.min(query.limit, LIMITS.pageSizeMax), timestamp: page.asOf };
  return { page, links, body: renderEnvelopeJoined(page.parts, meta, links) };
}

function csv(core: SearchCore, query: SearchQuery): { page: PageSummary; links: PageLinks; body: Buffer } {
  const page = core.run(query);
  const rows = page.items.map((i) => JSON.parse(i) as Record<string, unknown>);
  return { page, links: searchLinks(query, page), body: Buffer.from(renderCsv(SEARCH_COLUMNS, rows)) };
}
