/**
 * GeoJSON (RFC 7946) for located items: a FeatureCollection of Points whose properties
 * are the item without its coordinates, plus its detail page URL. Positions are [longitude, latitude(, altitude)]
 * as §3.1.1 requires; items without coordinates are left out of the features (the
 * count of those is in `meta`, so nothing disappears silently). The collection is written
 * as its features' JSON texts joined, which is what JSON.stringify of the whole would give,
 * so a whole-collection export can reuse the features of unchanged records.
 */
import { detailUrl } from './located.ts';

interface Coordinates {
  latitude: number;
  longitude: number;
  altitude?: number;
}

/** An item's Feature as JSON text; '' when it has no coordinates. */
export function geoJsonFeature(item: Record<string, unknown>, siteUrl: string, collection: string): string {
  const { coordinates, ...properties } = item as Record<string, unknown> & { coordinates?: Coordinates };
  if (!coordinates) return '';
  const position = [coordinates.longitude, coordinates.latitude];
  if (coordinates.altitude !== undefined) position.push(coordinates.altitude);
  const detail = detailUrl(siteUrl, { collection, canonicalId: String(item.canonicalId) });
  return JSON.stringify({
    type: 'Feature',
    id: item.canonicalId,
    geometry: { type: 'Point', coordinates: position },
    properties: { ...properties, detailUrl: detail },
  });
}

const HEAD = '{"type":"FeatureCollection","features":[';
const tail = (meta: Record<string, unknown>, unlocated: number) => `],"meta":${JSON.stringify({ ...meta, unlocated })}}`;

/** The FeatureCollection of `count` items, given each item's feature text ('' for an unlocated one). */
export function geoJsonCollection(features: readonly string[], meta: Record<string, unknown>): string {
  const located = features.filter((f) => f !== '');
  return `${HEAD}${located.join(',')}${tail(meta, features.length - located.length)}`;
}

const COMMA = Buffer.from(',');

/** `geoJsonCollection` with each feature as UTF-8 bytes (empty for an unlocated item): a whole-collection export's kept fragments, copied rather than joined and encoded again. */
export function geoJsonCollectionBytes(features: readonly Uint8Array[], meta: Record<string, unknown>): Buffer {
  const parts: Uint8Array[] = [Buffer.from(HEAD)];
  let located = 0;
  for (const feature of features) {
    if (feature.length === 0) continue;
    if (located++ > 0) parts.push(COMMA);
    parts.push(feature);
  }
  parts.push(Buffer.from(tail(meta, features.length - located)));
  return Buffer.concat(parts);
}

export function renderGeoJson(items: readonly Record<string, unknown>[], siteUrl: string, collection: string, meta: Record<string, unknown>): string {
  return geoJsonCollection(
    items.map((item) => geoJsonFeature(item, siteUrl, collection)),
    meta,
  );
}
