/**
 * The whole-collection exports: every place as GeoJSON, KML and GPX, rendered by the
 * same serializers that answer `Accept` on `/api/places.json`, over every record in the
 * collection's default order. An export whose collection has located records without
 * provenance is not written at all (the runtime answers 503 for it): never a silently
 * partial file.
 */
import { collection } from '../collections/index.ts';
import { parseQuery } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { serializers } from '../formats/index.ts';
import type { Document } from './documents.ts';

export interface ExportSpec {
  path: string;
  collection: string;
  mediaType: string;
}

export const EXPORTS: readonly ExportSpec[] = [
  { path: '/places.geojson', collection: 'places', mediaType: 'application/geo+json' },
  { path: '/places.kml', collection: 'places', mediaType: 'application/vnd.google-earth.kml+xml' },
  { path: '/places.gpx', collection: 'places', mediaType: 'application/gpx+xml' },
];

export const exportAt = (path: string) => EXPORTS.find((e) => e.path === path);

export function exportDocuments(core: QueryCore): Document[] {
  return EXPORTS.filter((spec) => core.image.provenanceComplete(spec.collection)).map((spec) => {
    const declaration = collection(spec.collection)!;
    const serializer = serializers.find((s) => s.mediaType === spec.mediaType)!;
    const query = parseQuery(declaration, new URLSearchParams());
    const items = [...core.all(query)];
    const asOf = core.image.asOf(spec.collection);
    const page = { items, canonicalIds: [], totalCount: items.length, next: undefined, facets: undefined, asOf };
    const body = serializer.render({ ...query, limit: items.length }, page, { self: spec.path, first: spec.path }, { url: core.image.siteUrl });
    return { path: spec.path, file: spec.path.slice(1), contentType: serializer.contentType, body, asOf };
  });
}
