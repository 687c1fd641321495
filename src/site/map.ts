/**
 * The map page's drawing: the land of the world (Natural Earth, from the `world-atlas`
 * npm package) in the Natural Earth projection, as one SVG path computed at build time,
 * and every located record as a point linking to its page. No tiles, no script, nothing
 * fetched from another site: the page carries its own map. Below, `basemap`: the same
 * land around a few places, for the MCP map view.
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
      points.push({
        canonicalId,
        title: headline(c.name, r),
        collection: c.title,
        href: recordUrl(c.name, canonicalId),
        latitude: at.latitude,
        longitude: at.longitude,
        x: Math.round(x * 10) / 10,
        y: Math.round(y * 10) / 10,
      });
    }
  }
  return { land: path(landShapes()) ?? '', points };
}

/** The collections whose records carry coordinates. */
export const MAPPED = () => ['places', 'concerts', 'photos'].map((name) => collection(name)!);

/*
 * The base map of a frame (the MCP `places.render_map` view): the land around a few
 * points, in the Mercator projection, as one SVG path. A tool any client may call
 * hundreds of times a minute must not project the world per call (d3's spherical
 * clipping of all of land-50m costs tens of milliseconds, as Eurasia is one polygon),
 * so the land is cut once per process, lazily and per level of detail, into a grid of
 * tiles: each ring is unwrapped across the antimeridian, carried into planar Mercator
 * space (x = longitude in degrees, y = the Mercator ordinate in the same unit), and cut
 * by recursive halving (Sutherland–Hodgman against one grid line at a time, so each
 * vertex is visited once per level of the recursion rather than once per tile). A call
 * then reads only the tiles its frame covers, scales and translates their pieces (the
 * projection is linear in that space), clips those that cross the frame and writes the
 * path with one decimal. Pieces of one ring on either side of a grid line share that
 * line's vertices exactly, and the path is filled even-odd as one element, so no seam
 * is drawn between tiles (checked in Chromium: no hairline along the grid lines).
 *
 * Levels, by the frame's width: Natural Earth 10m in 1° tiles up to 4° across (a city:
 * its bay or fjord), 50m in 5° tiles up to 45°, 110m in 30° tiles beyond. Measured on
 * a shared 2-core machine under load (bench/basemap.ts): cutting 10m once costs
 * 0.75–1.7 s (about a third of it reading and decoding the 3 MB TopoJSON) and keeps
 * about 8 MB of vertices, 50m 0.08–0.3 s, 110m 5–50 ms; a call then costs 0.03–0.8 ms
 * (median; p95 under 1 ms but for rare outliers), the path 1–22 kB.
 */

/** The latitude beyond which Mercator draws nothing (the usual web-map bound, rounded). */
const MERCATOR_LIMIT = 85;
/** The smallest frame: a single place still shows this many degrees of longitude across the shorter side, enough for its coast. */
export const BASEMAP_MIN_SPAN = 0.5;
/** The margin, in pixels, between the points and the frame's edge. */
export const BASEMAP_MARGIN = 28;

const RAD = Math.PI / 180;
/** The Mercator ordinate of a latitude, in degrees of longitude. */
const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-89.9, Math.min(89.9, lat)) * RAD) / 2)) / RAD;
/** The latitude of a Mercator ordinate. */
const mercatorLat = (y: number) => (2 * Math.atan(Math.exp(y * RAD))) / RAD - 90;

/** A level of detail: which Natural Earth land, cut into which grid, for frames up to how wide (degrees of longitude). */
interface LevelSpec {
  scale: '10m' | '50m' | '110m';
  tile: number;
  maxWidth: number;
}
// No 10m level: cutting its 3 MB of land held the event loop 0.75–1.7 s on the first city
// map of a process (measured under load), longer than any request may hold it (the fuzz
// campaign's freeze bound is 1 s); 50m in 1° tiles took 0.68 s, in 5° tiles 0.31 s, once.
export const BASEMAP_LEVELS: readonly LevelSpec[] = [
  { scale: '50m', tile: 5, maxWidth: 45 },
  { scale: '110m', tile: 30, maxWidth: Infinity },
];

