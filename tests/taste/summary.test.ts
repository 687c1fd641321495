/**
 * The movie taste summary (SPEC §2.3): every field with its type (checked against
 * TASTE_SUMMARY_SCHEMA by hyperjump), the numbers recomputed by hand on a small fixture,
 * determinism under input shuffles, and the query parameter rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '@hyperjump/json-schema/formats';
import { registerSchema, setShouldValidateFormat, validate, type Output } from '@hyperjump/json-schema/draft-2020-12';
import fc from '../helpers/fc.ts';
import { isPublicError } from '../../src/core/errors.ts';
import { LIMIT_DEFINITIONS } from '../../src/core/limits.ts';
import { TASTE_SUMMARY_SCHEMA, tasteSummary } from '../../src/taste/summary.ts';

const AS_OF = '2026-11-01T12:00:00Z';
const SCHEMA_URI = 'https://collections.test/schemas/taste-summary-1.json';
setShouldValidateFormat(true);
registerSchema(structuredClone(TASTE_SUMMARY_SCHEMA) as never, SCHEMA_URI);

async function assertValid(value: unknown): Promise<void> {
  const output: Output = await validate(SCHEMA_URI, value as never, 'BASIC');
  assert.equal(output.valid, true, JSON.stringify(output, null, 2));
}

const MOVIES: Record<string, unknown>[] = [
  {
    canonicalId: 'a-heat-1995',
    title: 'Heat',
    type: 'movie',
    year: 1995,
    addedAt: '2024-01-01',
    genres: ['Crime', 'Drama'],
    director: ['Michael Mann'],
    cast: ['Al Pacino'],
    rating: 5,
    recommended: true,
  },
  {
    canonicalId: 'b-collateral-2004',
    title: 'Collateral',
    type: 'movie',
    year: 2004,
    addedAt: '2024-02-01',
    genres: ['Crime', 'Thriller'],
    director: ['Michael Mann'],
    cast: [],
    rating: 4,
    recommended: true,
  },
  {
    canonicalId: 'c-the-wire-2002',
    title: 'The Wire',
    type: 'tv',
    year: 2002,
    addedAt: '2024-03-01T10:00:00Z',
    genres: ['Crime', 'Drama'],
    director: [],
    cast: [],
    rating: 5,
    recommended: true,
  },
  {
    canonicalId: 'd-the-matrix-1999',
    title: 'The Matrix',
    type: 'movie',
    year: 1999,
    addedAt: '2023-05-01',
    genres: ['Action', 'Sci-Fi'],
    director: ['Lana Wachowski', 'Lilly Wachowski'],
    cast: [],
    recommended: true,
  },
  {
    canonicalId: 'e-not-recommended-2001',
    title: 'Not Recommended',
    type: 'movie',
    year: 2001,
    addedAt: '2024-06-01',
    genres: ['Crime', 'Horror'],
    director: ['Michael Mann'],
    cast: [],
    rating: 5,
    recommended: false,
  },
  {
    canonicalId: 'f-bare-2010',
    title: 'Bare',
    type: 'movie',
    year: 2010,
    addedAt: '2024-04-01',
    genres: [],
    director: [],
    cast: [],
    rating: 3,
    recommended: true,
  },
];

const run = (query = '', movies = MOVIES) => tasteSummary(movies, new URLSearchParams(query), AS_OF) as any;

test('every §2.3 field is present with its type (schema-valid)', async () => {
  const out = run();
  await assertValid(out);
  assert.deepEqual(Object.keys(out).sort(), [
    'counts',
    'coverage',
    'distributions',
    'examples',
    'generatedAt',
    'outcome',
    'renderInput',
    'schemaVersion',
    'scope',
    'selection',
    'summary',
  ]);
  assert.equal(out.schemaVersion, 1);
  assert.equal(out.outcome, 'ok');
  assert.equal(out.generatedAt, AS_OF);
  assert.equal(out.coverage.dataAsOf, AS_OF);
  assert.equal(out.scope.visibility, 'public');
  assert.equal(out.scope.corpusId, 'movies-recommended');
  assert.equal(out.scope.canonicalUrl, '/api/taste/summary.json');
  for (const word of ['private', 'saved', 'seen', 'unpublished']) assert.match(out.scope.exclusionMeaning, new RegExp(word));
  assert.deepEqual(out.selection, {
    ...out.selection,
    task: 'summarize',
    method: 'deterministic-ranking',
    role: 'illustration',
    supportsPopulationClaims: false,
  });
  assert.match(out.selection.explanation, /not a random or representative sample/);
  // The summary sentence carries the real numbers.
  assert.match(out.summary, /^5 public movie and TV titles are marked recommended/);
  assert.match(out.summary, /Crime \(3 of 5, 60%\)/);
});

test('the schema rejects what the contract does not allow (it really checks)', async () => {
  const out = run();
  for (const broken of [
    { ...out, extra: 1 },
    { ...out, generatedAt: 'yesterday' },
    { ...out, counts: { ...out.counts, returnedCount: '5' } },
  ]) {
    const output = await validate(SCHEMA_URI, broken as never, 'BASIC');
    assert.equal(output.valid, false);
  }
});

test('the numbers, recomputed by hand', () => {
  const out = run();
  // Corpus: a, b, c, d, f (e is not recommended).
  assert.deepEqual(out.counts, { returnedCount: 5, collectionCount: 5 });
  assert.deepEqual(out.coverage.dimensions, [
    { dimension: 'genre', eligibleCount: 5, populatedCount: 4, missingCount: 1 },
    { dimension: 'director', eligibleCount: 5, populatedCount: 3, missingCount: 2 },
    { dimension: 'type', eligibleCount: 5, populatedCount: 5, missingCount: 0 },
    { dimension: 'decade', eligibleCount: 5, populatedCount: 5, missingCount: 0 },
  ]);
  const byDim = Object.fromEntries(out.distributions.map((d: any) => [d.dimension, d]));
  assert.deepEqual(byDim.genre, {
    dimension: 'genre',
    label: 'Genre',
    multiValue: true,
    denominator: 'eligible',
    denominatorCount: 5,
    values: [
      { value: 'Crime', label: 'Crime', count: 3, shareOfEligible: 0.6 },
      { value: 'Drama', label: 'Drama', count: 2, shareOfEligible: 0.4 },
      { value: 'Action', label: 'Action', count: 1, shareOfEligible: 0.2 },
      { value: 'Sci-Fi', label: 'Sci-Fi', count: 1, shareOfEligible: 0.2 },
      { value: 'Thriller', label: 'Thriller', count: 1, shareOfEligible: 0.2 },
    ],
  });
  // Multi-value: genre shares sum above 1 (3 + 2 + 1 + 1 + 1 = 8 mentions over 5 titles).
  const genreShare = byDim.genre.values.reduce((s: number, v: any) => s + v.shareOfEligible, 0);
  assert.ok(Math.abs(genreShare - 1.6) < 1e-9 && genreShare > 1);
  assert.deepEqual(byDim.director.values, [
    { value: 'Michael Mann', label: 'Michael Mann', count: 2, shareOfEligible: 0.4 },
    { value: 'Lana Wachowski', label: 'Lana Wachowski', count: 1, shareOfEligible: 0.2 },
    { value: 'Lilly Wachowski', label: 'Lilly Wachowski', count: 1, shareOfEligible: 0.2 },
  ]);
  assert.equal(byDim.director.multiValue, true);
  assert.equal(byDim.type.multiValue, false);
  assert.deepEqual(byDim.type.values, [
    { value: 'movie', label: 'Movie', count: 4, shareOfEligible: 0.8 },
    { value: 'tv', label: 'TV series', count: 1, shareOfEligible: 0.2 },
  ]);
  assert.equal(byDim.decade.multiValue, false);
  assert.deepEqual(byDim.decade.values, [
    { value: '1990', label: '1990s', count: 2, shareOfEligible: 0.4 },
    { value: '2000', label: '2000s', count: 2, shareOfEligible: 0.4 },
    { value: '2010', label: '2010s', count: 1, shareOfEligible: 0.2 },
  ]);
  // Single-value dimensions fully populated: shares sum to 1.
  assert.equal(
    byDim.type.values.reduce((s: number, v: any) => s + v.count, 0),
    5,
  );
  // Examples: rating desc, then addedAt desc, then canonicalId.
  assert.deepEqual(out.renderInput.canonicalIds, ['c-the-wire-2002', 'a-heat-1995', 'b-collateral-2004', 'f-bare-2010', 'd-the-matrix-1999']);
  assert.deepEqual(
    out.examples.map((e: any) => e.canonicalId),
    out.renderInput.canonicalIds,
  );
  const wire = out.examples[0];
  assert.equal(wire.canonicalUrl, '/movies/c-the-wire-2002');
  assert.equal(wire.collection, 'movies');
  assert.deepEqual(wire.data, { canonicalId: 'c-the-wire-2002', title: 'The Wire', type: 'tv', year: 2002, genres: ['Crime', 'Drama'] });
  assert.deepEqual(
    wire.evidenceDetails.map((d: any) => [d.code, d.fields]),
    [
      ['recommended', ['recommended']],
      ['top-genre', ['genres']],
      ['rated', ['rating']],
    ],
  );
  assert.deepEqual(
    wire.evidence,
    wire.evidenceDetails.map((d: any) => d.text),
  );
  // Every piece of evidence names fields the record really has.
  for (const e of out.examples) {
    const record = MOVIES.find((m) => m.canonicalId === e.canonicalId)!;
    for (const d of e.evidenceDetails) for (const f of d.fields) assert.ok(record[f] !== undefined, `${e.canonicalId}: ${f}`);
  }
  const bare = out.examples.find((e: any) => e.canonicalId === 'f-bare-2010');
  assert.deepEqual(
    bare.evidenceDetails.map((d: any) => d.code),
    ['recommended', 'rated'],
  );
});

test('shares are rounded to 4 decimals', () => {
  const three = MOVIES.slice(0, 3).map((m, i) => ({ ...m, genres: i === 0 ? ['Noir'] : ['Crime'] }));
  const genre = run('', three).distributions.find((d: any) => d.dimension === 'genre');
  assert.deepEqual(
    genre.values.map((v: any) => [v.value, v.shareOfEligible]),
    [
      ['Crime', 0.6667],
      ['Noir', 0.3333],
    ],
  );
});

test('an empty corpus is insufficient-data, still schema-valid', async () => {
  const out = run(
    '',
    MOVIES.filter((m) => m.recommended === false),
  );
  await assertValid(out);
  assert.equal(out.outcome, 'insufficient-data');
  assert.deepEqual(out.counts, { returnedCount: 0, collectionCount: 0 });
  assert.deepEqual(out.examples, []);
  for (const d of out.distributions) assert.deepEqual(d.values, []);
});

test('exampleLimit: default 5, bounds 0 and 12 accepted, others a 400 naming it', async () => {
  assert.equal(LIMIT_DEFINITIONS.tasteExampleLimitDefault.value, 5);
  assert.equal(LIMIT_DEFINITIONS.tasteExampleLimitMax.value, 12);
  const many = Array.from({ length: 20 }, (_, i) => ({ ...MOVIES[0], canonicalId: `m-${String(i).padStart(2, '0')}`, rating: (i % 10) / 2 }));
  assert.equal(run('', many).examples.length, 5);
  const zero = run('exampleLimit=0', many);
  assert.deepEqual([zero.examples, zero.counts.returnedCount, zero.renderInput.canonicalIds], [[], 0, []]);
  await assertValid(zero);
  const twelve = run('exampleLimit=12&collection=movies', many);
  assert.equal(twelve.examples.length, 12);
  assert.equal(twelve.counts.collectionCount, 20);
  await assertValid(twelve);
  for (const bad of ['-1', '13', 'x', '', '1.5', '1e1', ' 3']) {
    assert.throws(
      () => run(`exampleLimit=${encodeURIComponent(bad)}`),
      (e: unknown) => isPublicError(e) && e.slug === 'invalid-query' && e.status === 400 && e.parameter === 'exampleLimit' && /exampleLimit/.test(e.detail),
      bad,
    );
  }
  assert.throws(
    () => run('exampleLimit=2&exampleLimit=3'),
    (e: unknown) => isPublicError(e) && e.status === 400 && e.parameter === 'exampleLimit',
  );
});

test('collection other than movies, and unknown parameters, are 400s', () => {
  assert.equal(run('collection=movies').outcome, 'ok');
  for (const c of ['books', 'Movies', '']) {
    assert.throws(
      () => run(`collection=${c}`),
      (e: unknown) => isPublicError(e) && e.slug === 'invalid-query' && e.status === 400 && e.parameter === 'collection' && /collection/.test(e.detail),
    );
  }
  assert.throws(
    () => run('limit=3'),
    (e: unknown) => isPublicError(e) && e.slug === 'unknown-parameter' && e.status === 400 && e.parameter === 'limit',
  );
});

const movieArb = fc
  .record({
    canonicalId: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
    title: fc.constantFrom('Heat', 'Alien', 'Ran', 'Up', 'Zodiac'),
    type: fc.constantFrom('movie', 'tv'),
    year: fc.integer({ min: 1950, max: 2025 }),
    addedAt: fc.constantFrom('2024-01-01', '2024-01-01T00:00:00Z', '2023-06-30', '2025-02-02T10:00:00+02:00'),
    genres: fc.uniqueArray(
      fc.constantFrom('Crime', 'Drama', 'Comedy', 'Horror', 'Sci-Fi', 'Western', 'Noir', 'War', 'Animation', 'Musical', 'Romance', 'Documentary'),
      { maxLength: 4 },
    ),
    director: fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D', 'E'), { maxLength: 2 }),
    cast: fc.constant([]),
    rating: fc.option(
      fc.integer({ min: 0, max: 10 }).map((n) => n / 2),
      { nil: undefined },
    ),
    recommended: fc.boolean(),
  })
  .map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)));

test('deterministic: same input gives identical JSON, whatever the input order', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc
        .uniqueArray(movieArb, { selector: (m) => m.canonicalId, maxLength: 25 })
        .chain((ms) => fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }))),
      fc.integer({ min: 0, max: 12 }),
      async ([movies, shuffled], limit) => {
        const a = JSON.stringify(run(`exampleLimit=${limit}`, movies));
        const b = JSON.stringify(run(`exampleLimit=${limit}`, shuffled));
        assert.equal(a, b);
        assert.equal(a, JSON.stringify(run(`exampleLimit=${limit}`, movies)));
        const out = JSON.parse(a);
        const corpus = movies.filter((m) => m.recommended === true);
        assert.equal(out.counts.collectionCount, corpus.length);
        assert.equal(out.counts.returnedCount, Math.min(limit, corpus.length));
        for (const d of out.distributions) {
          for (const v of d.values) assert.equal(v.shareOfEligible, Math.round((v.count / corpus.length) * 10_000) / 10_000);
          assert.ok(d.values.length <= LIMIT_DEFINITIONS.tasteDistributionValuesMax.value);
        }
        await assertValid(out);
      },
    ),
    { numRuns: 100 },
  );
});
