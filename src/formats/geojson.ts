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

/** The FeatureCollection of `count` items, given each item's feature text ('' for an unlocated one). */
export function geoJsonCollection(features: readonly string[], meta: Record<string, unknown>): string {
  const located = features.filter((f) => f !== '');
  return `{"type":"FeatureCollection","features":[${located.join(',')}],"meta":${JSON.stringify({ ...meta, unlocated: features.length - located.length })}}`;
}

export function renderGeoJson(items: readonly Record<string, unknown>[], siteUrl: string, collection: string, meta: Record<string, unknown>): string {
  return geoJsonCollection(
    items.map((item) => geoJsonFeature(item, siteUrl, collection)),
    meta,
  );
}
