/**
 * What a collection page shows, computed once from one query and handed to both of its
 * renderers (the Astro page for people, `markdown.ts` for agents), so the HTML page and
 * its Markdown twin cannot list different records. The query is the one `/api/<name>.json`
 * parses from the same query string (src/core/params.ts), run by the same core: the page
 * lists the REST list's canonical IDs in the REST list's order. Links keep the query's
 * canonical form (defaults left out); the next page is the REST cursor.
 */
import { firstRecordHint, type FirstRecordHint } from './first-record.ts';
import { blogPath } from '../collections/blog.ts';
import { facetable, type CollectionDeclaration } from '../collections/define.ts';
import { HAPPENED, headline } from '../collections/headline.ts';
import { restCollections } from '../collections/index.ts';
import { canonicalSearch, parseQuery, type Query } from '../core/params.ts';
import { fold } from '../core/fold.ts';
import { LIMITS } from '../core/limits.ts';
import type { QueryCore } from '../core/query.ts';
import { collectionPageUrl, collectionUrl, recordUrl } from '../urls.ts';
import { formatDate, humanize } from './format.ts';
import { pictureOf, type MediaLookup, type PictureView } from './media.ts';

/** Collections with a page at `/<name>/`: every list but the composed feed (the home page shows it) and the blog (its index is `/blog/`). */
export const pageCollections: readonly CollectionDeclaration[] = restCollections.filter((c) => c.name !== 'feed-items' && c.name !== 'blog');

export const pageCollection = (name: string) => pageCollections.find((c) => c.name === name);

export interface ItemView {
  canonicalId: string;
  title: string;
  href: string;
  /** The date of the record (what happened, or its source date), as an ISO string and for people. */
  date?: { iso: string; text: string };
  /** A short line of the record's filterable values (type, year, genres…). */
  detail: string;
  /** The record's image as a thumbnail, when the list shows images and the site publishes the file. */
  picture?: PictureView;
}

export interface LinkView {
  label: string;
  href: string;
  active: boolean;
  count?: number;
}

export interface FacetView {
  param: string;
  label: string;
  values: LinkView[];
}

export interface CollectionView {
  name: string;
  title: string;
  description: string;
  /** The page's path with its canonical query string. */
  path: string;
  /** The same list as JSON. */
  apiPath: string;
  items: ItemView[];
  totalCount: number;
  /** The query's filters and search, each with the link that removes it. */
  applied: LinkView[];
  q: string | undefined;
  facets: FacetView[];
  sorts: LinkView[];
  /** Page sizes (`limit`), each from the first page. */
  sizes: LinkView[];
  /** The first page of the same query, when this page is a later one. */
  first: string | undefined;
  next: string | undefined;
  /** How to add the first record, when the collection has none at all (not merely none matching). */
  empty?: FirstRecordHint;
}

/** A record's page, or the piece itself for blog posts and writing. */
export function itemHref(collection: string, r: Record<string, unknown>): string {
  if (collection === 'blog' && typeof r.slug === 'string') return blogPath(r.slug);
  if (collection === 'writing' && typeof r.url === 'string') return r.url;
  return recordUrl(collection, String(r.canonicalId));
}

/** The fields a list row's detail line shows, once per collection: each facet's field, once, in the facets' order. */
const detailFieldsByCollection = new Map<string, readonly string[]>();
function detailFields(c: CollectionDeclaration): readonly string[] {
  let fields = detailFieldsByCollection.get(c.name);
  if (fields === undefined) {
    fields = [...new Set(facetable(c).map((param) => c.filters[param]!.field))];
    detailFieldsByCollection.set(c.name, fields);
  }
  return fields;
}

/** Up to 5 of the record's filterable values, at most 3 of each field, joined (a row is built per listed record: no array per field). */
function detailOf(c: CollectionDeclaration, r: Record<string, unknown>): string {
  const shown: string[] = [];
  for (const field of detailFields(c)) {
    const v = r[field];
    if (Array.isArray(v)) for (let i = 0; i < v.length && i < 3; i++) shown.push(String(v[i]));
    else if (v !== undefined && v !== null && v !== '') shown.push(String(v));
    if (shown.length >= 5) break;
  }
  return (shown.length > 5 ? shown.slice(0, 5) : shown).join(' · ');
}

