/**
 * The whole-collection exports: every place as GeoJSON, KML and GPX, rendered by the
 * same serializers that answer `Accept` on `/api/places.json`, over every record in the
 * collection's default order, and the calendar feeds of concerts and sporting events.
 * A map export whose collection has located records without provenance is not written
 * at all (the runtime answers 503 for it): never a silently partial file.
 */
import { collection } from '../collections/index.ts';
import { parseQuery } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { renderCalendar, type CalendarItem } from '../formats/ical.ts';
import { serializers } from '../formats/index.ts';
import type { Document } from './documents.ts';

export interface ExportSpec {
  path: string;
  collection: string;
  mediaType: string;
}

export const EXPORTS: readonly ExportSpec[] = [
  { path: '/places.geojson', collection: 'places', mediaType: 'application/geo+json' },
  { path: '/places.kml', collection: 'places', mediaType: 'application/vnd.google-earth.kml+xml' },
  { path: '/places.gpx', collection: 'places', mediaType: 'application/gpx+xml' },
];

export const exportAt = (path: string) => EXPORTS.find((e) => e.path === path);

export function exportDocuments(core: QueryCore): Document[] {
  return EXPORTS.filter((spec) => core.image.provenanceComplete(spec.collection)).map((spec) => {
    const declaration = collection(spec.collection)!;
    const serializer = serializers.find((s) => s.mediaType === spec.mediaType)!;
    const query = parseQuery(declaration, new URLSearchParams());
    const items = [...core.all(query)];
    const asOf = core.image.asOf(spec.collection);
    const page = { items, canonicalIds: [], totalCount: items.length, next: undefined, facets: undefined, asOf };
    const body = serializer.render({ ...query, limit: items.length }, page, { self: spec.path, first: spec.path }, { url: core.image.siteUrl });
    return { path: spec.path, file: spec.path.slice(1), contentType: serializer.contentType, body, asOf };
  });
}

export interface CalendarSpec {
  path: string;
  name: string;
  description: string;
  collections: readonly CalendarItem['collection'][];
}

export const CALENDARS: readonly CalendarSpec[] = [
  { path: '/calendar.ics', name: 'Concerts and sporting events', description: 'Every concert and sporting event in the collections.', collections: ['concerts', 'sporting-events'] },
  { path: '/concerts.ics', name: 'Concerts', description: 'Every concert in the collections.', collections: ['concerts'] },
  { path: '/sports.ics', name: 'Sporting events', description: 'Every sporting event in the collections.', collections: ['sporting-events'] },
];

export const CALENDAR_MEDIA_TYPE = 'text/calendar; charset=utf-8';

export function calendarDocuments(core: QueryCore): Document[] {
  const items = new Map<string, CalendarItem[]>();
  for (const name of ['concerts', 'sporting-events'] as const) {
    items.set(name, core.records(collection(name)!).map((fields) => ({ collection: name, fields })));
  }
  return CALENDARS.map((spec) => {
    const body = renderCalendar({ name: spec.name, description: spec.description, siteUrl: core.image.siteUrl, items: spec.collections.flatMap((c) => items.get(c)!) });
    const asOf = spec.collections.map((c) => core.image.asOf(c)).sort().at(-1)!;
    return { path: spec.path, file: spec.path.slice(1), contentType: CALENDAR_MEDIA_TYPE, body, asOf };
  });
}