/** A ring cut to one tile, in planar Mercator space: x, y, x, y… with its bounding box. */
interface Piece {
  xy: Float64Array;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Level extends LevelSpec {
  cols: number;
  /** Row r spans latitudes -85 + r·tile .. -85 + (r + 1)·tile (capped at 85); rowY holds those lines as Mercator ordinates. */
  rowY: Float64Array;
  tiles: Map<number, Piece[]>;
  vertices: number;
  builtMs: number;
}

const levels = new Map<string, Level>();

/** Natural Earth land at a scale, as GeoJSON polygons in longitude/latitude. */
function landAt(scale: LevelSpec['scale']): FeatureCollection<Polygon | MultiPolygon> {
  if (scale === '110m') return landShapes();
  const file = createRequire(import.meta.url).resolve(`world-atlas/land-${scale}.json`);
  const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ land: GeometryCollection }>;
  return feature(topology, topology.objects.land) as FeatureCollection<Polygon | MultiPolygon>;
}

let scratch = new Float64Array(1 << 16);

/** Sutherland–Hodgman against one half-plane: keep the side where `coordinate` (0 = x, 1 = y) is ≤ `at` (`below`) or ≥ it. */
function clipHalf(ring: Float64Array, n: number, axis: 0 | 1, at: number, below: boolean): Float64Array {
  if (scratch.length < n * 4 + 8) scratch = new Float64Array(n * 4 + 8);
  const out = scratch;
  let m = 0;
  const other = 1 - axis;
  const inside = (v: number) => (below ? v <= at : v >= at);
  let px = ring[(n - 1) * 2]!;
  let py = ring[(n - 1) * 2 + 1]!;
  let pIn = inside(axis === 0 ? px : py);
  for (let i = 0; i < n; i++) {
    const qx = ring[i * 2]!;
    const qy = ring[i * 2 + 1]!;
    const qIn = inside(axis === 0 ? qx : qy);
    if (qIn !== pIn) {
      // The crossing of p→q with the line, computed from the edge's own endpoints in its own direction:
      // the pieces on both sides of the line get the same vertex.
      const pa = axis === 0 ? px : py;
      const qa = axis === 0 ? qx : qy;
      const t = (at - pa) / (qa - pa);
      const po = axis === 0 ? py : px;
      const qo = axis === 0 ? qy : qx;
      out[m * 2 + axis] = at;
      out[m * 2 + other] = po + t * (qo - po);
      m++;
    }
    if (qIn) {
      out[m * 2] = qx;
      out[m * 2 + 1] = qy;
      m++;
    }
    px = qx;
    py = qy;
    pIn = qIn;
  }
  return out.slice(0, m * 2);
}

function buildLevel(spec: LevelSpec): Level {
  const started = performance.now();
  const rows = Math.ceil((2 * MERCATOR_LIMIT) / spec.tile);
  const rowY = new Float64Array(rows + 1);
  for (let r = 0; r <= rows; r++) rowY[r] = mercatorY(Math.min(MERCATOR_LIMIT, -MERCATOR_LIMIT + r * spec.tile));
  const level: Level = { ...spec, cols: Math.round(360 / spec.tile), rowY, tiles: new Map(), vertices: 0, builtMs: 0 };
  const colX = (c: number) => -180 + c * spec.tile;
  const emit = (ring: Float64Array, c: number, r: number) => {
    const n = ring.length / 2;
    if (n < 3) return;
    const wrapped = ((c % level.cols) + level.cols) % level.cols;
    const shift = (wrapped - c) * spec.tile;
    const xy = new Float64Array(ring.length);
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = ring[i * 2]! + shift;
      const y = ring[i * 2 + 1]!;
      xy[i * 2] = x;
      xy[i * 2 + 1] = y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    if (x1 - x0 <= 0 || y1 - y0 <= 0) return;
    const key = r * level.cols + wrapped;
    let list = level.tiles.get(key);
    if (!list) level.tiles.set(key, (list = []));
    list.push({ xy, x0, y0, x1, y1 });
    level.vertices += n;
  };
  // Cut a ring by halving, along a grid line, the block of tiles its bounding box meets, until one tile holds it.
  const cut = (ring: Float64Array): void => {
    if (ring.length < 6) return;
    let xMin = Infinity,
      xMax = -Infinity,
      yMin = Infinity,
      yMax = -Infinity;
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i]!,
        y = ring[i + 1]!;
      if (x < xMin) xMin = x;
      if (x > xMax) xMax = x;
      if (y < yMin) yMin = y;
      if (y > yMax) yMax = y;
    }
    const c0 = Math.floor((xMin + 180) / spec.tile);
    const c1 = Math.max(c0 + 1, Math.ceil((xMax + 180) / spec.tile));
    let r0 = 0;
    while (r0 < rows - 1 && rowY[r0 + 1]! <= yMin) r0++;
    let r1 = rows;
    while (r1 > r0 + 1 && rowY[r1 - 1]! >= yMax) r1--;
    if (c1 - c0 === 1 && r1 - r0 === 1) return emit(ring, c0, r0);
    const n = ring.length / 2;
    if (c1 - c0 >= r1 - r0) {
      const at = colX((c0 + c1) >> 1);
      cut(clipHalf(ring, n, 0, at, true));
      cut(clipHalf(ring, n, 0, at, false));
    } else {
      const at = rowY[(r0 + r1) >> 1]!;
      cut(clipHalf(ring, n, 1, at, true));
      cut(clipHalf(ring, n, 1, at, false));
    }
  };
  for (const f of landAt(spec.scale).features) {
    const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const polygon of polygons) {
      for (const positions of polygon) {
        // Unwrap across the antimeridian (world-atlas stitches rings that cross it), into Mercator space.
        let n = positions.length;
        if (n > 1 && positions[0]![0] === positions[n - 1]![0] && positions[0]![1] === positions[n - 1]![1]) n--;
        if (n < 3) continue;
        const ring = new Float64Array(n * 2 + 4);
        let offset = 0;
        let prev = positions[0]![0]!;
        let latSum = 0;
        for (let i = 0; i < n; i++) {
          const [lon, lat] = positions[i]! as [number, number];
          if (lon - prev > 180) offset -= 360;
          else if (lon - prev < -180) offset += 360;
          prev = lon;
          ring[i * 2] = lon + offset;
          ring[i * 2 + 1] = mercatorY(lat);
          latSum += lat;
        }
        // The closing edge unwraps too: a ring whose unwrapping does not come back to where it began goes round a pole.
        const closing = positions[0]![0]! - prev;
        const winding = offset + (closing > 180 ? -360 : closing < -180 ? 360 : 0);
        let m = n;
        if (winding !== 0) {
          // A ring around a pole (Antarctica): close it along the pole.
          const poleY = mercatorY(latSum < 0 ? -90 : 90);
          ring[m * 2] = ring[(n - 1) * 2]!;
          ring[m * 2 + 1] = poleY;
          ring[m * 2 + 2] = ring[0]!;
          ring[m * 2 + 3] = poleY;
          m += 2;
        }
        let banded = clipHalf(ring, m, 1, rowY[0]!, false);
        banded = clipHalf(banded, banded.length / 2, 1, rowY[rows]!, true);
        cut(banded);
      }
    }
  }
  level.builtMs = performance.now() - started;
  return level;
}

