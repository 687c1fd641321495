/**
 * KML 2.2 for located items, written with xmlbuilder2 (a maintained XML writer), every
 * text and attribute value passed through xml-text.ts so a parser reads back the
 * record's string exactly (xmlbuilder2 alone leaves `&amp;` as it is). Placemarks are
 * grouped in one Folder per category, each category with its own Style; every Placemark
 * carries its canonicalId as `id`, name, address text, an atom:link to its detail page
 * and the rest as ExtendedData. Element order follows the OGC schema (Feature: name,
 * atom:link, address, description, styleUrl, ExtendedData, then the geometry), and
 * altitude is kept with `altitudeMode absolute` where recorded. Placemarks are rendered
 * one by one and set into the document's folders, so a whole-collection export can reuse
 * the placemarks of unchanged records.
 */
import { create } from 'xmlbuilder2';
import { elementLines, fillSlots } from './fragments.ts';
import { xmlAttribute, xmlText } from './xml-text.ts';
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

type XMLBuilder = ReturnType<typeof create>;

const KML_NS = 'http://www.opengis.net/kml/2.2';
const ATOM_NS = 'http://www.w3.org/2005/Atom';
/** Where a shell document takes a folder's placemarks; never a KML element. */
const SLOT = 'collections-slot';

function root(): XMLBuilder {
  return create({ version: '1.0', encoding: 'UTF-8' }).ele(KML_NS, 'kml').att('xmlns:atom', ATOM_NS);
}

function addPlacemark(folder: XMLBuilder, item: LocatedItem, category: string, siteUrl: string): void {
  const placemark = folder.ele('Placemark', { id: item.canonicalId });
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
}

/** A placemark as the full document has it: its lines, and the category folder it goes in. */
export interface KmlPlacemark {
  category: string;
  lines: string;
}

/** An item's Placemark (rendered in a document of the full one's shape, so its lines are the full document's). */
export function kmlPlacemark(item: LocatedItem, siteUrl: string): KmlPlacemark {
  const doc = root();
  const category = item.category ?? 'other';
  addPlacemark(doc.ele('Document').ele('Folder'), item, category, siteUrl);
  return { category, lines: elementLines(doc.end({ prettyPrint: true }), '<Placemark ', '</Placemark>') };
}

/** The document: its title, a Style and a Folder per category (sorted), each folder's placemarks in the order given. */
export function kmlDocument(title: string, placemarks: readonly KmlPlacemark[]): string {
  const doc = root();
  const document = doc.ele('Document');
  document.ele('name').txt(xmlText(title));
  const groups = new Map<string, string[]>();
  for (const { category, lines } of placemarks) {
    const group = groups.get(category);
    if (group) group.push(lines);
    else groups.set(category, [lines]);
  }
  const categories = [...groups.keys()].sort();
  for (const category of categories) {
    document
      .ele('Style', { id: styleId(category) })
      .ele('IconStyle')
      .ele('color')
      .txt(COLORS[category] ?? COLORS.other!);
  }
  categories.forEach((category, i) => {
    const folder = document.ele('Folder');
    folder.ele('name').txt(xmlText(category));
    folder.ele(SLOT).txt(String(i));
  });
  return fillSlots(doc.end({ prettyPrint: true }), SLOT, (i) => groups.get(categories[i]!)!.join('\n'));
}

export function renderKml(title: string, items: readonly LocatedItem[], siteUrl: string): string {
  return kmlDocument(
    title,
    items.map((item) => kmlPlacemark(item, siteUrl)),
  );
}
