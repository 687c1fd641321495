/**
 * `taste.recommend` and `places.plan` through the SDK client, each result checked against
 * its outputSchema by the outside validator: recommendations abstain on signal-free
 * requests before reading anything and are grounded in named fields otherwise; plans
 * order located places with great-circle distances recomputed here independently.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { schemaErrors, serveWithTools, type Served } from './helpers.ts';

let served: Served;
let client: Client;
let tools: Map<string, Tool>;
before(async () => ({ served, client, tools } = await serveWithTools()));
after(async () => {
  await client.close();
  await served.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  if (!result.isError) assert.equal(await schemaErrors(tools.get(name)!.outputSchema!, result.structuredContent), undefined, name);
  return result;
}

const rest = async (path: string) =>
  (await fetch(new URL(path, served.base))).json() as Promise<{ data: Record<string, unknown>[]; meta: { facets?: Record<string, { value: string }[]> } }>;

test('taste.recommend abstains before retrieval on signal-free requests, saying what would help', async () => {
  // Runs first, so no collection has been read for recommendations yet: a retrieval would call core.records.
  const core = served.runtime.core;
  const records = core.records.bind(core);
  let reads = 0;
  core.records = (c) => {
    reads++;
    return records(c);
  };
  for (const intent of ['', 'anything', 'recommend something', 'What should I watch tonight?', 'surprise me please']) {
    const result = await call('taste.recommend', { intent: intent || ' ' });
    const out = result.structuredContent as {
      abstained: boolean;
      abstainReason: string;
      needs: string;
      recommendations: unknown[];
      selection: { method: string };
    };
    assert.equal(out.abstained, true, intent);
    assert.equal(out.abstainReason, 'no-signal');
    assert.match(out.needs, /genre/);
    assert.equal(out.recommendations.length, 0);
    assert.equal(out.selection.method, 'abstention');
  }
  assert.equal((await client.callTool({ name: 'taste.recommend', arguments: { intent: '' } })).isError, true, 'an empty intent is refused by the input schema');
  assert.equal(reads, 0, 'no record was read');
  core.records = records;
});

test('taste.recommend grounds each pick in the named fields it matched', async () => {
  const movies = (await rest('/api/movies.json?facets=1&limit=1')).meta.facets!;
  const genre = movies.genre![0]!.value;
  const result = await call('taste.recommend', { intent: `a ${genre} film for tonight`, limit: 5 });
  const out = result.structuredContent as {
    abstained: boolean;
    collections: string[];
    recommendations: { canonicalId: string; collection: string; evidenceDetails: { code: string; fields: string[] }[] }[];
    total: number;
    evidence: string;
  };
  assert.equal(out.abstained, false);
  assert.deepEqual(out.collections, ['movies'], '"film" chooses the collection');
  assert.ok(out.recommendations.length > 0 && out.recommendations.length <= 5);
  for (const pick of out.recommendations) {
    assert.ok(pick.evidenceDetails.some((d) => d.code === 'genre-match' && d.fields.includes('genres')));
    const item = (await rest(`/api/movies.json?genre=${encodeURIComponent(genre)}&limit=100`)).data.find((d) => d.canonicalId === pick.canonicalId);
    assert.ok(item, 'the record really has the genre');
  }
  const none = await call('taste.recommend', { intent: 'zzzqqq xylophone polka', collection: 'books' });
  assert.equal((none.structuredContent as { abstainReason: string }).abstainReason, 'no-match');
});

const haversine = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const toRad = (d: number) => (d * Math.PI) / 180;
  const s =
    Math.sin(toRad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(toRad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(s));
};

test('places.plan orders a city’s places nearest-next with approximate straight-line distances', async () => {
  const city = (await rest('/api/places.json?facets=1&limit=1')).meta.facets!.city![0]!.value;
  const result = await call('places.plan', { city, limit: 4 });
  const out = result.structuredContent as {
    stops: { canonicalId: string; place: { city: string; coordinates: { latitude: number; longitude: number } }; distanceFromPreviousKm?: number }[];
    approximate: boolean;
    note: string;
    totalDistanceKm: number;
  };
  assert.equal(out.approximate, true);
  assert.match(out.note, /approximate straight-line/);
  assert.match(result.content[0]!.text, /approximate straight-line/);
  assert.ok(out.stops.length >= 2);
  let total = 0;
  for (let i = 1; i < out.stops.length; i++) {
    const km = haversine(out.stops[i - 1]!.place.coordinates, out.stops[i]!.place.coordinates);
    total += km;
    assert.ok(Math.abs(out.stops[i]!.distanceFromPreviousKm! - km) < 0.01);
    // Nearest next: no later stop is closer to the previous one.
    for (const later of out.stops.slice(i + 1)) assert.ok(haversine(out.stops[i - 1]!.place.coordinates, later.place.coordinates) >= km - 1e-9);
  }
  assert.ok(Math.abs(out.totalDistanceKm - total) < 0.02);
  for (const stop of out.stops) assert.equal(stop.place.city, city);
  const ids = out.stops.map((s) => s.canonicalId);
  const fromIds = await call('places.plan', { placeIds: [...ids, 'itm_ffffffffffffffffffffffff'], startId: ids.at(-1) });
  const planned = fromIds.structuredContent as { stops: { canonicalId: string }[]; skipped: { canonicalId: string }[] };
  assert.equal(planned.stops[0]!.canonicalId, ids.at(-1));
  assert.deepEqual(
    planned.skipped.map((s) => s.canonicalId),
    ['itm_ffffffffffffffffffffffff'],
  );
  const nothing = await call('places.plan', {});
  assert.equal(nothing.isError, true);
  assert.match(nothing.content[0]!.text, /device location/);
});
