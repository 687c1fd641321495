/**
 * The registry of list serializers. Each says which media type it writes and for which
 * collections; negotiation picks among those that can render the collection, in this
 * order of preference, and the chosen one renders the page the core returned (renderers
 * never query).
 */
import { UNPUBLISHED, type CollectionDeclaration } from '../collections/define.ts';
import type { Query } from '../core/params.ts';
import type { JoinedPage, Page } from '../core/query.ts';
import { renderCsv } from './csv.ts';
import { renderGeoJson } from './geojson.ts';
import { renderGpx } from './gpx.ts';
import { renderJson, renderJsonJoined, type PageLinks } from './json.ts';
import { renderKml } from './kml.ts';
import { located } from './located.ts';

export interface Serializer {
  mediaType: string;
  /** The Content-Type sent, when it carries parameters. */
  contentType: string;
  canRender(collection: CollectionDeclaration): boolean;
  render(query: Query, page: Page, links: PageLinks, site: SiteContext): string;
  /** The same bytes from a page whose items are joined already, for a format that splices items in as stored. */
  renderJoined?(query: Query, page: JoinedPage, links: PageLinks): Buffer;
}

/** What renderers know of the site: its absolute URL, for formats whose links must be absolute. */
export interface SiteContext {
  url: string;
}

/** Collections whose records are places on a map. */
const LOCATED = new Set(['places', 'photos']);
/** Collections that are sets of places, for the map-only formats. */
const PLACES = new Set(['places']);

const parsed = (page: Page) => page.items.map((item) => JSON.parse(item) as Record<string, unknown>);

/** CSV columns: canonicalId, the schema's published fields, then derived ones. */
export function csvColumns(collection: CollectionDeclaration): string[] {
  return ['canonicalId', ...Object.keys(collection.schema.shape).filter((f) => !UNPUBLISHED.has(f)), ...(collection.derived ?? [])];
}

export const serializers: readonly Serializer[] = [
  { mediaType: 'application/json', contentType: 'application/json', canRender: () => true, render: renderJson, renderJoined: renderJsonJoined },
  {
    mediaType: 'text/csv',
    contentType: 'text/csv; charset=utf-8; header=present',
    canRender: () => true,
    render: (query, page) => renderCsv(csvColumns(query.collection), parsed(page)),
  },
  {
    mediaType: 'application/geo+json',
    contentType: 'application/geo+json',
    canRender: (c) => LOCATED.has(c.name),
    render: (query, page, links, site) =>
      renderGeoJson(parsed(page), site.url, query.collection.name, { totalCount: page.totalCount, pageSize: query.limit, timestamp: page.asOf, links }),
  },
  {
    mediaType: 'application/vnd.google-earth.kml+xml',
    contentType: 'application/vnd.google-earth.kml+xml; charset=utf-8',
    canRender: (c) => PLACES.has(c.name),
    render: (query, page, _links, site) => renderKml(query.collection.title, located(query.collection.name, parsed(page)), site.url),
  },
  {
    mediaType: 'application/gpx+xml',
    contentType: 'application/gpx+xml; charset=utf-8',
    canRender: (c) => PLACES.has(c.name),
    render: (query, page, _links, site) => renderGpx(query.collection.title, located(query.collection.name, parsed(page)), site.url, page.asOf),
  },
];

export function serializersFor(collection: CollectionDeclaration): Serializer[] {
  return serializers.filter((s) => s.canRender(collection));
}
