/**
 * GeoJSON (RFC 7946) for located items: a FeatureCollection of Points whose properties
 * are the item without its coordinates, plus its detail page URL. Positions are [longitude, latitude(, altitude)]
 * as §3.1.1 requires; items without coordinates are left out of the features (the
 * count of those is in `meta`, so nothing disappears silently).
 */
import { detailUrl } from './located.ts';

interface Coordinates {
  latitude: number;
  longitude: number;
  altitude?: number;
}

export function renderGeoJson(items: readonly Record<string, unknown>[], siteUrl: string, collection: string, meta: Record<string, unknown>): string {
  const features = [];
  for (const item of items) {
    const { coordinates, ...properties } = item as Record<string, unknown> & { coordinates?: Coordinates };
    if (!coordinates) continue;
    const position = [coordinates.longitude, coordinates.latitude];
    if (coordinates.altitude !== undefined) position.push(coordinates.altitude);
    const detail = detailUrl(siteUrl, { collection, canonicalId: String(item.canonicalId) });
    features.push({ type: 'Feature', id: item.canonicalId, geometry: { type: 'Point', coordinates: position }, properties: { ...properties, detailUrl: detail } });
  }
  return JSON.stringify({ type: 'FeatureCollection', features, meta: { ...meta, unlocated: items.length - features.length } });
}
