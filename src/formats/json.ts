/**
 * The JSON list envelope of SPEC §2.1: `{data, meta, links}`. Items are spliced in as
 * the JSON text stored in the image, so a page costs one string join, not a parse and
 * re-serialisation of every record. Links are root-relative, which keeps static files
 * independent of the host that serves them.
 */
import { canonicalSearch } from '../core/params.ts';
import type { Query } from '../core/params.ts';
import type { JoinedPage, Page, PageSummary } from '../core/query.ts';
import { collectionUrl } from '../urls.ts';

export interface PageLinks {
  self: string;
  first: string;
  next?: string;
}

export function pageLinks(query: Query, page: PageSummary): PageLinks {
  const path = collectionUrl(query.collection.name);
  const links: PageLinks = { self: path + canonicalSearch(query, query.cursor), first: path + canonicalSearch(query) };
  if (page.next !== undefined) links.next = path + canonicalSearch(query, page.next);
  return links;
}

export function renderJson(query: Query, page: Page, links: PageLinks): string {
  return renderEnvelope(page.items, listMeta(query, page), links);
}

const DATA_OPEN = Buffer.from('{"data":[');

/** The same bytes as `renderJson`, from items given as parts (QueryCore.runJoined). */
export function renderJsonJoined(query: Query, page: JoinedPage, links: PageLinks): Buffer {
  return renderEnvelopeJoined(page.parts, listMeta(query, page), links);
}

/** The same bytes as `renderEnvelope`, from items given as UTF-8 parts (commas included), copied once. */
export function renderEnvelopeJoined(parts: readonly Uint8Array[], meta: Record<string, unknown>, links: PageLinks): Buffer {
  const all: Uint8Array[] = [DATA_OPEN];
  for (const part of parts) all.push(part);
  all.push(Buffer.from(envelopeTail(meta, links)));
  return Buffer.concat(all);
}

function listMeta(query: Query, page: PageSummary): Record<string, unknown> {
  const meta: Record<string, unknown> = { totalCount: page.totalCount, pageSize: query.limit, timestamp: page.asOf };
  if (page.facets) meta.facets = page.facets;
  return meta;
}

/** What follows the items: the end of `data`, then `meta` and `links`. */
const envelopeTail = (meta: Record<string, unknown>, links: PageLinks) => `],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`;

/** The envelope around items given as JSON text. */
export function renderEnvelope(items: readonly string[], meta: Record<string, unknown>, links: PageLinks): string {
  return `{"data":[${items.join(',')}${envelopeTail(meta, links)}`;
}
