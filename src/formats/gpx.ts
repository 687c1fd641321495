/**
 * GPX 1.1 waypoints for located items, written with xmlbuilder2. Each `wpt` carries, in
 * the schema's element order: elevation when recorded, name, desc (category and place),
 * a link to the detail page, and the category as `type`. `time` is written only for a
 * record with a full date-time (GPX times are instants; a visit date alone is not one).
 */
import { create } from 'xmlbuilder2';
import type { LocatedItem } from './located.ts';
import { detailUrl, placeLine } from './located.ts';

export function renderGpx(title: string, items: readonly LocatedItem[], siteUrl: string, asOf: string): string {
  const gpx = create({ version: '1.0', encoding: 'UTF-8' }).ele('http://www.topografix.com/GPX/1/1', 'gpx', { version: '1.1', creator: 'Collections' });
  const metadata = gpx.ele('metadata');
  metadata.ele('name').txt(title);
  metadata.ele('link', { href: siteUrl }).ele('text').txt('Collections');
  metadata.ele('time').txt(asOf);
  for (const item of items) {
    const { latitude, longitude, altitude } = item.coordinates;
    const wpt = gpx.ele('wpt', { lat: String(latitude), lon: String(longitude) });
    if (altitude !== undefined) wpt.ele('ele').txt(String(altitude));
    const time = (item as { takenAt?: unknown }).takenAt;
    if (typeof time === 'string' && /T.*(Z|[+-]\d{2}:\d{2})$/.test(time)) wpt.ele('time').txt(new Date(time).toISOString());
    wpt.ele('name').txt(item.name ?? item.title ?? item.canonicalId);
    wpt.ele('desc').txt([item.category, placeLine(item)].filter(Boolean).join(' · '));
    wpt.ele('link', { href: detailUrl(siteUrl, item) }).ele('text').txt('Details');
    if (item.category) wpt.ele('type').txt(item.category);
  }
  return gpx.end({ prettyPrint: true });
}
