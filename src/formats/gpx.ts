/**
 * GPX 1.1 waypoints for located items, the document written with xmlbuilder2 and each
 * waypoint as the text xmlbuilder2 would write for it, every text and
 * attribute value passed through xml-text.ts so a parser reads back the record's string
 * exactly. Each `wpt` carries, in
 * the schema's element order: elevation when recorded, name, desc (category and place),
 * a link to the detail page, and the category as `type`. `time` is written only for a
 * record with a full date-time (GPX times are instants; a visit date alone is not one).
 * Waypoints are rendered one by one and set into the document, so a whole-collection
 * export can reuse the waypoints of unchanged records.
 */

import { create } from 'xmlbuilder2';
import { fillSlotBytes, fillSlots } from './fragments.ts';
import { serializedAttribute, serializedText, textElement, xmlAttribute, xmlText } from './xml-text.ts';
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

/** Where the full document has a waypoint: gpx › wpt, two spaces a level. */
const WPT_INDENT = '  ';
/** A text element of a waypoint, its text given to `xmlText`. */
const line = (name: string, value: string) => textElement(`${WPT_INDENT}  `, name, serializedText(xmlText(value)));

/**
 * An item's `wpt` as the lines xmlbuilder2 writes for it in the pretty-printed full
 * document (written as text, as kml.ts writes placemarks; tests/unit/xml-writers.test.ts
 * holds the two equal).
 */
export function gpxWaypoint(item: LocatedItem, siteUrl: string): string {
  const { latitude, longitude, altitude } = item.coordinates;
  const out = [`${WPT_INDENT}<wpt lat="${serializedAttribute(String(latitude))}" lon="${serializedAttribute(String(longitude))}">`];
  if (altitude !== undefined) out.push(textElement(`${WPT_INDENT}  `, 'ele', serializedText(String(altitude))));
  const time = (item as { takenAt?: unknown }).takenAt;
  if (typeof time === 'string' && /T.*(Z|[+-]\d{2}:\d{2})$/.test(time))
    out.push(textElement(`${WPT_INDENT}  `, 'time', serializedText(new Date(time).toISOString())));
  out.push(line('name', item.name ?? item.title ?? item.canonicalId), line('desc', [item.category, placeLine(item)].filter(Boolean).join(' · ')));
  out.push(
    `${WPT_INDENT}  <link href="${serializedAttribute(xmlAttribute(detailUrl(siteUrl, item)))}">`,
    `${WPT_INDENT}    <text>Details</text>`,
    `${WPT_INDENT}  </link>`,
  );
  if (item.category) out.push(line('type', item.category));
  out.push(`${WPT_INDENT}</wpt>`);
  return out.join('\n');
}

/** The document without its waypoints: its metadata, and the slot they go in. */
function shell(title: string, siteUrl: string, asOf: string): string {
  const gpx = root(title, siteUrl, asOf);
  gpx.ele(SLOT).txt('0');
  return gpx.end({ prettyPrint: true });
}

/** The document: its metadata, then the waypoints' lines (gpxWaypoint) in the order given. */
export function gpxDocument(title: string, siteUrl: string, asOf: string, waypoints: readonly string[]): string {
  return fillSlots(shell(title, siteUrl, asOf), SLOT, () => waypoints);
}

/** `gpxDocument` with each waypoint's lines as UTF-8 bytes (a whole-collection export's kept fragments). */
export function gpxBytes(title: string, siteUrl: string, asOf: string, waypoints: readonly Uint8Array[]): Buffer {
  return fillSlotBytes(shell(title, siteUrl, asOf), SLOT, () => waypoints);
}

export function renderGpx(title: string, items: readonly LocatedItem[], siteUrl: string, asOf: string): string {
  return gpxDocument(
    title,
    siteUrl,
    asOf,
    items.map((item) => gpxWaypoint(item, siteUrl)),
  );
}
