/**
 * Programmable station: exclusions and recent IDs are never returned, answers are
 * bounded and deterministic, a failing similarity dependency degrades without losing an
 * exclusion, and the request contract is strict (any added key anywhere → 422).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMusicFetchHandler } from '../../functions/music.ts';
import { normalizeName } from '../../src/taste/intersect.ts';
import type { StationRequest } from '../../src/taste/music-request.ts';
import { buildSimilarityIndex, station, type StationResult } from '../../src/taste/station.ts';
import fc from '../helpers/fc.ts';
import { URLS } from '../../src/urls.ts';

const ARTISTS = ['The Beatles', 'Björk', 'Massive Attack', 'Portishead', 'Nina Simone', 'Daft Punk'];
const GENRES = ['rock', 'electronic', 'trip hop', 'jazz', 'soul', 'house'];
const CATALOG: Record<string, unknown>[] = [
  ...Array.from({ length: 30 }, (_, i) => ({
    canonicalId: `music-${String(i).padStart(3, '0')}`,
    type: 'track',
    title: `Song ${i}`,
    artist: ARTISTS[i % ARTISTS.length],
    genres: [GENRES[i % GENRES.length], GENRES[(i * 7 + 1) % GENRES.length]],
    stance: (['love', 'like', 'neutral', 'dislike'] as const)[i % 4],
  })),
  { canonicalId: 'music-900', type: 'album', title: 'An album', artist: 'The Beatles', genres: ['rock'], stance: 'love' },
  { canonicalId: 'music-901', type: 'artist', title: 'Björk', artist: 'Björk', genres: ['electronic'], stance: 'love' },
];
const TRACK_IDS = CATALOG.filter((r) => r.type === 'track').map((r) => r.canonicalId as string);
const byId = new Map(CATALOG.map((r) => [r.canonicalId as string, r]));

const request = (over: Partial<StationRequest> = {}): StationRequest => ({
  schemaVersion: '1',
  stationSeed: 'seed',
  affinities: [],
  votes: [],
  hardExclusions: [],
  recentCanonicalIds: [],
  limit: 6,
  ...over,
});

const kindArb = fc.constantFrom('artist' as const, 'genre' as const, 'track' as const);
const valueFor = (kind: 'artist' | 'genre' | 'track') =>
  kind === 'artist'
    ? fc.constantFrom(...ARTISTS, 'beatles', 'BJORK')
    : kind === 'genre'
      ? fc.constantFrom(...GENRES, 'Trip-Hop')
      : fc.oneof(fc.constantFrom(...TRACK_IDS), fc.constantFrom('Song 3', 'song 12'));
const affinityArb = kindArb.chain((kind) => fc.record({ kind: fc.constant(kind), value: valueFor(kind), weight: fc.double({ min: -1, max: 1, noNaN: true }) }));
const exclusionArb = kindArb.chain((kind) => fc.record({ kind: fc.constant(kind), value: valueFor(kind) }));
const requestArb: fc.Arbitrary<StationRequest> = fc.record(
  {
    schemaVersion: fc.constant('1' as const),
    stationSeed: fc.string({ maxLength: 64 }),
    affinities: fc.array(affinityArb, { maxLength: 8 }),
    votes: fc.array(fc.record({ canonicalId: fc.constantFrom(...TRACK_IDS), vote: fc.constantFrom('up' as const, 'down' as const) }), { maxLength: 8 }),
    hardExclusions: fc.array(exclusionArb, { maxLength: 4 }),
    recentCanonicalIds: fc.array(fc.constantFrom(...TRACK_IDS), { maxLength: 12 }),
    limit: fc.integer({ min: 1, max: 6 }),
    intent: fc.constantFrom('some jazz for dinner', 'anything'),
    context: fc.constantFrom('focus' as const, 'workout' as const, 'commute' as const, 'dinner' as const, 'party' as const, 'sleep' as const),
  },
  { requiredKeys: ['schemaVersion', 'stationSeed', 'affinities', 'votes', 'hardExclusions', 'recentCanonicalIds', 'limit'] },
);

function assertHonours(req: StationRequest, result: StationResult): void {
  assert.ok(result.tracks.length <= req.limit && result.tracks.length <= 6);
  assert.equal(new Set(result.tracks.map((t) => t.canonicalId)).size, result.tracks.length);
  const recent = new Set(req.recentCanonicalIds);
  for (const t of result.tracks) {
    const record = byId.get(t.canonicalId)!;
    assert.equal(record.type, 'track');
    assert.ok(!recent.has(t.canonicalId), `recent ${t.canonicalId} returned`);
    assert.ok(!req.votes.some((v) => v.vote === 'down' && v.canonicalId === t.canonicalId), 'down-voted returned');
    assert.ok(t.reasons.length > 0);
    for (const ex of req.hardExclusions) {
      const v = normalizeName(ex.value);
      if (ex.kind === 'artist') assert.notEqual(normalizeName(record.artist as string), v);
      if (ex.kind === 'genre') assert.ok(!(record.genres as string[]).some((g) => normalizeName(g) === v));
      if (ex.kind === 'track') assert.ok(t.canonicalId !== ex.value && normalizeName(record.title as string) !== v);
    }
  }
}

const similar = buildSimilarityIndex(CATALOG);
const failing = () => {
  throw new Error('similarity index down');
};

test('property: hard exclusions, recent and down-voted IDs are never returned; at most `limit` tracks', () => {
  fc.assert(
    fc.property(requestArb, (req) => {
      assertHonours(req, station(CATALOG, req, { similar }));
      assertHonours(req, station(CATALOG, req, {}));
    }),
  );
});

test('property: the same input gives the same output (seeded, no clock, no Math.random)', () => {
  fc.assert(
    fc.property(requestArb, (req) => {
      const random = Math.random;
      Math.random = () => {
        throw new Error('Math.random used');
      };
      try {
        const a = station(CATALOG, req, { similar });
        const b = station(structuredClone(CATALOG), structuredClone(req), { similar: buildSimilarityIndex(CATALOG) });
        assert.deepEqual(a, b);
      } finally {
        Math.random = random;
      }
    }),
  );
});

test('property: a failing similarity dependency answers degraded, bounded, and still honours every exclusion', () => {
  fc.assert(
    fc.property(requestArb, (req) => {
      const up = { ...req, votes: [...req.votes.filter((v) => v.canonicalId !== TRACK_IDS[0]), { canonicalId: TRACK_IDS[0]!, vote: 'up' as const }] };
      const result = station(CATALOG, up, { similar: failing });
      assert.equal(result.status, 'degraded');
      assert.equal(result.degradedReason, 'similarity-unavailable');
      assertHonours(up, result);
    }),
  );
});

test('scoring: affinities, votes and similarity shape the pick; the seed only breaks ties', () => {
  const jazz = station(CATALOG, request({ affinities: [{ kind: 'genre', value: 'Jazz', weight: 1 }] }), { similar });
  assert.equal(jazz.status, 'ok');
  assert.equal(jazz.tracks.length, 6);
  for (const t of jazz.tracks) assert.ok((byId.get(t.canonicalId)!.genres as string[]).includes('jazz'));
  const up = station(CATALOG, request({ votes: [{ canonicalId: 'music-001', vote: 'up' }] }), { similar });
  assert.equal(up.tracks[0]!.canonicalId, 'music-001');
  assert.ok(up.tracks.slice(1).some((t) => t.reasons.includes('similar-to-upvoted')));
  const hated = station(CATALOG, request({ affinities: [{ kind: 'artist', value: 'Daft Punk', weight: -1 }] }), { similar });
  assert.ok(hated.tracks.every((t) => byId.get(t.canonicalId)!.artist !== 'Daft Punk'));
  const a = station(CATALOG, request({ stationSeed: 'a' }), { similar });
  const b = station(CATALOG, request({ stationSeed: 'b' }), { similar });
  assert.notDeepEqual(
    a.tracks.map((t) => t.canonicalId),
    b.tracks.map((t) => t.canonicalId),
  );
  const everything = station(CATALOG, request({ hardExclusions: ARTISTS.map((value) => ({ kind: 'artist' as const, value })) }), { similar });
  assert.deepEqual(everything.tracks, []);
});

const handler = createMusicFetchHandler(CATALOG);
const post = (body: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://localhost${URLS.musicStation}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body }));

test('handler: 200, degraded through an injected failing dependency, transport errors', async () => {
  const ok = await post(JSON.stringify(request({ limit: 3, intent: 'late jazz', context: 'dinner' })));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  const body = (await ok.json()) as StationResult;
  assert.equal(body.status, 'ok');
  assert.equal(body.tracks.length, 3);
  const broken = createMusicFetchHandler(CATALOG, { similar: failing });
  const req = request({
    votes: [{ canonicalId: 'music-002', vote: 'up' }],
    recentCanonicalIds: ['music-008'],
    hardExclusions: [{ kind: 'artist', value: 'beatles' }],
  });
  const degraded = (await (
    await broken(
      new Request(`http://localhost${URLS.musicStation}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req) }),
    )
  ).json()) as StationResult;
  assert.equal(degraded.status, 'degraded');
  assertHonours(req, degraded);
  assert.equal((await post('{}'.padEnd(24 * 1024 + 1, ' '))).status, 413);
  assert.equal((await post(JSON.stringify(request()), { 'Content-Type': 'application/x-www-form-urlencoded' })).status, 415);
  assert.equal((await post('{')).status, 400);
  const put = await handler(new Request(`http://localhost${URLS.musicStation}`, { method: 'PUT', body: '{}' }));
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'POST, OPTIONS');
  for (const [over, path] of [
    [{ limit: 7 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ stationSeed: 'x'.repeat(65) }, 'stationSeed'],
    [{ affinities: [{ kind: 'artist', value: 'x', weight: 1.5 }] }, 'affinities[0].weight'],
    [{ context: 'rave' }, 'context'],
    [{ intent: 'x'.repeat(141) }, 'intent'],
    [{ recentCanonicalIds: Array.from({ length: 201 }, () => 'm') }, 'recentCanonicalIds'],
  ] as const) {
    const r = await post(JSON.stringify({ ...request(), ...over }));
    assert.equal(r.status, 422, path);
    const detail = ((await r.json()) as { detail: string }).detail;
    assert.ok(detail.includes(`\`${path}\``), `${path}: ${detail}`);
  }
});

/** Every object in a JSON value, with its path. */
function objects(value: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; object: Record<string, unknown> }[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => objects(v, [...path, i], out));
  else if (typeof value === 'object' && value !== null) {
    out.push({ path, object: value as Record<string, unknown> });
    for (const [k, v] of Object.entries(value)) objects(v, [...path, k], out);
  }
  return out;
}

test('property: adding any unknown key anywhere → 422 naming the path', async () => {
  await fc.assert(
    fc.asyncProperty(requestArb, fc.nat(), fc.stringMatching(/^[a-z][A-Za-z0-9]{0,11}$/), fc.jsonValue({ maxDepth: 2 }), async (req, pick, key, value) => {
      const copy = structuredClone(req) as unknown;
      const targets = objects(copy);
      const target = targets[pick % targets.length]!;
      fc.pre(!Object.hasOwn(target.object, key));
      target.object[key] = value;
      const r = await post(JSON.stringify(copy));
      assert.equal(r.status, 422);
      const detail = ((await r.json()) as { detail: string }).detail;
      const expected = [...target.path, key].map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
      assert.ok(detail.includes(`\`${expected}\``), `${expected}: ${detail}`);
    }),
    { numRuns: 100 },
  );
});
