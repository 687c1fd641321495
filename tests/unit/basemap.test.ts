/**
 * The base map of the MCP map view (src/site/map.ts `basemap`): a Mercator frame fitted
 * to the points, with the land (Natural Earth, cut once into tiles) clipped to it as one
 * SVG path. A single city still shows its coast (land and water both), the points fall
 * inside the frame, the frame takes the short way across the antimeridian, and the same
 * points always give the same map.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basemap, BASEMAP_MARGIN, BASEMAP_MIN_SPAN, type Basemap } from '../../src/site/map.ts';

const W = 480;
const H = 320;
const TOKYO = { latitude: 35.6812, longitude: 139.7671 };
const LISBON = { latitude: 38.7223, longitude: -9.1393 };
const KRAKOW = { latitude: 50.0647, longitude: 19.945 };

/** Every vertex of the path, checking its syntax on the way. */
function vertices(land: string): [number, number][] {
  assert.match(land, /^(M-?[\d.]+,-?[\d.]+(L-?[\d.]+,-?[\d.]+)?( -?[\d.]+,-?[\d.]+)*Z)*$/, 'absolute moves and lines, closed, numbers only');
  return [...land.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** Land and water both: some coast vertex lies strictly inside the frame (a path whose vertices all sit on the frame's edge is all land or empty). */
function holdsCoast(map: Basemap): boolean {
  return vertices(map.land).some(([x, y]) => x > 0.5 && x < map.width - 0.5 && y > 0.5 && y < map.height - 0.5);
}

function assertInside(map: Basemap) {
  for (const p of map.points) {
    assert.ok(p.x >= BASEMAP_MARGIN - 0.1 && p.x <= map.width - BASEMAP_MARGIN + 0.1, `x ${p.x} within the margin`);
    assert.ok(p.y >= BASEMAP_MARGIN - 0.1 && p.y <= map.height - BASEMAP_MARGIN + 0.1, `y ${p.y} within the margin`);
  }
}

test('a single place (Tokyo) gets a frame of the minimum span that holds its coast: land and water', () => {
  const map = basemap([TOKYO], W, H);
  assert.equal(map.width, W);
  assert.equal(map.height, H);
  assert.deepEqual(map.points, [{ x: W / 2, y: H / 2 }], 'a single place is at the centre');
  assert.ok(map.land.length > 0, 'some land');
  assert.ok(holdsCoast(map), 'not one full-frame rectangle: the coast of Tokyo Bay is inside the frame');
  const across = map.bounds.east - map.bounds.west;
  assert.ok(across >= BASEMAP_MIN_SPAN && across < 2, `about ${BASEMAP_MIN_SPAN}° across the shorter side (${across}° wide)`);
  assert.ok(map.bounds.south < TOKYO.latitude && TOKYO.latitude < map.bounds.north);
  assert.ok(map.bounds.west < TOKYO.longitude && TOKYO.longitude < map.bounds.east);
  for (const [x, y] of vertices(map.land)) assert.ok(x >= -1.1 && x <= W + 1.1 && y >= -1.1 && y <= H + 1.1, 'the land is clipped to the frame');
});

test('Lisbon and Kraków: both inside the frame, with land (Iberia to Poland) and sea between', () => {
  const map = basemap([LISBON, KRAKOW], W, H);
  assertInside(map);
  assert.ok(holdsCoast(map));
  assert.ok(map.points[0]!.x < map.points[1]!.x, 'Lisbon is west of Kraków');
  assert.ok(map.points[0]!.y > map.points[1]!.y, 'and south of it');
  // The fit: the longer extent touches the margin on both sides.
  assert.ok(Math.abs(map.points[0]!.x - BASEMAP_MARGIN) < 0.2 || Math.abs(map.points[1]!.y - BASEMAP_MARGIN) < 0.2);
});

test('the frame takes the short way across the antimeridian (Fiji) and still draws land', () => {
  const map = basemap(
    [
      { latitude: -17.7, longitude: 178.0 },
      { latitude: -16.5, longitude: -179.9 },
    ],
    W,
    H,
  );
  assertInside(map);
  assert.ok(map.bounds.east - map.bounds.west < 5, 'a few degrees wide, not the whole world');
  assert.ok(map.points[0]!.x < map.points[1]!.x, '178°E is west of 179.9°W across the antimeridian');
  assert.ok(holdsCoast(map));
  // No spurious land column at the antimeridian: Fiji's own islands only, much water.
  const x180 = ((180 - map.bounds.west) / (map.bounds.east - map.bounds.west)) * W;
  const tall = map.land
    .split('M')
    .slice(1)
    .filter((ring) => {
      const ys = vertices(`M${ring}`).map(([, y]) => y);
      const xs = vertices(`M${ring}`).map(([x]) => x);
      return Math.max(...ys) - Math.min(...ys) > H * 0.9 && Math.max(...xs) - Math.min(...xs) < 5 && Math.abs(xs[0]! - x180) < 5;
    });
  assert.deepEqual(tall, []);
});

test('places far apart (Lisbon, Tokyo, Sydney) get coarser land and a bounded path', () => {
  const map = basemap([LISBON, TOKYO, { latitude: -33.87, longitude: 151.21 }], W, H);
  assertInside(map);
  assert.ok(holdsCoast(map));
  assert.ok(map.land.length < 200_000, `a bounded path (${map.land.length} characters)`);
});

test('the same points always give the same map', () => {
  for (const points of [[TOKYO], [LISBON, KRAKOW]]) assert.deepEqual(basemap(points, W, H), basemap(points, W, H));
});