function levelFor(width: number): Level {
  const spec = BASEMAP_LEVELS.find((l) => width <= l.maxWidth)!;
  let level = levels.get(`${spec.scale}/${spec.tile}`);
  if (!level) levels.set(`${spec.scale}/${spec.tile}`, (level = buildLevel(spec)));
  return level;
}

/** What it cost to cut each level built so far (milliseconds, vertices kept), for measurements. */
export function basemapLevels(): { scale: string; tile: number; ms: number; vertices: number; pieces: number }[] {
  return [...levels.values()].map((l) => ({
    scale: l.scale,
    tile: l.tile,
    ms: Math.round(l.builtMs),
    vertices: l.vertices,
    pieces: [...l.tiles.values()].reduce((s, p) => s + p.length, 0),
  }));
}

export interface Basemap {
  width: number;
  height: number;
  /** The frame: longitudes west..east (east may pass 180 when the frame crosses the antimeridian), latitudes south..north. */
  bounds: { west: number; south: number; east: number; north: number };
  /** The land within the frame, as the `d` of one SVG path (fill it even-odd). */
  land: string;
  /** The points, in the order given, in the frame's pixels. */
  points: { x: number; y: number }[];
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/**
 * A Mercator frame of `width`×`height` pixels fitted to the points (with a margin, and
 * at least BASEMAP_MIN_SPAN degrees across so a single place still shows its coast),
 * the land within it as one SVG path, and the points in its pixels.
 */
export function basemap(points: readonly { latitude: number; longitude: number }[], width: number, height: number): Basemap {
  // The frame's longitudes: the shortest arc holding every point (the largest gap between them is left out).
  const lons = points.map((p) => ((((p.longitude + 180) % 360) + 360) % 360) - 180);
  const sorted = [...lons].sort((a, b) => a - b);
  let west = sorted[0] ?? 0;
  let gap = sorted.length ? sorted[0]! + 360 - sorted.at(-1)! : 360;
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]! - sorted[i - 1]! > gap) {
      gap = sorted[i]! - sorted[i - 1]!;
      west = sorted[i]!;
    }
  }
  const xs = lons.map((lon) => (lon < west ? lon + 360 : lon));
  const ys = points.map((p) => mercatorY(Math.max(-MERCATOR_LIMIT, Math.min(MERCATOR_LIMIT, p.latitude))));
  const east = xs.length ? Math.max(...xs) : 0;
  const yMin = ys.length ? Math.min(...ys) : 0;
  const yMax = ys.length ? Math.max(...ys) : 0;
  const k = Math.min(
    (width - 2 * BASEMAP_MARGIN) / (east - west || 1e-9),
    (height - 2 * BASEMAP_MARGIN) / (yMax - yMin || 1e-9),
    (Math.min(width, height) - 2 * BASEMAP_MARGIN) / BASEMAP_MIN_SPAN,
  );
  const cx = (west + east) / 2;
  const cy = (yMin + yMax) / 2;
  const fx0 = cx - width / 2 / k;
  const fx1 = cx + width / 2 / k;
  const fy0 = cy - height / 2 / k;
  const fy1 = cy + height / 2 / k;
  const px = (x: number) => round1((x - fx0) * k);
  const py = (y: number) => round1((fy1 - y) * k);

  const level = levelFor(fx1 - fx0);
  // Clip a hair outside the frame, so the frame's own edge is never drawn as a coast.
  const bleed = 1 / k;
  const cx0 = fx0 - bleed,
    cx1 = fx1 + bleed,
    cy0 = fy0 - bleed,
    cy1 = fy1 + bleed;
  const parts: string[] = [];
  const rows = level.rowY.length - 1;
  let r0 = 0;
  while (r0 < rows - 1 && level.rowY[r0 + 1]! <= cy0) r0++;
  let r1 = rows;
  while (r1 > r0 + 1 && level.rowY[r1 - 1]! >= cy1) r1--;
  const c0 = Math.floor((cx0 + 180) / level.tile);
  const c1 = Math.floor((cx1 + 180) / level.tile);
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const wrapped = ((c % level.cols) + level.cols) % level.cols;
      const pieces = level.tiles.get(r * level.cols + wrapped);
      if (!pieces) continue;
      const shift = (c - wrapped) * level.tile;
      // A tile's own edges: vertices on them are kept exactly, so neighbouring tiles meet.
      const tx0 = -180 + wrapped * level.tile,
        ex0 = tx0 + shift,
        ex1 = tx0 + level.tile + shift,
        ty0 = level.rowY[r]!,
        ty1 = level.rowY[r + 1]!;
      for (const piece of pieces) {
        if (piece.x1 + shift < cx0 || piece.x0 + shift > cx1 || piece.y1 < cy0 || piece.y0 > cy1) continue;
        let xy = piece.xy;
        if (shift) {
          xy = new Float64Array(xy);
          for (let i = 0; i < xy.length; i += 2) xy[i]! += shift;
        }
        if (piece.x0 + shift < cx0) xy = clipHalf(xy, xy.length / 2, 0, cx0, false);
        if (piece.x1 + shift > cx1 && xy.length) xy = clipHalf(xy, xy.length / 2, 0, cx1, true);
        if (piece.y0 < cy0 && xy.length) xy = clipHalf(xy, xy.length / 2, 1, cy0, false);
        if (piece.y1 > cy1 && xy.length) xy = clipHalf(xy, xy.length / 2, 1, cy1, true);
        const n = xy.length / 2;
        if (n < 3) continue;
        let d = '';
        let kept = 0;
        let lx = NaN,
          ly = NaN;
        for (let i = 0; i < n; i++) {
          const x = xy[i * 2]!;
          const y = xy[i * 2 + 1]!;
          const X = px(x);
          const Y = py(y);
          // Thin the coast to about half a pixel, but keep every vertex on a tile's edge.
          const onEdge = x === ex0 || x === ex1 || y === ty0 || y === ty1;
          if (kept && (onEdge ? X === lx && Y === ly : Math.abs(X - lx) < 0.5 && Math.abs(Y - ly) < 0.5)) continue;
          d += (kept === 0 ? 'M' : kept === 1 ? 'L' : ' ') + X + ',' + Y;
          lx = X;
          ly = Y;
          kept++;
        }
        if (kept >= 3) parts.push(d + 'Z');
      }
    }
  }
  return {
    width,
    height,
    bounds: {
      west: round5(fx0 - 360 * Math.floor((fx0 + 180) / 360)),
      south: round5(mercatorLat(fy0)),
      east: round5(fx1 - 360 * Math.floor((fx0 + 180) / 360)),
      north: round5(mercatorLat(fy1)),
    },
    land: parts.join(''),
    points: xs.map((x, i) => ({ x: px(x), y: py(ys[i]!) })),
  };
}
