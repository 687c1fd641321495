/**
 * The KML placemark and the GPX waypoint are written as text (src/formats/kml.ts, gpx.ts),
 * for speed; this test holds them equal, byte for byte, to what xmlbuilder2 writes for the
 * same element in a pretty-printed document of the full one's shape (how they were
 * written before, kept here as the reference), over arbitrary items: hostile strings in
 * every field (entity-like text, markup, quotes, line ends, characters XML cannot carry),
 * empty strings (`<name/>`), altitudes, times, missing fields.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { create } from 'xmlbuilder2';
import { gpxWaypoint } from '../../src/formats/gpx.ts';
import { kmlPlacemark } from '../../src/formats/kml.ts';
import { detailUrl, placeLine, type LocatedItem } from '../../src/formats/located.ts';
import { xmlAttribute, xmlText } from '../../src/formats/xml-text.ts';

const KML_NS = 'http://www.opengis.net/kml/2.2';
const ATOM_NS = 'http://www.w3.org/2005/Atom';
const GPX_NS = 'http://www.topografix.com/GPX/1/1';
const styleId = (category: string) => `category-${category.replace(/[^a-z0-9-]/gi, '_')}`;

/** The lines of the element whose start tag begins with `open`, through its end tag at the same indentation. */
function elementLines(xml: string, open: string, close: string): string {
  const lines = xml.split('\n');
  const first = lines.findIndex((line) => line.trimStart().startsWith(open));
  const indent = lines[first]!.length - lines[first]!.trimStart().length;
  const last = lines.findIndex((line, i) => i > first && line === `${' '.repeat(indent)}${close}`);
  return lines.slice(first, last + 1).join('\n');
}

/** The placemark as xmlbuilder2 writes it. */
function referencePlacemark(item: LocatedItem, siteUrl: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(KML_NS, 'kml').att('xmlns:atom', ATOM_NS);
  const category = item.category ?? 'other';
  const placemark = doc.ele('Document').ele('Folder').ele('Placemark', { id: item.canonicalId });
  placemark.ele('name').txt(xmlText(item.name ?? item.title ?? item.canonicalId));
  placemark.ele(ATOM_NS, 'atom:link', { href: xmlAttribute(detailUrl(siteUrl, item)) });
  const line = placeLine(item);
  if (line) placemark.ele('address').txt(xmlText(line));
  if (item.notes) placemark.ele('description').txt(xmlText(item.notes));
  placemark.ele('styleUrl').txt(`#${styleId(category)}`);
  const data = placemark.ele('ExtendedData');
  const extended: Record<string, unknown> = {
    canonicalId: item.canonicalId,
    category,
    city: item.city,
    country: item.country,
    neighborhood: item.neighborhood,
    mapsUrl: item.mapsUrl,
    detailUrl: detailUrl(siteUrl, item),
    coordinatesSource: item.coordinatesSource,
    coordinatesLicense: item.coordinatesLicense,
  };
  for (const [name, value] of Object.entries(extended))
    if (value !== undefined)
      data
        .ele('Data', { name })
        .ele('value')
        .txt(xmlText(String(value)));
  const { longitude, latitude, altitude } = item.coordinates;
  const point = placemark.ele('Point');
  if (altitude !== undefined) point.ele('altitudeMode').txt('absolute');
  point.ele('coordinates').txt(altitude === undefined ? `${longitude},${latitude}` : `${longitude},${latitude},${altitude}`);
  return elementLines(doc.end({ prettyPrint: true }), '<Placemark ', '</Placemark>');
}

/** The waypoint as xmlbuilder2 writes it. */
function referenceWaypoint(item: LocatedItem, siteUrl: string): string {
  const gpx = create({ version: '1.0', encoding: 'UTF-8' }).ele(GPX_NS, 'gpx', { version: '1.1', creator: 'Collections' });
  const metadata = gpx.ele('metadata');
  metadata.ele('name').txt('');
  metadata
    .ele('link', { href: xmlAttribute(siteUrl) })
    .ele('text')
    .txt('Collections');
  metadata.ele('time').txt('');
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

const PIECES = [
  '&',
  '&amp;',
  '&lt;',
  '&nbsp;',
  '&#38;',
  '&#x26;',
  '&amp',
  '<',
  '>',
  ']]>',
  '"',
  "'",
  '\r',
  '\r\n',
  '\n',
  '\t',
  '\u0000',
  '\u0085',
  '\u2028',
  '\uFFFE',
  '\uD800',
  '\uDC00',
  '😀',
  'é',
  '',
];
const hostile = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 6 }).map((parts) => parts.join(''));
const optional = fc.option(hostile, { nil: undefined });
const coordinate = fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.integer({ min: -180, max: 180 }));

const items = fc
  .record({
    canonicalId: fc.oneof(
      fc.constant('plc_0000000000000000000000a1'),
      hostile.filter((s) => s.length > 0),
    ),
    name: optional,
    title: optional,
    category: optional,
    neighborhood: optional,
    address: optional,
    city: optional,
    country: optional,
    notes: optional,
    mapsUrl: optional,
    coordinatesSource: optional,
    coordinatesLicense: optional,
    takenAt: fc.option(fc.constantFrom('2024-05-01T10:00:00Z', '2024-05-01T10:00:00+02:00', '2024-05-01', '2024-05-01T10:00:00.5-03:30'), { nil: undefined }),
    latitude: coordinate,
    longitude: coordinate,
    altitude: fc.option(fc.oneof(fc.integer({ min: -500, max: 9000 }), fc.double({ noNaN: true, noDefaultInfinity: true })), { nil: undefined }),
  })
  .map(({ latitude, longitude, altitude, ...fields }) => {
    const item: Record<string, unknown> = {
      ...fields,
      collection: 'places',
      coordinates: altitude === undefined ? { latitude, longitude } : { latitude, longitude, altitude },
    };
    for (const key of Object.keys(item)) if (item[key] === undefined) delete item[key];
    return item as unknown as LocatedItem;
  });
const sites = fc.constantFrom('https://example.org', 'http://localhost:4321', 'https://example.org/a&b"<c>');

test('a KML placemark written as text is the bytes xmlbuilder2 writes for it', () => {
  fc.assert(
    fc.property(items, sites, (item, site) => assert.equal(kmlPlacemark(item, site).lines, referencePlacemark(item, site))),
    { numRuns: 500 },
  );
});

test('a GPX waypoint written as text is the bytes xmlbuilder2 writes for it', () => {
  fc.assert(
    fc.property(items, sites, (item, site) => assert.equal(gpxWaypoint(item, site), referenceWaypoint(item, site))),
    { numRuns: 500 },
  );
});
