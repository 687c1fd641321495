/**
 * GeoJSON (RFC 7946) for located items: a FeatureCollection of Points whose properties
 * are the item without its coordinates. Positions are [longitude, latitude(, altitude)]
 * as §3.1.1 requires; items without coordinates are left out of the features (the
 * count of those is in `meta`, so nothing disappears silently).
 */
interface Coordinates {
  latitude: number;
  longitude: number;
  altitude?: number;
}

export function renderGeoJson(items: readonly Record<string, unknown>[], meta: Record<string, unknown>): string {
  const features = [];
  for (const item of items) {
    const { coordinates, ...properties } = item as Record<string, unknown> & { coordinates?: Coordinates };
    if (!coordinates) continue;
    const position = [coordinates.longitude, coordinates.latitude];
    if (coordinates.altitude !== undefined) position.push(coordinates.altitude);
    features.push({ type: 'Feature', id: item.canonicalId, geometry: { type: 'Point', coordinates: position }, properties });
  }
  return JSON.stringify({ type: 'FeatureCollection', features, meta: { ...meta, unlocated: items.length - features.length } });
}
