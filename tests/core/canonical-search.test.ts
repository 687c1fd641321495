/**
 * The canonical query strings of links, made once per query with the cursor's pair
 * appended (src/core/params.ts, src/core/search.ts), against the strings
 * `URLSearchParams` serializes with the cursor set last, as they were made before: any
 * query, any cursor text (the API's own, or arbitrary), and the same query asked for at
 * several cursors in turn and after another query.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { collection, contentCollections } from '../../src/collections/index.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { canonicalSearch, parseQuery, type Query } from '../../src/core/params.ts';
import { parseSearch, searchCanonical, type SearchQuery } from '../../src/core/search.ts';

function expectedList(query: Query, cursor?: string): string {
  const params = new URLSearchParams();
  for (const f of query.filters) for (const value of f.values) params.append(f.param, value);
  if (query.q) params.set('q', query.q.value);
  const sameSort =
    query.sort.length === query.collection.defaultSort.length &&
    query.sort.every((k, i) => k.field === query.collection.defaultSort[i]!.field && k.direction === query.collection.defaultSort[i]!.direction);
  if (!sameSort) params.set('sort', query.sort.map((k) => `${k.field}:${k.direction}`).join(','));
  if (query.limit !== LIMITS.pageSizeDefault) params.set('limit', String(query.limit));
  if (query.facets) params.set('facets', '1');
  if (cursor !== undefined) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function expectedSearch(query: SearchQuery, cursor?: string): string {
  const params = new URLSearchParams({ q: query.q.value });
  for (const c of query.collections) params.append('collection', c);
  if (query.year !== undefined) params.set('year', String(query.year));
  if (query.limit !== LIMITS.pageSizeDefault) params.set('limit', String(query.limit));
  if (cursor !== undefined) params.set('cursor', cursor);
  return `?${params.toString()}`;
}

const text = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'Z', '9', ' ', '&', '=', '+', '%', 'é', '*', '.', '-', '_', '/', '?', '😀') });
/** A cursor as the API makes them (base64url, a dot, base64url), or any text. */
const cursor = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{1,22}$/), text);
const tweets = collection('tweets')!;

const listQuery = fc
  .record({
    author: fc.option(text, { nil: undefined }),
    q: fc.option(text, { nil: undefined }),
    sort: fc.constantFrom(undefined, 'likes:desc', 'createdAt:asc', 'createdAt:desc'),
    limit: fc.option(fc.integer({ min: 1, max: LIMITS.pageSizeMax }), { nil: undefined }),
    facets: fc.boolean(),
  })
  .map(({ author, q, sort, limit, facets }) => {
    const params = new URLSearchParams();
    if (author !== undefined) params.set('author', author);
    if (q !== undefined) params.set('q', q);
    if (sort !== undefined) params.set('sort', sort);
    if (limit !== undefined) params.set('limit', String(limit));
    if (facets) params.set('facets', '1');
    return parseQuery(tweets, params);
  });

test('a list query string is the one URLSearchParams serializes, at any cursor, asked in any order', () => {
  fc.assert(
    fc.property(listQuery, listQuery, fc.array(fc.option(cursor, { nil: undefined }), { maxLength: 4 }), (query, other, cursors) => {
      for (const c of cursors) assert.equal(canonicalSearch(query, c), expectedList(query, c));
      assert.equal(canonicalSearch(other), expectedList(other));
      for (const c of cursors) assert.equal(canonicalSearch(query, c), expectedList(query, c));
    }),
  );
});

const searchQuery = fc
  .record({
    q: text,
    collections: fc.subarray(contentCollections.map((c) => c.name)),
    year: fc.option(fc.integer({ min: 1000, max: 9999 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: LIMITS.pageSizeMax }), { nil: undefined }),
  })
  .filter(({ q }) => q.trim() !== '')
  .map(({ q, collections, year, limit }) => {
    const params = new URLSearchParams({ q });
    for (const c of collections) params.append('collection', c);
    if (year !== undefined) params.set('year', String(year));
    if (limit !== undefined) params.set('limit', String(limit));
    return parseSearch(
      contentCollections.map((c) => c.name),
      params,
    );
  });

test('a search query string is the one URLSearchParams serializes, at any cursor, asked in any order', () => {
  fc.assert(
    fc.property(searchQuery, searchQuery, fc.array(fc.option(cursor, { nil: undefined }), { maxLength: 4 }), (query, other, cursors) => {
      for (const c of cursors) assert.equal(searchCanonical(query, c), expectedSearch(query, c));
      assert.equal(searchCanonical(other), expectedSearch(other));
      for (const c of cursors) assert.equal(searchCanonical(query, c), expectedSearch(query, c));
    }),
  );
});
