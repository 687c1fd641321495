/**
 * Writing the cross-collection search index into the image: one row per published
 * record of every content collection (a blog post composed into writing is indexed once,
 * as a blog post) with its collection, year, date key, the folded text of its first
 * searched field (`head`) and of its other searched fields (`rest`, one segment per
 * field, U+001F between them), and the hit as published; then a trigram index over
 * `head` and `rest`. Rows are numbered in rank order within a tier — date descending
 * (undated last), then canonicalId — so the index returns matches already in the order a
 * page needs, and a page is read without sorting the match set. Rids start at
 * SEARCH_RID_BASE, RID_GAP apart, so the dev loop can insert rows without renumbering.
 */
import type { CollectionDeclaration } from '../../collections/define.ts';
import { yearOf } from '../../collections/fields.ts';
import { HAPPENED, headline, linkOf } from '../../collections/headline.ts';
import { fold } from '../../core/fold.ts';
import { sortKey } from '../../core/image.ts';
import { FIELD_SEPARATOR } from '../../core/search.ts';
import type { PublishedRecord } from '../content/records.ts';

export interface SearchSource {
  collection: CollectionDeclaration;
  records: readonly PublishedRecord[];
}

const folded = (value: unknown): string =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => fold(String(v)).replaceAll(FIELD_SEPARATOR, ' ')).join('\n');

const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A record's row in the search table, without its rid. */
export interface SearchRow {
  cid: string;
  /** The date key rows rank by (descending). */
  d: string;
  /** The columns after rid: cid, collection, year, d, head, rest, json. */
  values: (string | number | null)[];
}

export function searchRow(
  collection: CollectionDeclaration,
  { canonicalId, fields }: Pick<PublishedRecord, 'canonicalId' | 'fields'>,
  siteUrl: string,
): SearchRow {
  const [head = '', ...rest] = collection.search.map((f) => folded(fields[f]));
  const date = HAPPENED[collection.name]?.(fields) ?? (typeof fields[collection.dateField] === 'string' ? String(fields[collection.dateField]) : undefined);
  const hit: Record<string, unknown> = {
    canonicalId,
    collection: collection.name,
    title: headline(collection.name, fields),
    url: linkOf(collection.name, fields, siteUrl),
  };
  if (date !== undefined) Object.assign(hit, { date, year: yearOf(date) });
  const d = String(sortKey('date', date));
  return { cid: canonicalId, d, values: [canonicalId, collection.name, yearOf(date) ?? null, d, head, rest.join(FIELD_SEPARATOR), JSON.stringify(hit)] };
}

/** Rank order: date key descending (undated last), then canonicalId. */
export const byRank = (a: { d: string; cid: string }, b: { d: string; cid: string }) => -bytes(a.d, b.d) || bytes(a.cid, b.cid);
