/**
 * KML 2.2 for located items, the document written with xmlbuilder2 (a maintained XML
 * writer) and each placemark as the text xmlbuilder2 would write for it, every
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
import { fillSlotBytes, fillSlots } from './fragments.ts';
import { serializedAttribute, serializedText, textElement, xmlAttribute, xmlText } from './xml-text.ts';
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
/** The prefix placemarks' links are written with, declared on the document's root. */
const ATOM_NS = 'http://www.w3.org/2005/Atom';
/** Where a shell document takes a folder's placemarks; never a KML element. */
const SLOT = 'collections-slot';

function root(): XMLBuilder {
  return create({ version: '1.0', encoding: 'UTF-8' }).ele(KML_NS, 'kml').att('xmlns:atom', ATOM_NS);
}

/** A text element of a placemark at `depth` levels below it, its text given to `xmlText`. */
const line = (depth: number, name: string, value: string) => textElement(PLACEMARK_INDENT + '  '.repeat(depth), name, serializedText(xmlText(value)));

/** Where the full document has a placemark: kml › Document › Folder › Placemark, two spaces a level. */
const PLACEMARK_INDENT = '      ';

/** A placemark as the full document has it: its lines, and the category folder it goes in. */
export interface KmlPlacemark {
  category: string;
  lines: string;
}

/**
 * An item's Placemark, as the lines xmlbuilder2 writes for it in the pretty-printed full
 * document (written as text: building a namespaced document per placemark cost a tenth of
 * the 100k build; tests/unit/xml-writers.test.ts holds the two equal over arbitrary items).
 */
export function kmlPlacemark(item: LocatedItem, siteUrl: string): KmlPlacemark {
  const category = item.category ?? 'other';
  const detail = detailUrl(siteUrl, item);
  const out = [`${PLACEMARK_INDENT}<Placemark id="${serializedAttribute(item.canonicalId)}">`, line(1, 'name', item.name ?? item.title ?? item.canonicalId)];
  out.push(`${PLACEMARK_INDENT}  <atom:link href="${serializedAttribute(xmlAttribute(detail))}"/>`);
  const address = placeLine(item);
  if (address) out.push(line(1, 'address', address));
  if (item.notes) out.push(line(1, 'description', item.notes));
  out.push(line(1, 'styleUrl', `#${styleId(category)}`), `${PLACEMARK_INDENT}  <ExtendedData>`);
  const extended: Record<string, unknown> = {
    canonicalId: item.canonicalId,
    category,
    city: item.city,
    country: item.country,
    neighborhood: item.neighborhood,
    mapsUrl: item.mapsUrl,
    detailUrl: detail,
    coordinatesSource: item.coordinatesSource,
    coordinatesLicense: item.coordinatesLicense,
  };
  for (const [name, value] of Object.entries(extended)) {
    if (value === undefined) continue;
    out.push(`${PLACEMARK_INDENT}    <Data name="${name}">`, line(3, 'value', String(value)), `${PLACEMARK_INDENT}    </Data>`);
  }
  out.push(`${PLACEMARK_INDENT}  </ExtendedData>`, `${PLACEMARK_INDENT}  <Point>`);
  const { longitude, latitude, altitude } = item.coordinates;
  if (altitude !== undefined) out.push(`${PLACEMARK_INDENT}    <altitudeMode>absolute</altitudeMode>`);
  const at = altitude === undefined ? `${longitude},${latitude}` : `${longitude},${latitude},${altitude}`;
  out.push(textElement(`${PLACEMARK_INDENT}    `, 'coordinates', serializedText(at)), `${PLACEMARK_INDENT}  </Point>`, `${PLACEMARK_INDENT}</Placemark>`);
  return { category, lines: out.join('\n') };
}

/** The placemarks' categories (sorted) and each one's lines in the order given. */
function byCategory<T>(placemarks: readonly { category: string; lines: T }[]): { categories: string[]; groups: Map<string, T[]> } {
  const groups = new Map<string, T[]>();
  for (const { category, lines } of placemarks) {
    const group = groups.get(category);
    if (group) group.push(lines);
    else groups.set(category, [lines]);
  }
  return { categories: [...groups.keys()].sort(), groups };
}

/** The document without its placemarks: its title, a Style and a Folder per category, each folder with the slot its placemarks go in. */
function shell(title: string, categories: readonly string[]): string {
  const doc = root();
  const document = doc.ele('Document');
  document.ele('name').txt(xmlText(title));
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
  return doc.end({ prettyPrint: true });
}

/** The document: its title, a Style and a Folder per category (sorted), each folder's placemarks in the order given. */
export function kmlDocument(title: string, placemarks: readonly KmlPlacemark[]): string {
  const { categories, groups } = byCategory(placemarks);
  return fillSlots(shell(title, categories), SLOT, (i) => groups.get(categories[i]!)!);
}

/** `kmlDocument` with each placemark's lines as UTF-8 bytes (a whole-collection export's kept fragments). */
export function kmlBytes(title: string, placemarks: readonly { category: string; lines: Uint8Array }[]): Buffer {
  const { categories, groups } = byCategory(placemarks);
  return fillSlotBytes(shell(title, categories), SLOT, (i) => groups.get(categories[i]!)!);
}

export function renderKml(title: string, items: readonly LocatedItem[], siteUrl: string): string {
  return kmlDocument(
    title,
    items.map((item) => kmlPlacemark(item, siteUrl)),
  );
}
