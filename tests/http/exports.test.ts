/**
 * The geographic exports and the map formats of the REST lists, checked with tools no
 * one here wrote: libxml2 (xmllint-wasm) against the OGC KML 2.2 and GPX 1.1 schemas,
 * check-geojson for RFC 7946, and @tmcw/togeojson reading KML and GPX back to the same
 * names and positions.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import { gpx as gpxToGeoJson, kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { createWithheldExportHandler } from '../../functions/exports.ts';
import { compile } from '../../src/compile/compile.ts';
import { Image } from '../../src/core/image.ts';
import { contractFetch } from '../helpers/contract.ts';
import { walkRest } from '../helpers/rest-pages.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { assertValidXml } from '../helpers/xml.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const scratch = mkdtempSync(join(tmpdir(), 'exports-'));

async function text(path: string, accept?: string): Promise<{ body: string; response: Response }> {
  const response = await contractFetch(server.base + path, accept ? { headers: { Accept: accept } } : {});
  assert.equal(response.status, 200, path);
  return { body: await response.text(), response };
}

interface Place {
  canonicalId: string;
  name: string;
  coordinates: { latitude: number; longitude: number; altitude?: number };
}

const places = async (query = ''): Promise<Place[]> => (await walkRest<Place>(server.base, `/api/places.json?limit=100${query}`)).data;

const positions = (features: { geometry: { coordinates: number[] } | null; properties: Record<string, unknown> | null }[]) =>
  features.map((f) => `${f.properties?.name}|${f.geometry!.coordinates.slice(0, 2).join(',')}`).sort();
const expected = (items: Place[]) => items.map((p) => `${p.name}|${p.coordinates.longitude},${p.coordinates.latitude}`).sort();

test('/places.kml is valid KML 2.2, groups by category with styles, and reads back to every place', async () => {
  const { body, response } = await text('/places.kml');
  assert.equal(response.headers.get('content-type'), 'application/vnd.google-earth.kml+xml; charset=utf-8');
  assert.ok(response.headers.get('last-modified') && response.headers.get('etag'));
  await assertValidXml(body, 'kml', 'places.kml');
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
  assert.match(await detail.text(), /<h1[^>]*>[^<]+<\/h1>/);
});

test('/places.gpx is valid GPX 1.1 and reads back to every place', async () => {
  const { body } = await text('/places.gpx');
  await assertValidXml(body, 'gpx', 'places.gpx');
  const geo = gpxToGeoJson(new DOMParser().parseFromString(body, 'text/xml') as unknown as Document);
  assert.deepEqual(positions(geo.features as never), expected(await places()));
  assert.match(body, /<type>(food|coffee|bars|nature|entertainment|lodging|other)<\/type>/);
});

test('the schema checks reject an export broken in one place, and a document of the other format', async () => {
  const kml = (await text('/places.kml')).body;
  const gpx = (await text('/places.gpx')).body;
  const noLat = gpx.replace(/<wpt lat="[^"]+"/, '<wpt');
  assert.notEqual(noLat, gpx);
  await assert.rejects(
    assertValidXml(noLat, 'gpx', 'no-lat.gpx'),
    /Element '\{http:\/\/www\.topografix\.com\/GPX\/1\/1\}wpt': The attribute 'lat' is required but missing/,
  );
  // atom:link is declared by the imported Atom schema: the imports are loaded, not skipped.
  const noHref = kml.replace(/<atom:link href="[^"]+"\/>/, '<atom:link/>');
  assert.notEqual(noHref, kml);
  await assert.rejects(
    assertValidXml(noHref, 'kml', 'no-href.kml'),
    /Element '\{http:\/\/www\.w3\.org\/2005\/Atom\}link': The attribute 'href' is required but missing/,
  );
  const offTheGlobe = gpx.replace(/<wpt lat="[^"]+"/, '<wpt lat="91"');
  await assert.rejects(
    assertValidXml(offTheGlobe, 'gpx', 'lat-91.gpx'),
    /lat-91\.gpx:\d+: Schemas validity error : Element '\{[^}]+\}wpt', attribute 'lat': \[facet 'maxInclusive'\]/,
  );
  await assert.rejects(assertValidXml(gpx, 'kml', 'gpx-as.kml'), /No matching global declaration available for the validation root/);
  await assert.rejects(assertValidXml(kml.slice(0, -20), 'kml', 'truncated.kml'), /parser error/);
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
  await assertValidXml(kml, 'kml', 'food.kml');
  assert.deepEqual(positions(kmlToGeoJson(new DOMParser().parseFromString(kml, 'text/xml') as unknown as Document).features as never), expected(food));
  const gpx = (await text(`/api/places.json?limit=100${query}`, 'application/gpx+xml')).body;
  await assertValidXml(gpx, 'gpx', 'food.gpx');
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
  const refuse = createWithheldExportHandler(image);
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
  assert.deepEqual(
    (JSON.parse(readFileSync(join(root, 'client2/places.geojson'), 'utf8')) as { features: { geometry: { coordinates: number[] } }[] }).features[0]!.geometry
      .coordinates,
    [9.3433, 47.2493, 2502],
  );
  await assertValidXml(kml, 'kml', 'peak.kml');
});

test('a name written with entity-like text (&amp;, &lt;) and line ends reads back from KML and GPX as written', async () => {
  const root = join(scratch, 'entities');
  mkdirSync(join(root, 'content/places'), { recursive: true });
  writeFileSync(
    join(root, 'content/places/entities.yaml'),
    [
      '- name: "Fish &amp; Chips &lt;3 &nbsp;"',
      '  category: food',
      '  city: "A&B"',
      '  country: Portugal',
      '  notes: "first line\\r\\nsecond & third\\rfourth"',
      '  coordinates: { latitude: 38.7, longitude: -9.1 }',
      '  coordinatesSource: manual',
      '',
    ].join('\n'),
  );
  compile({ contentDir: join(root, 'content'), imagePath: join(root, 'site.db'), clientDir: join(root, 'client'), secret: 's' });
  const kml = readFileSync(join(root, 'client/places.kml'), 'utf8');
  const gpx = readFileSync(join(root, 'client/places.gpx'), 'utf8');
  await assertValidXml(kml, 'kml', 'entities.kml');
  await assertValidXml(gpx, 'gpx', 'entities.gpx');
  const name = 'Fish &amp; Chips &lt;3 &nbsp;';
  const fromKml = kmlToGeoJson(new DOMParser().parseFromString(kml, 'text/xml') as unknown as Document).features[0]!.properties!;
  assert.equal(fromKml.name, name);
  assert.equal(fromKml.description, 'first line\r\nsecond & third\rfourth');
  assert.equal(fromKml.city, 'A&B');
  assert.equal(gpxToGeoJson(new DOMParser().parseFromString(gpx, 'text/xml') as unknown as Document).features[0]!.properties!.name, name);
});
