/**
 * The portable music taste profile: the exact profile of a fixture, validity against
 * TASTE_PROFILE_SCHEMA (hyperjump), determinism under input shuffles, and the bounds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerSchema, validate, type Output } from '@hyperjump/json-schema/draft-2020-12';
import fc from '../helpers/fc.ts';
import { LIMIT_DEFINITIONS } from '../../src/core/limits.ts';
import { tasteProfile } from '../../src/taste/profile.ts';
import { TASTE_PROFILE_SCHEMA } from '../../src/taste/profile-schema.ts';

const AS_OF = '2026-11-01T12:00:00Z';
const SCHEMA_URI = 'https://collections.test/schemas/taste-profile-1.json';
registerSchema(structuredClone(TASTE_PROFILE_SCHEMA) as never, SCHEMA_URI);

async function isValid(value: unknown): Promise<Output> {
  return validate(SCHEMA_URI, value as never, 'BASIC');
}
async function assertValid(value: unknown): Promise<void> {
  const output = await isValid(value);
  assert.equal(output.valid, true, JSON.stringify(output, null, 2));
}

const MBID_BJORK = '87c5dedd-371d-4a53-9f7f-80522fb7f3cb';
const MBID_KID_A = 'b8048f24-c026-3398-b23a-b5e50716be4d';
const LONG = 'z'.repeat(400);

const MUSIC: Record<string, unknown>[] = [
  {
    canonicalId: 'm1',
    type: 'artist',
    title: 'Björk',
    artist: 'Björk',
    genres: ['Art Pop', 'Electronic'],
    stance: 'love',
    addedAt: '2024-01-01',
    externalIds: { musicbrainz: MBID_BJORK },
    notes: 'Always.',
  },
  {
    canonicalId: 'm2',
    type: 'track',
    title: 'Jóga',
    artist: 'Björk',
    album: 'Homogenic',
    genres: ['Electronic'],
    stance: 'love',
    addedAt: '2024-02-01',
    externalIds: { isrc: 'GBAAA9700001', spotify: '0123456789abcdefABCDEF' },
  },
  { canonicalId: 'm3', type: 'track', title: 'Windowlicker', artist: 'Aphex Twin', genres: ['Electronic'], stance: 'love', addedAt: '2025-01-01', notes: LONG },
  {
    canonicalId: 'm4',
    type: 'album',
    title: 'Kid A',
    artist: 'Radiohead',
    genres: ['Art Rock', 'electronic'],
    stance: 'like',
    addedAt: '2024-03-01',
    externalIds: { musicbrainz: MBID_KID_A },
  },
  { canonicalId: 'm5', type: 'track', title: 'Creep', artist: 'Radiohead', genres: ['Alternative Rock'], stance: 'dislike', addedAt: '2024-03-02' },
  { canonicalId: 'm6', type: 'album', title: 'Selected Ambient Works 85-92', artist: 'aphex twin', genres: ['Ambient'], stance: 'love', addedAt: '2024-03-03' },
  { canonicalId: 'm7', type: 'artist', title: 'Nickelback', artist: 'Nickelback', genres: ['Rock'], stance: 'dislike', addedAt: '2024-03-04' },
  {
    canonicalId: 'm8',
    type: 'track',
    title: 'So What',
    artist: 'Miles Davis',
    album: 'Kind of Blue',
    genres: ['Jazz'],
    stance: 'neutral',
    addedAt: '2024-03-05',
  },
  { canonicalId: 'm9', type: 'album', title: 'Kind of Blue', artist: 'Miles Davis', genres: ['Jazz'], stance: 'like', addedAt: '2024-03-06', notes: 'Modal.' },
  {
    canonicalId: 'm10',
    type: 'track',
    title: 'Hidden',
    artist: 'Secret',
    genres: ['Secret Genre'],
    stance: 'love',
    addedAt: '2026-01-01',
    visibility: 'private',
    notes: 'private',
  },
];

test('the fixture gives exactly this profile', () => {
  assert.deepEqual(tasteProfile(MUSIC, AS_OF), {
    schemaVersion: '1',
    music: {
      artists: [
        // Aphex Twin comes from loved work (two spellings, one entry); Björk's artist record wins over her loved track.
        { name: 'Aphex Twin', stance: 'love' },
        { name: 'Björk', stance: 'love', externalIds: { musicbrainz: MBID_BJORK } },
        { name: 'Nickelback', stance: 'dislike' },
      ],
      recordings: [
        { title: 'Creep', artist: 'Radiohead', stance: 'dislike' },
        { title: 'Jóga', artist: 'Björk', stance: 'love', externalIds: { isrc: 'GBAAA9700001', spotify: '0123456789abcdefABCDEF' } },
        { title: 'So What', artist: 'Miles Davis', stance: 'neutral' },
        { title: 'Windowlicker', artist: 'Aphex Twin', stance: 'love' },
      ],
      albums: [
        { title: 'Kid A', artist: 'Radiohead', stance: 'like', externalIds: { musicbrainz: MBID_KID_A } },
        { title: 'Kind of Blue', artist: 'Miles Davis', stance: 'like' },
        { title: 'Selected Ambient Works 85-92', artist: 'aphex twin', stance: 'love' },
      ],
      genres: [
        { name: 'Alternative Rock', stance: 'dislike' },
        { name: 'Ambient', stance: 'love' },
        { name: 'Art Pop', stance: 'love' },
        { name: 'Art Rock', stance: 'like' },
        // Three loves and one like, spelled two ways: the most used spelling, the most frequent stance.
        { name: 'Electronic', stance: 'love' },
        // One neutral, one like: the tie goes to the stronger stance.
        { name: 'Jazz', stance: 'like' },
        { name: 'Rock', stance: 'dislike' },
      ],
      notes: [`${`Windowlicker (Aphex Twin): ${LONG}`.slice(0, 279)}…`, 'Björk: Always.', 'Kind of Blue (Miles Davis): Modal.'],
    },
  });
});

test('the profile validates against TASTE_PROFILE_SCHEMA, and the schema really checks', async () => {
  const profile = tasteProfile(MUSIC, AS_OF);
  await assertValid(profile);
  assert.equal(TASTE_PROFILE_SCHEMA.$id, '/schemas/taste-profile-1.json');
  // Unknown ID schemes are allowed (as short strings); unknown fields elsewhere are not.
  const withScheme = structuredClone(profile) as any;
  withScheme.music.artists[1].externalIds.discogs = '12345';
  await assertValid(withScheme);
  const broken: any[] = [
    { ...profile, extra: true },
    { ...profile, schemaVersion: 1 },
    { ...profile, music: { ...profile.music, tracks: [] } },
    { ...profile, music: { ...profile.music, artists: [{ name: 'X', stance: 'adore' }] } },
    { ...profile, music: { ...profile.music, artists: [{ name: 'X', stance: 'love', popularity: 3 }] } },
    { ...profile, music: { ...profile.music, genres: [{ name: 'x'.repeat(201), stance: 'love' }] } },
    { ...profile, music: { ...profile.music, notes: Array.from({ length: 21 }, () => 'n') } },
    { ...profile, music: { ...profile.music, notes: ['n'.repeat(501)] } },
    { ...profile, music: { ...profile.music, recordings: [{ title: 'T', artist: 'A', stance: 'like', externalIds: { other: 'i'.repeat(201) } }] } },
    { ...profile, music: { ...profile.music, albums: Array.from({ length: 501 }, () => ({ title: 'T', artist: 'A', stance: 'like' })) } },
  ];
  for (const value of broken) assert.equal((await isValid(value)).valid, false, JSON.stringify(value).slice(0, 200));
});

test('bounds: lists, names and notes fit the limits, capping keeps the strongest stances', async () => {
  assert.equal(LIMIT_DEFINITIONS.musicListItemsMax.value, 500);
  assert.equal(LIMIT_DEFINITIONS.musicNameCharsMax.value, 200);
  assert.equal(LIMIT_DEFINITIONS.musicNotesMax.value, 20);
  assert.equal(LIMIT_DEFINITIONS.musicNoteCharsMax.value, 500);
  const many: Record<string, unknown>[] = [];
  for (let i = 0; i < 600; i++) {
    const stance = i < 100 ? 'love' : 'dislike';
    const label = `${i < 100 ? 'z' : 'a'}${String(i).padStart(3, '0')}${'é'.repeat(290)}`;
    many.push({
      type: 'artist',
      title: label,
      artist: label,
      genres: [`g${i}${'x'.repeat(250)}`],
      stance,
      addedAt: '2024-01-01',
      notes: `note ${i} ${'n'.repeat(600)}`,
    });
    many.push({ type: 'track', title: label, artist: label, genres: [], stance, addedAt: '2024-01-01' });
    many.push({ type: 'album', title: label, artist: label, genres: [], stance, addedAt: '2024-01-01' });
  }
  const profile = tasteProfile(many, AS_OF);
  await assertValid(profile);
  const { artists, recordings, albums, genres, notes } = profile.music;
  for (const list of [artists, recordings, albums, genres]) assert.equal(list.length, 500);
  for (const list of [artists, recordings, albums]) assert.equal(list.filter((x) => x.stance === 'love').length, 100);
  for (const a of artists) assert.ok(Array.from(a.name).length <= 200);
  for (const r of recordings) assert.ok(Array.from(r.title).length <= 200 && Array.from(r.artist).length <= 200);
  assert.ok(notes.length <= 5);
  for (const n of notes) assert.ok(Array.from(n).length <= 280);
});

test('no records: an empty but valid profile', async () => {
  const profile = tasteProfile([], AS_OF);
  assert.deepEqual(profile, { schemaVersion: '1', music: { artists: [], recordings: [], albums: [], genres: [], notes: [] } });
  await assertValid(profile);
});

const musicArb = fc
  .record({
    type: fc.constantFrom('track', 'album', 'artist'),
    title: fc.constantFrom('Blue', 'blue', 'Blüe', 'Red', 'Green', 'Ünder', 'under'),
    artist: fc.constantFrom('Ana', 'ana', 'Ána', 'Bo', 'Cy'),
    genres: fc.uniqueArray(fc.constantFrom('Jazz', 'jazz', 'Rock', 'Pop', 'Folk'), { maxLength: 3 }),
    stance: fc.constantFrom('love', 'like', 'neutral', 'dislike'),
    addedAt: fc.constantFrom('2024-01-01', '2024-05-05T10:00:00Z', '2023-01-01'),
    externalIds: fc.option(fc.record({ musicbrainz: fc.constantFrom(MBID_BJORK, MBID_KID_A), isrc: fc.constant('GBAAA9700001') }, { requiredKeys: [] }), {
      nil: undefined,
    }),
    notes: fc.option(fc.constantFrom('Yes.', 'No.', 'Maybe so.'), { nil: undefined }),
  })
  .map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)));

test('deterministic: identical JSON whatever the input order', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(musicArb, { maxLength: 30 }).chain((ms) => fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }))),
      async ([music, shuffled]) => {
        const a = JSON.stringify(tasteProfile(music, AS_OF));
        assert.equal(a, JSON.stringify(tasteProfile(shuffled, AS_OF)));
        const profile = JSON.parse(a);
        await assertValid(profile);
        // Artists are unique by folded name.
        const names = profile.music.artists.map((x: any) => x.name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase());
        assert.equal(new Set(names).size, names.length);
      },
    ),
    { numRuns: 150 },
  );
});
