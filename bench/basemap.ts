/**
 * What the MCP map view's base map costs (src/site/map.ts `basemap`): the one-time
 * cutting of each level of detail into tiles (paid lazily, by the first call whose frame
 * needs that level, once per process) and the per-call cost of a frame, for a few
 * frames from one city to half the world. `npm run` has no script for it:
 * `node bench/basemap.ts`.
 */
import { basemap, basemapLevels } from '../src/site/map.ts';

const W = 480;
const H = 320;
const frames: Record<string, { latitude: number; longitude: number }[]> = {
  'Tokyo (one place)': [{ latitude: 35.6812, longitude: 139.7671 }],
  'Bergen fjords': [
    { latitude: 60.39, longitude: 5.32 },
    { latitude: 61.2, longitude: 6.5 },
  ],
  'Athens–Naxos': [
    { latitude: 37.98, longitude: 23.72 },
    { latitude: 37.1, longitude: 25.38 },
  ],
  'Fiji (antimeridian)': [
    { latitude: -17.7, longitude: 178.0 },
    { latitude: -16.5, longitude: -179.9 },
  ],
  'Lisbon–Kraków': [
    { latitude: 38.72, longitude: -9.14 },
    { latitude: 50.06, longitude: 19.94 },
  ],
  'Canadian Arctic': [
    { latitude: 74, longitude: -95 },
    { latitude: 70, longitude: -80 },
  ],
  'Lisbon–Tokyo': [
    { latitude: 38.72, longitude: -9.14 },
    { latitude: 35.68, longitude: 139.77 },
  ],
};

const firsts: string[] = [];
for (const [name, points] of Object.entries(frames)) {
  const started = performance.now();
  basemap(points, W, H);
  firsts.push(`${name}: ${(performance.now() - started).toFixed(1)} ms`);
}
console.log('First calls (a level is cut by the first frame that needs it):', firsts.join('; '));
console.log(
  'Levels:',
  basemapLevels()
    .map((l) => `${l.scale} in ${l.tile}° tiles: ${l.ms} ms, ${l.pieces} pieces, ${l.vertices} vertices`)
    .join('; '),
);
for (const [name, points] of Object.entries(frames)) {
  const runs: number[] = [];
  let map = basemap(points, W, H);
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    map = basemap(points, W, H);
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  console.log(`${name.padEnd(22)} median ${runs[150]!.toFixed(3)} ms, p95 ${runs[285]!.toFixed(3)} ms, path ${map.land.length} characters`);
}
