/**
 * Music intersection: name normalization, ID matches, strict contract with paths,
 * bounds (422 and 413), abstention, no percentage, determinism — on the pure function
 * and through the Web handler.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMusicFetchHandler } from '../../functions/music.ts';
import { intersect, normalizeName, type IntersectResult } from '../../src/taste/intersect.ts';
import { parseIntersectionRequest, type Profile } from '../../src/taste/music-request.ts';
import fc from '../helpers/fc.ts';
import { URLS } from '../../src/urls.ts';

export const CATALOG: Record<string, unknown>[] = [
  {
    canonicalId: 'music-001',
    type: 'track',
    title: 'Come Together',
    artist: 'The Beatles',
    album: 'Abbey Road',
    genres: ['rock'],
    stance: 'love',
    externalIds: { isrc: 'GBAYE6900520' },
  },
  { canonicalId: 'music-002', type: 'track', title: 'Something', artist: 'The Beatles', album: 'Abbey Road', genres: ['rock', 'pop'], stance: 'like' },
  {
    canonicalId: 'music-003',
    type: 'track',
    title: 'Jóga',
    artist: 'Björk',
    album: 'Homogenic',
    genres: ['electronic'],
    stance: 'love',
    externalIds: { spotify: '0123456789abcdefghijkl' },
  },
  {
    canonicalId: 'music-004',
    type: 'track',
    title: 'Teardrop',
    artist: 'Massive Attack',
    album: 'Mezzanine',
    genres: ['trip hop', 'electronic'],
    stance: 'like',
    externalIds: { musicbrainz: '11111111-2222-3333-4444-555555555555' },
  },
  { canonicalId: 'music-005', type: 'track', title: 'Roads', artist: 'Portishead', genres: ['trip hop'], stance: 'dislike' },
  {
    canonicalId: 'music-006',
    type: 'album',
    title: 'Abbey Road',
    artist: 'The Beatles',
    genres: ['rock'],
    stance: 'love',
    externalIds: { musicbrainz: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' },
  },
  {
    canonicalId: 'music-007',
    type: 'artist',
    title: 'Björk',
    artist: 'Björk',
    genres: ['electronic'],
    stance: 'love',
    externalIds: { musicbrainz: '87c5dedd-371d-4a53-9f7f-80522fb7f3cb' },
  },
  { canonicalId: 'music-008', type: 'track', title: 'Hunter', artist: 'Björk', album: 'Homogenic', genres: ['electronic'], stance: 'like' },
];

type Entries = Partial<Profile['music']>;
export const profile = (music: Entries): Profile => ({
  schemaVersion: '1',
  music: { artists: [], recordings: [], albums: [], genres: [], notes: [], ...music },
});

const handler = createMusicFetchHandler(CATALOG);
const post = (body: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://localhost${URLS.musicIntersections}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body }));

const ids = (r: IntersectResult) => r.matches.map((m) => m.canonicalId);

test('names are normalized: "The Beatles" = "beatles", diacritics and punctuation folded', () => {
  assert.equal(normalizeName('The Beatles'), normalizeName('beatles'));
  assert.equal(normalizeName('Björk'), normalizeName('BJORK'));
  assert.equal(normalizeName('Jóga!'), 'joga');
  assert.equal(normalizeName('  the  Who '), 'who');
  const r = intersect(
    CATALOG,
    profile({
      artists: [
        { name: 'beatles', stance: 'love' },
        { name: 'BJORK', stance: 'like' },
      ],
      recordings: [{ title: 'joga', artist: 'bjork', stance: 'love' }],
    }),
  );
  assert.equal(r.abstained, false);
  assert.deepEqual(ids(r), ['music-003', 'music-001', 'music-002', 'music-008']);
  assert.deepEqual(r.matches[0]!.reasons, ['same-recording-name', 'artist-match']);
  assert.deepEqual(r.matches[1]!.reasons, ['artist-match']);
  // Only tracks: the album and artist records never appear.
  assert.ok(ids(r).every((id) => CATALOG.find((c) => c.canonicalId === id)!.type === 'track'));
});

test('known IDs match (ISRC, Spotify, MusicBrainz recording, album and artist IDs)', () => {
  const r = intersect(
    CATALOG,
    profile({
      recordings: [
        { title: 'Different title', artist: 'Someone', stance: 'love', externalIds: { isrc: 'gb-aye-69-00520' } },
        { title: 'x', artist: 'y', stance: 'like', externalIds: { spotify: '0123456789abcdefghijkl' } },
        { title: 'x', artist: 'y', stance: 'like', externalIds: { musicbrainz: '11111111-2222-3333-4444-555555555555' } },
      ],
      albums: [{ title: 'Other name', artist: 'Other', stance: 'love', externalIds: { musicbrainz: 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE' } }],
      artists: [{ name: 'Unknown spelling', stance: 'like', externalIds: { musicbrainz: '87c5dedd-371d-4a53-9f7f-80522fb7f3cb' } }],
    }),
  );
  const reasons = Object.fromEntries(r.matches.map((m) => [m.canonicalId, m.reasons]));
  assert.deepEqual(reasons['music-001'], ['same-recording-isrc', 'album-match']);
  assert.deepEqual(reasons['music-003'], ['same-recording-spotify', 'artist-match']);
  assert.deepEqual(reasons['music-004'], ['same-recording-musicbrainz']);
  assert.deepEqual(reasons['music-002'], ['album-match']);
  assert.deepEqual(reasons['music-008'], ['artist-match']);
  assert.deepEqual(r.unmatched, { artists: 0, recordings: 0, albums: 0, genres: 0 });
});

test('unknown external-ID schemes are ignored (stripped), known ones kept', () => {
  const recording = { title: 'Come Together', artist: 'The Beatles', stance: 'love', externalIds: { isrc: 'GBAYE6900520', deezer: '123', tidal: 'x' } };
  const parsed = parseIntersectionRequest({
    profile: { schemaVersion: '1', music: { artists: [], recordings: [recording], albums: [], genres: [], notes: [] } },
  });
  assert.deepEqual(parsed.profile.music.recordings[0]!.externalIds, { isrc: 'GBAYE6900520' });
});

test('dislike entries never match and exclude; owner-disliked tracks are not shared taste; unmatched counts', () => {
  const r = intersect(
    CATALOG,
    profile({
      artists: [
        { name: 'The Beatles', stance: 'love' },
        { name: 'Nobody Known', stance: 'like' },
      ],
      recordings: [{ title: 'Something', artist: 'Beatles', stance: 'dislike' }],
      genres: [
        { name: 'Trip-Hop', stance: 'love' },
        { name: 'polka', stance: 'love' },
      ],
    }),
  );
  assert.deepEqual(ids(r), ['music-001', 'music-004']);
  assert.deepEqual(r.unmatched, { artists: 1, recordings: 0, albums: 0, genres: 1 });
  const only = intersect(
    CATALOG,
    profile({
      artists: [
        { name: 'Björk', stance: 'dislike' },
        { name: 'Beatles', stance: 'dislike' },
        { name: 'Portishead', stance: 'dislike' },
      ],
    }),
  );
  assert.equal(only.abstained, true);
  assert.equal(only.abstainReason, 'no-overlap');
  assert.deepEqual(only.matches, []);
});

test('abstains on a weak signal (fewer than 3 non-neutral entries) and on no overlap', () => {
  const weak = intersect(
    CATALOG,
    profile({
      artists: [
        { name: 'Beatles', stance: 'love' },
        { name: 'Björk', stance: 'neutral' },
        { name: 'Massive Attack', stance: 'neutral' },
      ],
    }),
  );
  assert.equal(weak.abstained, true);
  assert.equal(weak.abstainReason, 'too-few-signals');
  assert.deepEqual(weak.matches, []);
  const none = intersect(
    CATALOG,
    profile({
      genres: [
        { name: 'polka', stance: 'love' },
        { name: 'ska', stance: 'love' },
        { name: 'jazz', stance: 'like' },
      ],
    }),
  );
  assert.equal(none.abstained, true);
  assert.equal(none.abstainReason, 'no-overlap');
  assert.equal(none.unmatched.genres, 3);
});

const NO_PERCENT = /percent|compatib|score|similarity/i;
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) (out.push(k), keysOf(v, out));
  return out;
}

const stanceArb = fc.constantFrom('love', 'like', 'neutral', 'dislike' as const);
const nameArb = fc.oneof(
  fc.constantFrom('The Beatles', 'björk', 'Massive Attack', 'Portishead', 'rock', 'electronic', 'Come Together', 'Jóga', 'Abbey Road'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const profileArb = fc
  .record({
    artists: fc.array(fc.record({ name: nameArb, stance: stanceArb }), { maxLength: 6 }),
    recordings: fc.array(fc.record({ title: nameArb, artist: nameArb, stance: stanceArb }), { maxLength: 6 }),
    albums: fc.array(fc.record({ title: nameArb, artist: nameArb, stance: stanceArb }), { maxLength: 4 }),
    genres: fc.array(fc.record({ name: nameArb, stance: stanceArb }), { maxLength: 4 }),
  })
  .map((m) => profile(m as Entries));

test('property: deterministic, bounded, tracks only, ordered, no percentage field anywhere', () => {
  fc.assert(
    fc.property(profileArb, (p) => {
      const a = intersect(CATALOG, p);
      const b = intersect([...CATALOG].reverse(), structuredClone(p));
      assert.deepEqual(a, b);
      assert.ok(a.matches.length <= 100);
      assert.ok(keysOf(a).every((k) => !NO_PERCENT.test(k)));
      for (let i = 1; i < a.matches.length; i++) {
        const [x, y] = [a.matches[i - 1]!, a.matches[i]!];
        assert.ok(x.reasons.length > y.reasons.length || (x.reasons.length === y.reasons.length && x.canonicalId < y.canonicalId));
      }
      if (a.abstained) assert.deepEqual(a.matches, []);
      else assert.ok(a.matches.length > 0);
    }),
  );
});

test('handler: 200 with the result, no-store, common headers', async () => {
  const r = await post(
    JSON.stringify({
      profile: profile({
        artists: [
          { name: 'beatles', stance: 'love' },
          { name: 'bjork', stance: 'love' },
          { name: 'massive attack', stance: 'like' },
        ],
      }),
    }),
  );
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  assert.ok(r.headers.get('api-version'));
  const body = (await r.json()) as IntersectResult;
  assert.equal(body.schemaVersion, '1');
  assert.equal(body.abstained, false);
  assert.equal(body.matches.length, 5);
  assert.ok(!JSON.stringify(body).includes('%'));
});

async function problem(r: Response, status: number, slug: string): Promise<{ detail: string }> {
  assert.equal(r.status, status);
  assert.equal(r.headers.get('content-type'), 'application/problem+json');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const body = (await r.json()) as { type: string; detail: string };
  assert.equal(body.type, `/problems/${slug}`);
  return body;
}

test('unknown structural fields are rejected with the path, values never echoed', async () => {
  const base = profile({
    artists: [
      { name: 'a', stance: 'love' },
      { name: 'b', stance: 'love' },
      { name: 'c', stance: 'love' },
      { name: 'd', stance: 'love' },
    ],
  });
  const withArtistField = structuredClone(base) as unknown as { music: { artists: Record<string, unknown>[] } };
  withArtistField.music.artists[3]!.rating = 'SECRET-VALUE';
  let body = await problem(await post(JSON.stringify({ profile: withArtistField })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.music\.artists\[3\]\.rating`/);
  assert.ok(!body.detail.includes('SECRET-VALUE'));
  body = await problem(await post(JSON.stringify({ profile: base, extra: 1 })), 422, 'music-invalid');
  assert.match(body.detail, /`extra`/);
  body = await problem(await post(JSON.stringify({ profile: { ...base, music: { ...base.music, playlists: [] } } })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.music\.playlists`/);
  const badStance = structuredClone(base) as unknown as { music: { artists: Record<string, unknown>[] } };
  badStance.music.artists[3]!.stance = 'SECRET-STANCE';
  body = await problem(await post(JSON.stringify({ profile: badStance })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.music\.artists\[3\]\.stance`/);
  assert.ok(!body.detail.includes('SECRET-STANCE'));
  body = await problem(await post(JSON.stringify({ profile: { ...base, schemaVersion: '2' } })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.schemaVersion`/);
});

test('bounds: 501 items → 422 naming the list, long names → 422, too many schemes → 422', async () => {
  const many = profile({ genres: Array.from({ length: 501 }, () => ({ name: 'g', stance: 'like' as const })) });
  let body = await problem(await post(JSON.stringify({ profile: many })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.music\.genres`/);
  const long = profile({ artists: [{ name: 'x'.repeat(201), stance: 'love' }] });
  body = await problem(await post(JSON.stringify({ profile: long })), 422, 'music-invalid');
  assert.match(body.detail, /`profile\.music\.artists\[0\]\.name`/);
  const schemes = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'v']));
  body = await problem(
    await post(JSON.stringify({ profile: profile({ artists: [{ name: 'x', stance: 'love', externalIds: schemes }] }) })),
    422,
    'music-invalid',
  );
  assert.match(body.detail, /`profile\.music\.artists\[0\]\.externalIds`/);
  const notes = profile({ notes: Array.from({ length: 21 }, () => 'n') });
  await problem(await post(JSON.stringify({ profile: notes })), 422, 'music-invalid');
  const at500 = profile({ genres: Array.from({ length: 500 }, () => ({ name: 'g', stance: 'like' as const })) });
  assert.equal((await post(JSON.stringify({ profile: at500 }))).status, 200);
});

test('transport: 32 KiB + 1 → 413, wrong media type → 415, bad JSON → 400, other methods → 405 + Allow, preflight', async () => {
  const pad = ' '.repeat(32 * 1024 + 1 - 2);
  await problem(await post(`{}${pad}`), 413, 'music-too-large');
  const exact = JSON.stringify({ profile: profile({}) });
  assert.equal((await post(exact + ' '.repeat(32 * 1024 - exact.length))).status, 200);
  await problem(await post('{}', { 'Content-Type': 'text/plain' }), 415, 'music-media-type');
  // 415 is decided before 413, as for SQL.
  await problem(await post(`{}${pad}`, { 'Content-Type': 'text/plain' }), 415, 'music-media-type');
  await problem(await post('{"profile": '), 400, 'music-malformed');
  await problem(await post(''), 400, 'music-malformed');
  const get = await handler(new Request(`http://localhost${URLS.musicIntersections}`));
  await problem(get, 405, 'method-not-allowed');
  assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  const options = await handler(new Request(`http://localhost${URLS.musicIntersections}`, { method: 'OPTIONS' }));
  assert.equal(options.status, 204);
  assert.match(options.headers.get('access-control-allow-methods')!, /POST/);
  assert.equal(options.headers.get('cache-control'), 'no-store');
});
