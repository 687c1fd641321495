/**
 * The whole-collection exports: every place as GeoJSON, KML and GPX, rendered by the
 * same serializers that answer `Accept` on `/api/places.json`, over every record in the
 * collection's default order, and the calendar feeds of concerts and sporting events.
 * A map export whose collection has located records without provenance is not written
 * at all (the runtime answers 503 for it): never a silently partial file.
 */
import { collection } from '../../collections/index.ts';
import { parseQuery } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import type { QueryCore } from '../../core/query.ts';
import { FragmentStore } from '../../formats/fragments.ts';
import { geoJsonCollectionBytes, geoJsonFeature } from '../../formats/geojson.ts';
import { gpxBytes, gpxWaypoint } from '../../formats/gpx.ts';
import { CALENDAR_MEDIA_TYPE, calendarBytes, calendarEvent, type CalendarEvent } from '../../formats/ical.ts';
import { serializers } from '../../formats/index.ts';
import { kmlBytes, kmlPlacemark, type KmlPlacemark } from '../../formats/kml.ts';
import { located, type LocatedItem } from '../../formats/located.ts';
import type { Document } from './document.ts';
import type { RecordOrders } from './record-order.ts';
import { CALENDARS, EXPORTS } from '../../urls.ts';

/** The rendering of one export's items, given their JSON texts (in order) and the fragments remembered so far. */
type ExportRender = (query: Query, texts: readonly string[], asOf: string, siteUrl: string, fragments: FragmentStore) => Buffer;

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** A published record's canonicalId, read off its JSON text (canonicalId is its first field) without parsing the rest. */
const idOf = (text: string) => /^\{"canonicalId":"([^"]+)"/.exec(text)?.[1] ?? String(parse(text).canonicalId);

/**
 * Each whole-collection export, assembled from per-record fragments made by the functions
 * the REST serializers use. The fragments are kept as UTF-8 bytes, and a document is
 * assembled by copying them: at a million records, joining them into one string and
 * encoding it took five times as long (src/formats/fragments.ts `fillSlotBytes`).
 */
const EXPORT_RENDERS: Record<string, ExportRender> = {
  'application/geo+json': (query, texts, asOf, siteUrl, store) => {
    const name = query.collection.name;
    const fragments = store.of(`geojson ${name} ${siteUrl}`);
    const features = texts.map((text) => fragments.get(idOf(text), text, () => Buffer.from(geoJsonFeature(parse(text), siteUrl, name))));
    const path = exportPath(query);
    return geoJsonCollectionBytes(features, { totalCount: texts.length, pageSize: texts.length, timestamp: asOf, links: { self: path, first: path } });
  },
  'application/vnd.google-earth.kml+xml': (query, texts, _asOf, siteUrl, store) => {
    const name = query.collection.name;
    const fragments = store.of(`kml ${name} ${siteUrl}`);
    const placemarks = texts.map((text) => fragments.get(idOf(text), text, () => locatedOne(name, text, (item) => bytesOf(kmlPlacemark(item, siteUrl)))));
    return kmlBytes(
      query.collection.title,
      placemarks.filter((p) => p !== null),
    );
  },
  'application/gpx+xml': (query, texts, asOf, siteUrl, store) => {
    const name = query.collection.name;
    const fragments = store.of(`gpx ${name} ${siteUrl}`);
    const waypoints = texts.map((text) => fragments.get(idOf(text), text, () => locatedOne(name, text, (item) => Buffer.from(gpxWaypoint(item, siteUrl)))));
    return gpxBytes(
      query.collection.title,
      siteUrl,
      asOf,
      waypoints.filter((w) => w !== null),
    );
  },
};

/** A placemark with its lines as UTF-8 bytes. */
const bytesOf = (placemark: KmlPlacemark) => ({ category: placemark.category, lines: Buffer.from(placemark.lines) });

/** A located record's fragment; null for a record without coordinates (maps leave it out). */
function locatedOne<T>(name: string, text: string, render: (item: LocatedItem) => T): T | null {
  const [item] = located(name, [parse(text)]);
  return item === undefined ? null : render(item);
}

const exportPath = (query: Query) => EXPORTS.find((e) => e.collection === query.collection.name)!.path;

/** Every record of a collection in its default order: kept across rebuilds when `orders` is given (record-order.ts), else read whole. */
const textsOf = (core: QueryCore, name: string, orders: RecordOrders | undefined): readonly string[] =>
  orders ? orders.texts(core, name) : [...core.all(parseQuery(collection(name)!, new URLSearchParams()))];

/**
 * The exports, from every record in the collection's default order. `fragments` keeps
 * each record's feature, placemark and waypoint for the next render (a rebuild under a
 * running server passes the same store each time); a fresh store renders everything.
 * `orders` keeps the records themselves, so a rebuild reads only the changed ones.
 */
export function exportDocuments(core: QueryCore, fragments: FragmentStore = new FragmentStore(), orders?: RecordOrders): Document[] {
  // Each collection's records are read once for all of its formats.
  const read = new Map<string, readonly string[]>();
  return EXPORTS.filter((spec) => core.image.provenanceComplete(spec.collection)).map((spec) => {
    const declaration = collection(spec.collection)!;
    const serializer = serializers.find((s) => s.mediaType === spec.mediaType)!;
    const query = parseQuery(declaration, new URLSearchParams());
    let texts = read.get(spec.collection);
    if (!texts) {
      texts = textsOf(core, spec.collection, orders);
      read.set(spec.collection, texts);
    }
    const asOf = core.image.asOf(spec.collection);
    const body = EXPORT_RENDERS[spec.mediaType]!({ ...query, limit: texts.length }, texts, asOf, core.image.siteUrl, fragments);
    return { path: spec.path, file: spec.path.slice(1), contentType: serializer.contentType, body, lastModified: core.image.lastModified(spec.collection) };
  });
}

/** The calendars; `fragments` keeps each record's event for the next render, and `orders` the records, as for the exports. */
export function calendarDocuments(core: QueryCore, fragments: FragmentStore = new FragmentStore(), orders?: RecordOrders): Document[] {
  const siteUrl = core.image.siteUrl;
  const kept = fragments.of(`ics ${siteUrl}`);
  const events = new Map<string, CalendarEvent[]>();
  for (const name of ['concerts', 'sporting-events'] as const) {
    const texts = textsOf(core, name, orders);
    events.set(
      name,
      texts.map((text) => kept.get(`${name} ${idOf(text)}`, text, () => calendarEvent({ collection: name, fields: parse(text) }, siteUrl))),
    );
  }
  return CALENDARS.map((spec) => {
    const body = calendarBytes(
      { name: spec.name, description: spec.description, siteUrl },
      spec.collections.flatMap((c) => events.get(c)!),
    );
    const lastModified =
      spec.collections
        .map((c) => core.image.lastModified(c) ?? '')
        .sort()
        .at(-1) || undefined;
    return { path: spec.path, file: spec.path.slice(1), contentType: CALENDAR_MEDIA_TYPE, body, lastModified };
  });
}
