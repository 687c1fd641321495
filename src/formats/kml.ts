/**
 * KML 2.2 for located items, written with xmlbuilder2 (a maintained XML writer that
 * escapes for us). Placemarks are grouped in one Folder per category, each category with
 * its own Style; every Placemark carries its canonicalId as `id`, name, address text, an
 * atom:link to its detail page and the rest as ExtendedData. Element order follows the
 * OGC schema (Feature: name, atom:link, address, description, styleUrl, ExtendedData,
 * then the geometry), and altitude is kept with `altitudeMode absolute` where recorded.
 */
import { create } from 'xmlbuilder2';
import type { LocatedItem } from './located.ts';
import { detailUrl, placeLine } from './located.ts';

/** KML colours are aabbggrr; one per place category, anything else grey. */
const COLORS: Record<string, string> = {
  food: 'ff2f6fe0',
  coffee: 'ff2b5a8a',
  bars: 'ffb0309c',
  nature: 'ff3c9c3c',
  entertainment: 'ff1fa5e8',
  lodging: 'ffb07a2c',
  other: 'ff8a8a8a',
};
const styleId = (category: string) => `category-${category.replace(/[^a-z0-9-]/gi, '_')}`;

export function renderKml(title: string, items: readonly LocatedItem[], siteUrl: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele('http://www.opengis.net/kml/2.2', 'kml').att('xmlns:atom', 'http://www.w3.org/2005/Atom');
  const document = doc.ele('Document');
  document.ele('name').txt(title);
  const groups = new Map<string, LocatedItem[]>();
  for (const item of items) {
    const category = item.category ?? 'other';
    groups.set(category, [...(groups.get(category) ?? []), item]);
  }
  const categories = [...groups.keys()].sort();
  for (const category of categories) {
    document.ele('Style', { id: styleId(category) }).ele('IconStyle').ele('color').txt(COLORS[category] ?? COLORS.other!);
  }
  for (const category of categories) {
    const folder = document.ele('Folder');
    folder.ele('name').txt(category);
    for (const item of groups.get(category)!) {
      const placemark = folder.ele('Placemark', { id: item.canonicalId });
      placemark.ele('name').txt(item.name ?? item.title ?? item.canonicalId);
      placemark.ele('http://www.w3.org/2005/Atom', 'atom:link', { href: detailUrl(siteUrl, item) });
      const line = placeLine(item);
      if (line) placemark.ele('address').txt(line);
      if (item.notes) placemark.ele('description').txt(item.notes);
      placemark.ele('styleUrl').txt(`#${styleId(category)}`);
      const data = placemark.ele('ExtendedData');
      const extended: Record<string, unknown> = { canonicalId: item.canonicalId, category, city: item.city, country: item.country, neighborhood: item.neighborhood, mapsUrl: item.mapsUrl, detailUrl: detailUrl(siteUrl, item), coordinatesSource: item.coordinatesSource, coordinatesLicense: item.coordinatesLicense };
      for (const [name, value] of Object.entries(extended)) if (value !== undefined) data.ele('Data', { name }).ele('value').txt(String(value));
      const { longitude, latitude, altitude } = item.coordinates;
      const point = placemark.ele('Point');
      if (altitude !== undefined) point.ele('altitudeMode').txt('absolute');
      point.ele('coordinates').txt(altitude === undefined ? `${longitude},${latitude}` : `${longitude},${latitude},${altitude}`);
    }
  }
  return doc.end({ prettyPrint: true });
}
