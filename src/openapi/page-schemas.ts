/**
 * The component schemas of collection lists: the shared envelope parts (SPEC §2.1 —
 * `meta`, its `facets`, the root-relative `links`), and per collection its item, its
 * page, and for collections served as GeoJSON its FeatureCollection. Facet keys are the
 * collection's filter parameters, all of them present when facets are asked for.
 */
import { facetable, type CollectionDeclaration } from '../collections/define.ts';
import { LIMITS } from '../core/limits.ts';
import { CANONICAL_ID_PATTERN, schemaStem } from '../collections/item-schema.ts';
import { ref, type JsonObject, type JsonSchema } from './types.ts';

const rootRelative = { type: 'string', format: 'uri-reference', pattern: '^/' };

export const SHARED_PAGE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  FacetValue: {
    type: 'object',
    properties: { value: { type: 'string', description: 'A value as published (one spelling of it).' }, count: { type: 'integer', minimum: 1 } },
    required: ['value', 'count'],
    additionalProperties: false,
  },
  PageMeta: {
    type: 'object',
    properties: {
      totalCount: { type: 'integer', minimum: 0, description: 'Items matching the filters and search, on all pages.' },
      pageSize: { type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax, description: 'The page size asked for (after flooring and clamping).' },
      timestamp: { type: 'string', format: 'date-time', description: 'When the collection’s data was last changed.' },
      facets: {
        type: 'object',
        description: `Present only when \`facets\` is on: per filter parameter, its most frequent values in the filtered set (at most ${LIMITS.facetValuesMax}), most frequent first.`,
        additionalProperties: { type: 'array', items: ref('schemas', 'FacetValue'), maxItems: LIMITS.facetValuesMax },
      },
    },
    required: ['totalCount', 'pageSize', 'timestamp'],
    additionalProperties: false,
  },
  PageLinks: {
    type: 'object',
    description: 'Root-relative links; the same ones are in the `Link` header. Pass `next` back as it is to read the following page.',
    properties: { self: rootRelative, first: rootRelative, next: rootRelative },
    required: ['self', 'first'],
    additionalProperties: false,
  },
};

function pageSchema(c: CollectionDeclaration): JsonSchema {
  const params = facetable(c);
  const meta: JsonObject =
    params.length === 0
      ? ref('schemas', 'PageMeta')
      : {
          allOf: [ref('schemas', 'PageMeta')],
          properties: {
            facets: {
              properties: Object.fromEntries(params.map((p) => [p, { type: 'array', items: ref('schemas', 'FacetValue') }])),
              required: params,
              additionalProperties: false,
            },
          },
        };
  return {
    title: `${c.title} page`,
    type: 'object',
    properties: { data: { type: 'array', items: ref('schemas', `${schemaStem(c)}Item`) }, meta, links: ref('schemas', 'PageLinks') },
    required: ['data', 'meta', 'links'],
    additionalProperties: false,
  };
}

/** The GeoJSON feature properties: the item without its coordinates. */
function featureProperties(item: JsonSchema): JsonSchema {
  const { coordinates: _, ...properties } = item.properties as JsonObject;
  const detailUrl = { type: 'string', format: 'uri', description: 'The record’s detail page.' };
  return {
    ...item,
    properties: { ...properties, detailUrl },
    required: [...(item.required as string[]).filter((name) => name !== 'coordinates'), 'detailUrl'],
  };
}

function featureCollectionSchema(c: CollectionDeclaration): JsonSchema {
  const stem = schemaStem(c);
  const position = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 3, description: '[longitude, latitude(, altitude)]' };
  return {
    title: `${c.title} as GeoJSON`,
    type: 'object',
    properties: {
      type: { const: 'FeatureCollection' },
      features: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            type: { const: 'Feature' },
            id: { type: 'string', pattern: CANONICAL_ID_PATTERN },
            geometry: {
              type: 'object',
              properties: { type: { const: 'Point' }, coordinates: position },
              required: ['type', 'coordinates'],
              additionalProperties: false,
            },
            properties: ref('schemas', `${stem}FeatureProperties`),
          },
          required: ['type', 'id', 'geometry', 'properties'],
          additionalProperties: false,
        },
      },
      meta: {
        type: 'object',
        description: 'Foreign member (RFC 7946 §6.1): the page meta and links, and `unlocated`, how many items of the page had no coordinates.',
        properties: {
          totalCount: { type: 'integer', minimum: 0 },
          pageSize: { type: 'integer', minimum: 1 },
          timestamp: { type: 'string', format: 'date-time' },
          links: ref('schemas', 'PageLinks'),
          unlocated: { type: 'integer', minimum: 0 },
        },
        required: ['totalCount', 'pageSize', 'timestamp', 'links', 'unlocated'],
        additionalProperties: false,
      },
    },
    required: ['type', 'features'],
  };
}

/** Component schemas of one collection (its item schema given), by name; `geo` adds the GeoJSON ones. */
export function collectionSchemas(c: CollectionDeclaration, item: JsonSchema, geo: boolean): Record<string, JsonSchema> {
  const stem = schemaStem(c);
  const schemas: Record<string, JsonSchema> = { [`${stem}Item`]: item, [`${stem}Page`]: pageSchema(c) };
  if (geo) {
    schemas[`${stem}FeatureProperties`] = featureProperties(item);
    schemas[`${stem}FeatureCollection`] = featureCollectionSchema(c);
  }
  return schemas;
}