/** One list row of a record; with `media`, its image too. */
export function itemView(c: CollectionDeclaration, r: Record<string, unknown>, media?: MediaLookup): ItemView {
  const picture = media === undefined ? undefined : pictureOf(c.name, r, media);
  const when = HAPPENED[c.name]?.(r) ?? (typeof r[c.dateField] === 'string' ? String(r[c.dateField]) : undefined);
  const canonicalId = String(r.canonicalId);
  const title = headline(c.name, r);
  const href = itemHref(c.name, r);
  const detail = detailOf(c, r);
  const view: ItemView = when
    ? { canonicalId, title, href, date: { iso: when, text: formatDate(when, typeof r.timezone === 'string' ? r.timezone : undefined) }, detail }
    : { canonicalId, title, href, detail };
  if (picture) view.picture = picture;
  return view;
}

/** The page's link with `search` (the query's canonical form from the first page) changed by `change`. */
function linkTo(name: string, search: string, change: (params: URLSearchParams) => void): string {
  const params = new URLSearchParams(search);
  change(params);
  const text = params.toString();
  return `${collectionPageUrl(name)}${text ? `?${text}` : ''}`;
}

/** The page sizes offered as links: the REST list's default and maximum among them. */
const PAGE_SIZES = [10, 25, LIMITS.pageSizeDefault, LIMITS.pageSizeMax];

const sortText = (query: Query) => query.sort.map((k) => `${k.field}:${k.direction}`).join(',');

/** The view of one page of a collection for a validated query. */
export function collectionView(core: QueryCore, query: Query): CollectionView {
  const c = query.collection;
  const page = core.run({ ...query, facets: true });
  const plain = { ...query, facets: false };
  // The query's canonical form, from the first page: every link starts from it.
  const fromFirst = canonicalSearch(plain);
  const link = (change: (params: URLSearchParams) => void) => linkTo(c.name, fromFirst, change);
  const here = canonicalSearch(plain, query.cursor);
  const items = page.items.map((json) => itemView(c, JSON.parse(json) as Record<string, unknown>, (src) => core.image.media(src)));
  const applied: LinkView[] = query.filters.flatMap((f) =>
    f.values.map((value) => ({
      label: `${humanize(f.param)}: ${value}`,
      active: true,
      href: link((p) => {
        const rest = p.getAll(f.param).filter((v) => v !== value);
        p.delete(f.param);
        for (const v of rest) p.append(f.param, v);
      }),
    })),
  );
  if (query.q) applied.push({ label: `Search: ${query.q.value}`, active: true, href: link((p) => p.delete('q')) });
  const facets: FacetView[] = Object.entries(page.facets ?? {})
    .filter(([, counted]) => counted.length > 0)
    .map(([param, counted]) => {
      // Compared folded, as the filter matches: `?sportType=run` selects the facet value Run.
      const chosen = new Set(query.filters.find((f) => f.param === param)?.keys ?? []);
      return {
        param,
        label: humanize(param),
        values: counted.map(({ value, count }) => ({
          label: value,
          count,
          active: chosen.has(fold(value)),
          href: link((p) => (chosen.has(fold(value)) ? p.delete(param) : p.set(param, value))),
        })),
      };
    });
  const current = sortText(query);
  const sorts: LinkView[] = Object.keys(c.sort).flatMap((field) =>
    (['desc', 'asc'] as const).map((direction) => {
      const sort = `${field}:${direction}`;
      const isDefault = c.defaultSort.length === 1 && c.defaultSort[0]!.field === field && c.defaultSort[0]!.direction === direction;
      return {
        label: `${humanize(field)} ${direction === 'asc' ? '↑' : '↓'}`,
        active: current === sort,
        href: link((p) => (isDefault ? p.delete('sort') : p.set('sort', sort))),
      };
    }),
  );
  const sizes: LinkView[] = PAGE_SIZES.map((size) => ({
    label: String(size),
    active: query.limit === size,
    href: link((p) => (size === LIMITS.pageSizeDefault ? p.delete('limit') : p.set('limit', String(size)))),
  }));
  const path = `${collectionPageUrl(c.name)}${here}`;
  return {
    name: c.name,
    title: c.title,
    description: c.description,
    path,
    apiPath: `${collectionUrl(c.name)}${here}`,
    items,
    totalCount: page.totalCount,
    applied,
    q: query.q?.value,
    facets,
    sorts,
    sizes,
    first: query.cursor === undefined ? undefined : `${collectionPageUrl(c.name)}${fromFirst}`,
    next: page.next === undefined ? undefined : `${collectionPageUrl(c.name)}${canonicalSearch(plain, page.next)}`,
    ...(core.image.count(c.name) === 0 && !c.compose ? { empty: firstRecordHint(c.name) } : {}),
  };
}

/** Page one of a collection: what its prerendered page and twin show. */
export const firstPageView = (core: QueryCore, c: CollectionDeclaration) => collectionView(core, parseQuery(c, new URLSearchParams()));
