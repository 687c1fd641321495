/**
 * GPX 1.1 waypoints for located items, written with xmlbuilder2, every text and
 * attribute value passed through xml-text.ts so a parser reads back the record's string
 * exactly. Each `wpt` carries, in
 * the schema's element order: elevation when recorded, name, desc (category and place),
 * a link to the detail page, and the category as `type`. `time` is written only for a
 * record with a full date-time (GPX times are instants; a visit date alone is not one).
 * Waypoints are rendered one by one and set into the document, so a whole-collection
 * export can reuse the waypoints of unchanged records.
 */

import { create } from 'xmlbuilder2';
import { elementLines, fillSlots } from './fragments.ts';
import { xmlAttribute, xmlText } from './xml-text.ts';
import type { LocatedItem } from './located.ts';
import { detailUrl, placeLine } from './located.ts';

type XMLBuilder = ReturnType<typeof create>;

const GPX_NS = 'http://www.topografix.com/GPX/1/1';
/** Where the shell document takes the waypoints; never a GPX element. */
const SLOT = 'collections-slot';

function root(title: string, siteUrl: string, asOf: string): XMLBuilder {
  const gpx = create({ version: '1.0', encoding: 'UTF-8' }).ele(GPX_NS, 'gpx', { version: '1.1', creator: 'Collections' });
  const metadata = gpx.ele('metadata');
  metadata.ele('name').txt(xmlText(title));
  metadata
    .ele('link', { href: xmlAttribute(siteUrl) })
    .ele('text')
    .txt('Collections');
  metadata.ele('time').txt(asOf);
  return gpx;
}

/** An item's `wpt` as the lines the full document has for it (rendered in a document of the same shape). */
export function gpxWaypoint(item: LocatedItem, siteUrl: string): string {
  const gpx = root('', siteUrl, '');
  const { latitude, longitude, altitude } = item.coordinates;
  const wpt = gpx.ele('wpt', { lat: String(latitude), lon: String(longitude) });
  if (altitude !== undefined) wpt.ele('ele').txt(String(altitude));
  const time = (item as { takenAt?: unknown }).takenAt;
  if (typeof time === 'string' && /T.*(Z|[+-]\d{2}:\d{2})$/.test(time)) wpt.ele('time').txt(new Date(time).toISOString());
  wpt.ele('name').txt(xmlText(item.name ?? item.title ?? item.canonicalId));
  wpt.ele('desc').txt(xmlText([item.category, placeLine(item)].filter(Boolean).join(' · ')));
  wpt
    .ele('link', { href: xmlAttribute(detailUrl(siteUrl, item)) })
    .ele('text')
    .txt('Details');
  if (item.category) wpt.ele('type').txt(xmlText(item.category));
  return elementLines(gpx.end({ prettyPrint: true }), '<wpt ', '</wpt>');
}

/** The document: its metadata, then the waypoints' lines (gpxWaypoint) in the order given. */
export function gpxDocument(title: string, siteUrl: string, asOf: string, waypoints: readonly string[]): string {
  const gpx = root(title, siteUrl, asOf);
  gpx.ele(SLOT).txt('0');
  return fillSlots(gpx.end({ prettyPrint: true }), SLOT, () => waypoints.join('\n'));
}

export function renderGpx(title: string, items: readonly LocatedItem[], siteUrl: string, asOf: string): string {
  return gpxDocument(
    title,
    siteUrl,
    asOf,
    items.map((item) => gpxWaypoint(item, siteUrl)),
  );
}
