/**
 * The representations of a collection list, one entry per media type: its schema, what
 * it means, and an example made by the real serializer from a schema-generated item.
 * Which media types a collection offers is not decided here: it is whatever the
 * serializer registry (`serializersFor`) says the server negotiates, so the description
 * follows the server. A media type the registry offers without an entry here fails
 * generation, so a new format cannot go undocumented.
 */
import type { CollectionDeclaration } from '../collections/define.ts';
import { renderCsv } from '../formats/csv.ts';
import { renderGeoJson } from '../formats/geojson.ts';
import { csvColumns } from '../formats/index.ts';
import { sampleWith } from './examples.ts';
import { schemaStem } from '../collections/item-schema.ts';
import { ref, type JsonObject, type JsonSchema, type JsonValue, type MediaType } from './types.ts';
import { collectionUrl } from '../urls.ts';

/** Media types that draw items on a map: a collection offering one may answer 503 (provenance). */
export const GEOGRAPHIC_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/geo+json', 'application/vnd.google-earth.kml+xml', 'application/gpx+xml']);

const EXAMPLE_TIMESTAMP = '2024-05-01T18:30:00Z';

interface Format {
  description: string;
  mediaType: (c: CollectionDeclaration, item: JsonObject) => MediaType;
}

const exampleMeta = () => ({ totalCount: 1, pageSize: 50, timestamp: EXAMPLE_TIMESTAMP });
const exampleLinks = (c: CollectionDeclaration) => ({ self: collectionUrl(c.name), first: collectionUrl(c.name) });

export const FORMATS: Readonly<Record<string, Format>> = {
  'application/json': {
    description: 'The list envelope `{data, meta, links}` (default).',
    mediaType: (c, item) => ({
      schema: ref('schemas', `${schemaStem(c)}Page`),
      examples: { page: { summary: 'A one-item page', value: { data: [item], meta: exampleMeta(), links: exampleLinks(c) } } },
    }),
  },
  'text/csv': {
    description:
      'RFC 4180 CSV (`charset=utf-8; header=present`): a header row of the item’s top-level fields (canonicalId, the schema’s fields in order, then derived fields), one row per item of the page, CRLF line ends. Lists are joined with `; `, objects (coordinates, external IDs) are written as JSON text, absent values are empty; cells holding a comma, quote or line break are quoted with quotes doubled. Pagination is in the `Link` header.',
    mediaType: (c, item) => ({
      schema: { type: 'string' },
      examples: { page: { summary: 'A one-item page', value: renderCsv(csvColumns(c), [item]) } },
    }),
  },
  'application/geo+json': {
    description:
      'RFC 7946 GeoJSON: a FeatureCollection with one Point feature per located item of the page (position `[longitude, latitude(, altitude)]`, `id` the canonicalId, `properties` the item without `coordinates`, plus `detailUrl`); the foreign member `meta` carries the page meta, links and how many items of the page had no coordinates.',
    mediaType: (c, item) => ({
      schema: ref('schemas', `${schemaStem(c)}FeatureCollection`),
      examples: {
        page: {
          summary: 'A one-item page',
          value: JSON.parse(renderGeoJson([item], 'https://example.com', c.name, { ...exampleMeta(), links: exampleLinks(c) })) as JsonValue,
        },
      },
    }),
  },
  'application/vnd.google-earth.kml+xml': {
    description:
      'KML 2.2: one Folder per category, each with its Style, holding one Placemark per located item of the page (`id` the canonicalId; name, address, an atom:link to the detail page, ExtendedData with canonicalId, category, city, country, maps link, detail URL and coordinate provenance; altitude kept with `altitudeMode absolute`).',
    mediaType: () => ({ schema: { type: 'string' } }),
  },
  'application/gpx+xml': {
    description:
      'GPX 1.1: one `wpt` per located item of the page, with `ele` when recorded, `name`, `desc` (category and place), a `link` to the detail page and the category as `type`.',
    mediaType: () => ({ schema: { type: 'string' } }),
  },
};

/** The content map of a 200 list answer for the offered media types, with examples from the item schema. */
export function listContent(c: CollectionDeclaration, offered: readonly string[], itemSchema: JsonSchema): Record<string, MediaType> {
  // Coordinates are included, so located collections show a feature in their map examples.
  const item = sampleWith(itemSchema, ['coordinates']);
  const content: Record<string, MediaType> = {};
  for (const mediaType of offered) {
    const format = FORMATS[mediaType];
    if (!format) throw new Error(`${c.name}: the server offers ${mediaType}, which src/openapi/media.ts does not describe`);
    content[mediaType] = format.mediaType(c, item);
  }
  return content;
}
