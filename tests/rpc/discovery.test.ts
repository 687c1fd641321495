/**
 * Discovery and taste over RPC: `recommend` ranks only within the candidate selection
 * passed by capability, abstains on a signal-free intent, and grounds each pick in named
 * record fields; the taste members answer what the taste and music endpoints answer for
 * the same input.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newHttpBatchRpcSession, newWebSocketRpcSession, RpcTarget } from 'capnweb';
import { fold } from '../../src/core/fold.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { startRpcServer, type RpcServer } from './server.ts';

let server: RpcServer;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 100_000 } });
});
after(() => server.close());

const batch = () => newHttpBatchRpcSession<Root>(server.rpcUrl);
const getJson = async (path: string) => (await (await fetch(`${server.base}${path}`)).json()) as unknown;
const postJson = async (path: string, body: unknown) =>
  (await (
    await fetch(`${server.base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  ).json()) as unknown;

test('recommend picks only from the candidate selection passed by capability, grounded in named fields', async () => {
  const api = batch();
  const candidates = api.content.movies.matching({ type: 'movie' }).first(100);
  const recommendations = api.discovery.recommend({ intent: 'Tokyo drama', limit: 3 }, candidates);
  const [picks, pool, items] = await Promise.all([recommendations.records(), candidates.records(), recommendations.items()]);
  assert.ok(picks.length > 0 && picks.length <= 3);
  const poolIds = new Set(pool.map((r) => r.canonicalId));
  for (const pick of picks) assert.ok(poolIds.has(pick.canonicalId), 'every pick is a candidate');
  assert.deepEqual(
    items.map((i) => i.canonicalId),
    picks.map((p) => p.canonicalId),
  );
  const explained = newHttpBatchRpcSession<Root>(server.rpcUrl);
  const again = explained.discovery.recommend({ intent: 'Tokyo drama', limit: 3 }, explained.content.movies.matching({ type: 'movie' }).first(100));
  const explanation = await again.explain({ canonicalId: picks[0]!.canonicalId });
  assert.ok(explanation.evidenceDetails.length > 0);
  const record = picks[0] as unknown as Record<string, unknown>;
  for (const evidence of explanation.evidenceDetails.filter((e) => e.code === 'field-mentions-intent')) {
    for (const field of evidence.fields) {
      const value = record[field];
      const text = fold(Array.isArray(value) ? value.join(' ') : String(value));
      assert.ok(
        ['tokyo', 'drama'].some((word) => text.includes(word)),
        `${field} holds an intent word`,
      );
    }
  }
  // Candidates of another collection: picks come from there only.
  const places = newHttpBatchRpcSession<Root>(server.rpcUrl);
  const placePicks = await places.discovery.recommend({ intent: 'Tokyo' }, places.content.places.first(100)).items();
  for (const item of placePicks) assert.equal(item.collection, 'places');
});

test('candidates must be a selection of the session: a target of the client’s own is refused without being called', async () => {
  let called = 0;
  class Forged extends RpcTarget {
    records() {
      called += 1;
      return [{ canonicalId: 'itm_000000000000000000000000', title: 'Tokyo' }];
    }
    items() {
      called += 1;
      return [];
    }
  }
  const api = newWebSocketRpcSession<Root>(server.wsUrl);
  try {
    const refused = await Promise.allSettled([api.discovery.recommend({ intent: 'Tokyo' }, new Forged()).records()]);
    assert.equal((refused[0] as PromiseRejectedResult).reason.code, 'INVALID_ARGUMENT');
    assert.equal(called, 0, 'no call back into the client');
  } finally {
    api[Symbol.dispose]();
  }
});

test('recommend abstains on a signal-free intent: no picks, nothing explained', async () => {
  const api = batch();
  const recommendations = api.discovery.recommend({ intent: 'something good please' }, api.content.movies.first(100));
  const [picks, missing] = await Promise.allSettled([recommendations.records(), recommendations.explain({ canonicalId: 'itm_000000000000000000000000' })]);
  assert.deepEqual((picks as PromiseFulfilledResult<unknown[]>).value, []);
  assert.equal((missing as PromiseRejectedResult).reason.code, 'NOT_FOUND');
});

test('taste.summary and taste.profile are the taste documents', async () => {
  const api = batch();
  const [summary, limited, profile] = await Promise.all([api.taste.summary(), api.taste.summary({ exampleLimit: 2 }), api.taste.profile()]);
  assert.deepEqual(summary, await getJson('/api/taste/summary.json'));
  assert.deepEqual(limited, await getJson('/api/taste/summary.json?exampleLimit=2'));
  assert.deepEqual(profile, await getJson('/.well-known/taste-profile.json'));
  const bad = await Promise.allSettled([batch().taste.summary({ exampleLimit: 'many' as never })]);
  assert.equal((bad[0] as PromiseRejectedResult).reason.code, 'INVALID_ARGUMENT');
});

test('taste.music.intersect and station answer as the music POSTs for the same body', async () => {
  const profile = (await getJson('/.well-known/taste-profile.json')) as { schemaVersion: '1'; music: Record<string, unknown> };
  const station = { schemaVersion: '1', stationSeed: 'seed', affinities: [], votes: [], hardExclusions: [], recentCanonicalIds: [], limit: 6 };
  const api = batch();
  const [intersection, tracks] = await Promise.all([api.taste.music.intersect({ profile: profile as never }), api.taste.music.station(station)]);
  assert.deepEqual(intersection, await postJson('/api/music/intersections.json', { profile }));
  assert.deepEqual(tracks, await postJson('/api/music/station.json', station));
  const invalid = await Promise.allSettled([batch().taste.music.station({ ...station, limit: 7 })]);
  const reason = (invalid[0] as PromiseRejectedResult).reason as { code: string; message: string };
  assert.equal(reason.code, 'INVALID_ARGUMENT');
  assert.match(reason.message, /^station\(input\): `limit`/);
});
