/**
 * The map page's drawing: the land of the world (Natural Earth, from the `world-atlas`
 * npm package) in the Natural Earth projection, as one SVG path computed at build time,
 * and every located record as a point linking to its page. No tiles, no script, nothing
 * fetched from another site: the page carries its own map.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { CollectionDeclaration } from '../collections/define.ts';
import { headline } from '../collections/headline.ts';
import { collection } from '../collections/index.ts';
import { LIMITS } from '../core/limits.ts';
import { parseQuery } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { recordUrl } from '../urls.ts';

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 500;

export interface MapPoint {
  canonicalId: string;
  title: string;
  collection: string;
  href: string;
  latitude: number;
  longitude: number;
  x: number;
  y: number;
}

export interface MapView {
  land: string;
  points: MapPoint[];
}

let land: FeatureCollection<Polygon | MultiPolygon> | undefined;
function landShapes(): FeatureCollection<Polygon | MultiPolygon> {
  if (!land) {
    const file = createRequire(import.meta.url).resolve('world-atlas/land-110m.json');
    const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ land: GeometryCollection }>;
    land = feature(topology, topology.objects.land) as FeatureCollection<Polygon | MultiPolygon>;
  }
  return land;
}

/** Every record with coordinates in `collections`, drawn over the land. */
export function mapView(core: QueryCore, collections: readonly CollectionDeclaration[]): MapView {
  const projection = geoNaturalEarth1().fitSize([MAP_WIDTH, MAP_HEIGHT], { type: 'Sphere' });
  const path = geoPath(projection).digits(1);
  const points: MapPoint[] = [];
  for (const c of collections) {
    let drawn = 0;
    for (const json of core.all(parseQuery(c, new URLSearchParams()))) {
      if (drawn >= LIMITS.mapPointsMax) break;
      const r = JSON.parse(json) as Record<string, unknown>;
      const at = r.coordinates as { latitude?: unknown; longitude?: unknown } | undefined;
      if (!at || typeof at.latitude !== 'number' || typeof at.longitude !== 'number') continue;
      const [x, y] = projection([at.longitude, at.latitude]) ?? [0, 0];
      const canonicalId = String(r.canonicalId);
      drawn++;
      points.push({ canonicalId, title: headline(c.name, r), collection: c.title, href: recordUrl(c.name, canonicalId), latitude: at.latitude, longitude: at.longitude, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
    }
  }
  return { land: path(landShapes()) ?? '', points };
}

/** The collections whose records carry coordinates. */
export const MAPPED = () => ['places', 'concerts', 'photos'].map((name) => collection(name)!);
