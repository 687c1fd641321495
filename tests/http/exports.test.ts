/**
 * The geographic exports and the map formats of the REST lists, checked with tools no
 * one here wrote: xmllint against the OGC KML 2.2 and GPX 1.1 schemas, check-geojson for
 * RFC 7946, and @tmcw/togeojson reading KML and GPX back to the same names and positions.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import { gpx as gpxToGeoJson, kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { withheldExport } from '../../functions/exports.ts';
import { compile } from '../../src/compile/compile.ts';
import { Image } from '../../src/core/image.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

// Copies of ../shared/schemas (OGC KML 2.2 with its Atom and xAL imports, Topografix GPX 1.1), so the suite runs from any checkout.
const SCHEMAS = resolve('tests/schemas');
const scratch = mkdtempSync(join(tmpdir(), 'exports-'));

async function text(path: string, accept?: string): Promise<{ body: string; response: Response }> {
  const response = await contractFetch(server.base + path, accept ? { headers: { Accept: accept } } : {});
  assert.equal(response.status, 200, path);
  return { body: await response.text(), response };
}

function xmllint(xml: string, schema: string, name: string): void {
  const file = join(scratch, name);
  writeFileSync(file, xml);
  // Throws (non-zero exit) with xmllint's own message when the document is invalid.
  execFileSync('xmllint', ['--nonet', '--noout', '--schema', join(SCHEMAS, schema), file], { stdio: 'pipe' });
}

interface Place {
  canonicalId: string;
  name: string;
  coordinates: { latitude: number; longitude: number; altitude?: number };
}

async function places(query = ''): Promise<Place[]> {
  const all: Place[] = [];
  let next: string | undefined = `/api/places.json?limit=100${query}`;
  while (next) {
    const page = (await (await contractFetch(server.base + next)).json()) as { data: Place[]; links: { next?: string } };
    all.push(...page.data);
    next = page.links.next;
  }
  return all;
}

const positions = (features: { geometry: { coordinates: number[] } | null; properties: Record<string, unknown> | null }[]) =>
  features.map((f) => `${f.properties?.name}|${f.geometry!.coordinates.slice(0, 2).join(',')}`).sort();
const expected = (items: Place[]) => items.map((p) => `${p.name}|${p.coordinates.longitude},${p.coordinates.latitude}`).sort();

test('/places.kml is valid KML 2.2, groups by category with styles, and reads back to every place', async () => {
  const { body, response } = await text('/places.kml');
  assert.equal(response.headers.get('content-type'), 'application/vnd.google-earth.kml+xml; charset=utf-8');
  assert.ok(response.headers.get('last-modified') && response.headers.get('etag'));
  xmllint(body, 'ogckml22.xsd', 'places.kml');
  const all = await places();
  const geo = kmlToGeoJson(new DOMParser().parseFromString(body, 'text/xml') as unknown as Document);
  assert.deepEqual(positions(geo.features as never), expected(all));
  const categories = new Set(all.map((p) => (p as unknown as { category: string }).category));
  assert.equal((body.match(/<Folder>/g) ?? []).length, categories.size);
  assert.equal((body.match(/<Style id=/g) ?? []).length, categories.size);
  const link = /<atom:link href="http:\/\/localhost:4321(\/places\/itm_[0-9a-f]{24})"\/>/.exec(body);
  assert.ok(link, 'a detail link');
  const detail = await contractFetch(server.base + link[1]);
  assert.equal(detail.status, 200, 'the detail link resolves');
  assert.match(await detail.text(), /<h1>[^<]+<\/h1>/);
});

test('/places.gpx is valid GPX 1.1 and reads back to every place', async () => {
  const { body } = await text('/places.gpx');
  xmllint(body, 'gpx-1.1.xsd', 'places.gpx');
  const geo = gpxToGeoJson(new DOMParser().parseFromString(body, 'text/xml') as unknown as Document);
  assert.deepEqual(positions(geo.features as never), expected(await places()));
  assert.match(body, /<type>(food|coffee|bars|nature|entertainment|lodging|other)<\/type>/);
});

test('/places.geojson is valid RFC 7946 with the detail URL and maps link on every feature', async () => {
  const { body, response } = await text('/places.geojson');
  assert.equal(response.headers.get('content-type'), 'application/geo+json');
  const fc = checkGeoJson(body) as unknown as { features: { id: string; properties: Record<string, unknown>; geometry: { coordinates: number[] } }[] };
  const all = await places();
  assert.equal(fc.features.length, all.length);
  for (const f of fc.features) {
    assert.match(String(f.properties.detailUrl), /^http:\/\/localhost:4321\/places\/itm_/);
    assert.match(String(f.properties.mapsUrl), /^https:\/\/www\.openstreetmap\.org\//);
    for (const key of ['canonicalId', 'name', 'category', 'city', 'country']) assert.ok(f.properties[key] !== undefined, key);
  }
});

test('the same encoders answer Accept on filtered pages of /api/places.json', async () => {
  const query = '&category=food';
  const food = await places(query);
  const kml = (await text(`/api/places.json?limit=100${query}`, 'application/vnd.google-earth.kml+xml')).body;
  xmllint(kml, 'ogckml22.xsd', 'food.kml');
  assert.deepEqual(positions(kmlToGeoJson(new DOMParser().parseFromString(kml, 'text/xml') as unknown as Document).features as never), expected(food));
  const gpx = (await text(`/api/places.json?limit=100${query}`, 'application/gpx+xml')).body;
  xmllint(gpx, 'gpx-1.1.xsd', 'food.gpx');
  assert.deepEqual(positions(gpxToGeoJson(new DOMParser().parseFromString(gpx, 'text/xml') as unknown as Document).features as never), expected(food));
  const geojson = (await text(`/api/places.json?limit=100${query}`, 'application/geo+json')).body;
  assert.equal((checkGeoJson(geojson) as unknown as { features: unknown[] }).features.length, food.length);
});

test('altitude survives in every map format; an export with incomplete provenance is withheld with a 503', async () => {
  const root = join(scratch, 'fixture');
  mkdirSync(join(root, 'content/places'), { recursive: true });
  writeFileSync(
    join(root, 'content/places/peak.yaml'),
    '- name: Säntis summit\n  category: nature\n  city: Schwägalp\n  country: Switzerland\n  coordinates: { latitude: 47.2493, longitude: 9.3433, altitude: 2502 }\n  coordinatesSource: "geocoded:nominatim"\n',
  );
  compile({ contentDir: join(root, 'content'), imagePath: join(root, 'site.db'), clientDir: join(root, 'client'), secret: 's' });
  const image = new Image(join(root, 'site.db'));
  const refuse = withheldExport(image);
  const facts = (path: string) => ({ method: 'GET', url: new URL(`http://x${path}`), header: () => null });
  for (const path of ['/places.geojson', '/places.kml', '/places.gpx']) {
    const answer = refuse(facts(path));
    assert.equal(answer?.status, 503, path);
    assert.match(Buffer.from(answer!.body!).toString(), /location-provenance-incomplete/);
  }
  assert.equal(refuse(facts('/api/places.json')), undefined);
  image.close();
  writeFileSync(join(root, 'content/places/peak.yaml'), `${readFileSync(join(root, 'content/places/peak.yaml'), 'utf8')}  coordinatesLicense: ODbL-1.0\n`);
  compile({ contentDir: join(root, 'content'), imagePath: join(root, 'site2.db'), clientDir: join(root, 'client2'), secret: 's' });
  const kml = readFileSync(join(root, 'client2/places.kml'), 'utf8');
  assert.match(kml, /<coordinates>9\.3433,47\.2493,2502<\/coordinates>/);
  assert.match(readFileSync(join(root, 'client2/places.gpx'), 'utf8'), /<ele>2502<\/ele>/);
  assert.deepEqual((JSON.parse(readFileSync(join(root, 'client2/places.geojson'), 'utf8')) as { features: { geometry: { coordinates: number[] } }[] }).features[0]!.geometry.coordinates, [9.3433, 47.2493, 2502]);
  xmllint(kml, 'ogckml22.xsd', 'peak.kml');
});
