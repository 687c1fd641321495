import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { collection, restCollections } from '../../src/collections/index.ts';
import { isPublicError } from '../../src/core/errors.ts';
import { canonicalSearch, parseQuery } from '../../src/core/params.ts';

const movies = collection('movies')!;
const parse = (qs: string) => parseQuery(movies, new URLSearchParams(qs));

function fault(qs: string, slug: string, parameter: string): void {
  assert.throws(
    () => parse(qs),
    (e: unknown) => isPublicError(e) && e.slug === slug && e.parameter === parameter && e.status === 400,
  );
}

test('limit defaults to 50, is floored and clamped to 1..100', () => {
  assert.equal(parse('').limit, 50);
  assert.equal(parse('limit=7.9').limit, 7);
  assert.equal(parse('limit=0').limit, 1);
  assert.equal(parse('limit=-5').limit, 1);
  assert.equal(parse('limit=1000').limit, 100);
  assert.equal(parse('limit= 12 ').limit, 12);
  fault('limit=ten', 'invalid-query', 'limit');
  fault('limit=', 'invalid-query', 'limit');
  fault('limit=Infinity', 'invalid-query', 'limit');
});

test('unknown, misspelt and repeated parameters are refused by name', () => {
  fault('gnere=drama', 'unknown-parameter', 'gnere');
  fault('sportType=Run', 'unknown-parameter', 'sportType');
  fault('genre=a&genre=b', 'invalid-query', 'genre');
});

test('typed filters: integer year, enum type; strings fold case and accents', () => {
  assert.equal(parse('year=1999').filters[0]!.key, '1999');
  fault('year=nineteen', 'invalid-query', 'year');
  fault('year=1999.5', 'invalid-query', 'year');
  fault('year=99999', 'invalid-query', 'year');
  fault('type=film', 'invalid-query', 'type');
  fault('type=MOVIE', 'invalid-query', 'type');
  fault('genre=', 'invalid-query', 'genre');
  fault(`genre=${'x'.repeat(201)}`, 'invalid-query', 'genre');
  assert.equal(parse('director=Pedro%20ALMOD%C3%93VAR').filters[0]!.key, 'pedro almodovar');
  fault('category=food', 'unknown-parameter', 'category');
  assert.equal(parseQuery(collection('places')!, new URLSearchParams('category=food')).filters[0]!.key, 'food');
  assert.throws(() => parseQuery(collection('places')!, new URLSearchParams('category=pizza')), isPublicError);
});

test('a repeatable filter takes several values, once each, in a canonical order; since takes RFC 3339 dates and date-times', () => {
  const feed = collection('feed-items')!;
  const parseFeed = (qs: string) => parseQuery(feed, new URLSearchParams(qs));
  const both = parseFeed('collection=movies&collection=blog&collection=movies').filters[0]!;
  assert.deepEqual(
    [both.values, both.keys],
    [
      ['blog', 'movies'],
      ['blog', 'movies'],
    ],
  );
  assert.equal(canonicalSearch(parseFeed('collection=movies&collection=blog')), '?collection=blog&collection=movies');
  assert.deepEqual(parseFeed('collection=movies&collection=blog'), parseFeed('collection=blog&collection=movies'));
  assert.equal(parseFeed('since=2024-05-01').filters[0]!.key, '2024-05-01');
  assert.equal(parseFeed('since=2024-05-01T18:30:00%2B02:00').filters[0]!.key, '2024-05-01T16:30:00');
  assert.equal(parseFeed('since=2024-05-01t18:30:00.5z').filters[0]!.key, '2024-05-01T18:30:00.500');
  for (const bad of ['2024-5-1', '2024-02-30', '2024-05-01T18:30', '2024-05-01T18:30:00', '2024-05-01 18:30:00Z', 'yesterday', '2024-05-01T24:00:00Z']) {
    assert.throws(
      () => parseFeed(`since=${encodeURIComponent(bad)}`),
      (e: unknown) => isPublicError(e) && e.slug === 'invalid-query' && e.parameter === 'since',
      bad,
    );
  }
  assert.throws(
    () => parseFeed('since=2024-01-01&since=2025-01-01'),
    (e: unknown) => isPublicError(e) && e.parameter === 'since',
  );
  assert.throws(
    () => parseFeed('collection=movies&collection=film'),
    (e: unknown) => isPublicError(e) && e.parameter === 'collection',
  );
});

test('sort takes field:direction lists over declared fields only', () => {
  assert.deepEqual(parse('sort=year:desc,title').sort, [
    { field: 'year', direction: 'desc' },
    { field: 'title', direction: 'asc' },
  ]);
  assert.deepEqual(parse('').sort, movies.defaultSort);
  fault('sort=rating:desc', 'invalid-query', 'sort');
  fault('sort=title:up', 'invalid-query', 'sort');
  fault('sort=title:asc:x', 'invalid-query', 'sort');
  fault('sort=title,title', 'invalid-query', 'sort');
  fault('sort=title,year,addedAt,releaseDate,title', 'invalid-query', 'sort');
});

test('facets is on for 1, true, yes in any case with spaces, off otherwise', () => {
  for (const v of ['1', 'true', 'YES', ' True ', 'yes ']) assert.equal(parse(`facets=${encodeURIComponent(v)}`).facets, true, v);
  for (const v of ['0', 'false', 'no', '', 'on', 'y']) assert.equal(parse(`facets=${v}`).facets, false, v);
});

test('the canonical query string leaves defaults out and round-trips', () => {
  assert.equal(canonicalSearch(parse('limit=50&sort=addedAt:desc')), '');
  const query = parse('q=%20heat%20&genre=Crime&limit=10&facets=yes&sort=title');
  assert.equal(canonicalSearch(query), '?genre=Crime&q=heat&sort=title%3Aasc&limit=10&facets=1');
  assert.deepEqual(parse(canonicalSearch(query).slice(1)), query);
});

test('any query string either parses or fails with a 400/414 public error naming a parameter', () => {
  const names = ['limit', 'cursor', 'sort', 'facets', 'q', 'year', 'genre', 'type', 'gnere', ''];
  for (const declaration of restCollections) {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 30 })), { maxLength: 6 }), (pairs) => {
        const search = new URLSearchParams(pairs);
        try {
          parseQuery(declaration, search);
        } catch (error) {
          assert.ok(isPublicError(error), String(error));
          assert.equal(error.status, 400);
          assert.ok(error.parameter !== undefined);
        }
      }),
      { numRuns: 200 },
    );
  }
});
