/**
 * Records as a capnweb client receives them: the REST item, with its date fields as
 * native `Date` and its absolute URL fields as native `URL` (capnweb carries both
 * natively). Which fields those are is read from the collection's declaration, never
 * listed by hand: a top-level field declared with a date kind of `fields.ts` (a date, a
 * date-time, either) becomes a Date, one declared `httpUrl` (and the derived `url`,
 * `mapsUrl`) a URL. A calendar date is midnight UTC of that day; a date-time with no
 * offset (a local time in a record without a time zone) is read as UTC. Months
 * (`YYYY-MM`), site-relative image paths and nested values stay as REST has them.
 */
import type { z } from 'zod';
import type { CollectionDeclaration } from '../collections/define.ts';
import * as fields from '../collections/fields.ts';
import { HAPPENED, headline, linkOf } from '../collections/headline.ts';

export type FieldKind = 'date' | 'url';

/**
 * How a top-level field is carried: `date` a Date when it reads as one, else the string
 * as stored (`nativeRecord`); `instant` a Date even when invalid (a search hit's `date`);
 * `url` a URL when it parses, else the string.
 */
export type WireKind = 'date' | 'instant' | 'url';

const DATE_KINDS = new Set<unknown>([fields.isoDate, fields.isoDateTime, fields.isoDateOrDateTime]);
const URL_KINDS = new Set<unknown>([fields.httpUrl]);
/** Derived fields (DERIVED_FIELDS) that are absolute URLs. */
const DERIVED_URLS = new Set(['url', 'mapsUrl']);
const WRAPPERS = new Set(['optional', 'default', 'nullable', 'prefault', 'readonly']);

/** The schema under optional/default wrappers, to compare it with the field kinds by identity. */
function unwrap(schema: z.ZodType): unknown {
  let current = schema as unknown as { _zod: { def: { type: string; innerType?: unknown } } };
  while (WRAPPERS.has(current._zod.def.type) && current._zod.def.innerType) current = current._zod.def.innerType as typeof current;
  return current;
}

const kindsCache = new WeakMap<CollectionDeclaration, ReadonlyMap<string, FieldKind>>();

/** Field → native kind, for the fields of a collection's records that arrive as Date or URL. */
export function nativeFields(c: CollectionDeclaration): ReadonlyMap<string, FieldKind> {
  let kinds = kindsCache.get(c);
  if (!kinds) {
    const found = new Map<string, FieldKind>();
    for (const [name, schema] of Object.entries(c.schema.shape)) {
      const inner = unwrap(schema as z.ZodType);
      if (DATE_KINDS.has(inner)) found.set(name, 'date');
      else if (URL_KINDS.has(inner)) found.set(name, 'url');
    }
    for (const name of c.derived ?? []) if (DERIVED_URLS.has(name)) found.set(name, 'url');
    kinds = found;
    kindsCache.set(c, kinds);
  }
  return kinds;
}

/** A published date or date-time as an instant: a date is midnight UTC; a local time is read as UTC. */
export function toDate(text: string): Date {
  // A date-only ISO form is read as UTC by ECMAScript itself (and twice as fast as the same text with T00:00:00Z).
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(text);
  return new Date(/(Z|[+-]\d{2}:\d{2})$/i.test(text) ? text : `${text}Z`);
}

function native(kind: FieldKind, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (kind === 'date') {
    const date = toDate(value);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  return URL.parse(value) ?? value;
}

/** One published record (its JSON text) with its date and URL fields as native values. */
export function nativeRecord(c: CollectionDeclaration, json: string): Record<string, unknown> {
  const record = JSON.parse(json) as Record<string, unknown>;
  for (const [name, kind] of nativeFields(c)) if (name in record) record[name] = native(kind, record[name]);
  return record;
}

/** A search hit with its link and date native (the date a Date even when invalid). */
export function searchHit(json: string): Record<string, unknown> {
  const hit = JSON.parse(json) as Record<string, unknown>;
  if (typeof hit.url === 'string' && URL.canParse(hit.url)) hit.url = new URL(hit.url);
  if (typeof hit.date === 'string') hit.date = toDate(hit.date);
  return hit;
}

/** A search hit's native fields, as `searchHit` makes them, for the pre-serialized wire form (src/rpc/wire.ts). */
export const SEARCH_HIT_KINDS: ReadonlyMap<string, WireKind> = new Map([
  ['url', 'url'],
  ['date', 'instant'],
]);

/** What any list says of a record, whatever its collection. */
export interface Item {
  canonicalId: string;
  collection: string;
  title: string;
  url: URL;
  date: Date | null;
}

/**
 * A record as an item: its one-line title, its link and the date of what happened, as
 * the feed and search say them (src/collections/headline.ts). Feed items and search hits
 * already are items.
 */
export function itemOf(collectionName: string, json: string, siteUrl: string): Item {
  const r = JSON.parse(json) as Record<string, unknown>;
  if (
    typeof r.collection === 'string' &&
    typeof r.title === 'string' &&
    typeof r.url === 'string' &&
    (collectionName === 'feed-items' || collectionName === 'search')
  ) {
    return {
      canonicalId: String(r.canonicalId),
      collection: r.collection,
      title: r.title,
      url: new URL(r.url),
      date: typeof r.date === 'string' ? toDate(r.date) : null,
    };
  }
  const happened = HAPPENED[collectionName]?.(r);
  return {
    canonicalId: String(r.canonicalId),
    collection: collectionName,
    title: headline(collectionName, r),
    url: new URL(linkOf(collectionName, r, siteUrl)),
    date: happened === undefined ? null : toDate(happened),
  };
}
