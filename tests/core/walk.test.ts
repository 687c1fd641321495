/**
 * The query core against the built demo image, checked by an oracle that filters,
 * searches and sorts the same records in plain JavaScript.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { facetable } from '../../src/collections/define.ts';
import { fold } from '../../src/core/fold.ts';
import { restCollections } from '../../src/collections/index.ts';
import { isPublicError } from '../../src/core/errors.ts';
import { encodeCursor } from '../../src/core/cursor.ts';
import { Image, sortKey } from '../../src/core/image.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore, queryBinding, type Page } from '../../src/core/query.ts';
import { paths } from '../../src/paths.ts';
import { allItems, expectedIds, type Item } from '../helpers/oracle.ts';

const image = new Image(paths.image);
const indexed = new QueryCore(image);
const core = indexed;
/** Every search answered by walking the sort order instead of the trigram index. */
const scanning = new QueryCore(image, { dense: { matches: 0, share: 0 } });
after(() => image.close());
const items = new Map(restCollections.map((c) => [c.name, allItems(paths.image, c.name)]));

const values = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

/** A query drawn from the records themselves, so most filters and searches find something. */
const queryArbitrary = fc.constantFrom(...restCollections).chain((collection) => {
  const records = items.get(collection.name)!;
  const params = Object.keys(collection.filters);
  const record = fc.constantFrom<Item | undefined>(...records, undefined);
  const filter = fc.tuple(fc.constantFrom(...params), record, fc.boolean(), record).map(([param, item, upper, other]) => {
    const found = item ? values(item[collection.filters[param]!.field]) : [];
    const kind = collection.filters[param]!.kind;
    const fallback =
      kind.type === 'integer' ? String(kind.min) : kind.type === 'enum' ? kind.values[0]! : kind.type === 'since' ? '2100-01-01' : 'nothing-matches';
    // A since bound is an RFC 3339 date: the record's date-time would need an offset.
    const value = kind.type === 'since' && found[0] ? found[0].slice(0, 10) : (found[0] ?? fallback);
    // A repeatable filter sometimes takes a second value (joined here by U+0001, split into two parameters).
    const second = collection.filters[param]!.repeatable && other ? values(other[collection.filters[param]!.field])[0] : undefined;
    const given = second === undefined ? value : `${value}\u0001${second}`;
    return [param, upper && collection.filters[param]!.kind.type === 'string' ? given.toUpperCase() : given] as const;
  });
  const q = fc.tuple(record, fc.nat(), fc.integer({ min: 1, max: 6 })).map(([item, at, len]) => {
    const text = item ? String(item[collection.search[0]!] ?? '') : 'zz';
    const start = text.length ? at % text.length : 0;
    return text.slice(start, start + len).trim();
  });
  const sortKey = fc.tuple(fc.constantFrom(...Object.keys(collection.sort)), fc.constantFrom('asc', 'desc'));
  return fc.record({
    name: fc.constant(collection.name),
    filters: fc.uniqueArray(filter, { maxLength: 2, selector: ([p]) => p }),
    q: fc.option(q, { nil: undefined }),
    sort: fc.option(fc.uniqueArray(sortKey, { minLength: 1, maxLength: 2, selector: ([f]) => f }), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 12 }),
  });
});

test('walking next from page one visits every matching record exactly once, in order, whichever search plan runs, joined or not', () => {
  fc.assert(
    fc.property(queryArbitrary, fc.boolean(), ({ name, filters, q, sort, limit }, scan) => {
      const core = scan ? scanning : indexed;
      const collection = restCollections.find((c) => c.name === name)!;
      const search = new URLSearchParams([...filters.flatMap(([p, v]) => v.split('\u0001').map((one) => [p, one])), ['limit', String(limit)]]);
      if (q) search.set('q', q);
      if (sort) search.set('sort', sort.map(([f, d]) => `${f}:${d}`).join(','));
      const query = parseQuery(collection, search);
      const expected = expectedIds(collection, items.get(collection.name)!, { filters: Object.fromEntries(filters), q: query.q?.value, sort: query.sort });
      const seen: string[] = [];
      let current = query;
      let page: Page = core.run(current);
      for (let pages = 1; ; pages++) {
        assert.equal(page.totalCount, expected.length);
        assert.ok(page.items.length <= limit);
        // The page joined by SQLite (what the JSON list splices in) is the same page.
        const joined = core.runJoined(current);
        assert.equal(Buffer.concat(joined.parts).toString(), page.items.join(','));
        assert.equal(joined.next, page.next);
        assert.equal(joined.totalCount, page.totalCount);
        seen.push(...page.canonicalIds);
        if (page.next === undefined) break;
        assert.ok(pages <= expected.length, 'more pages than records');
        current = { ...query, cursor: page.next };
        page = core.run(current);
      }
      assert.deepEqual(seen, expected);
    }),
    { numRuns: 300 },
  );
});

test('a cursor from one query is refused by another', () => {
  const movies = restCollections.find((c) => c.name === 'movies')!;
  const first = core.run(parseQuery(movies, new URLSearchParams('limit=2')));
  assert.ok(first.next);
  for (const other of ['limit=2&sort=title', 'limit=2&type=tv', 'limit=2&q=the']) {
    assert.throws(
      () => core.run({ ...parseQuery(movies, new URLSearchParams(other)), cursor: first.next }),
      (e: unknown) => isPublicError(e) && e.slug === 'invalid-cursor',
    );
  }
  const books = restCollections.find((c) => c.name === 'books')!;
  assert.throws(
    () => core.run({ ...parseQuery(books, new URLSearchParams('limit=2')), cursor: first.next }),
    (e: unknown) => isPublicError(e) && e.slug === 'invalid-cursor',
  );
  // The page size may change between pages: it is not part of the binding.
  assert.equal(core.run({ ...parseQuery(movies, new URLSearchParams('limit=5')), cursor: first.next }).canonicalIds.length, 5);
});

test('facets count every filter dimension over the filtered set', () => {
  for (const collection of restCollections) {
    const records = items.get(collection.name)!;
    const page = core.run(parseQuery(collection, new URLSearchParams('facets=1')));
    assert.deepEqual(Object.keys(page.facets!), facetable(collection));
    for (const param of facetable(collection)) {
      const spec = collection.filters[param]!;
      for (const { value, count } of page.facets![param]!) {
        const matching = records.filter((r) => values(r[spec.field]).some((v) => fold(v) === fold(value)));
        assert.equal(count, matching.length, `${collection.name} ${param}=${value}`);
      }
    }
  }
});

test('a cursor whose record is gone (a rebuild removed it) still resumes at its place in the order', () => {
  const hex = fc.stringMatching(/^[0-9a-f]{24}$/);
  fc.assert(
    fc.property(
      fc.constantFrom(...restCollections.map((c) => c.name)),
      fc.nat(),
      hex,
      fc.constantFrom('asc', 'desc'),
      fc.boolean(),
      (name, pick, id, direction, scan) => {
        const collection = restCollections.find((c) => c.name === name)!;
        const records = items.get(name)!;
        const field = Object.keys(collection.sort)[pick % Object.keys(collection.sort).length]!;
        const query = parseQuery(collection, new URLSearchParams({ sort: `${field}:${direction}`, limit: '10' }));
        const anchor = records[pick % records.length]!;
        const canonicalId = `itm_${id}`;
        const value = sortKey(collection.sort[field]!, anchor[field]);
        const cursor = encodeCursor(image.cursorKey, queryBinding(query), { values: [value], canonicalId });
        const all = expectedIds(collection, records, { filters: {}, sort: query.sort });
        // Where the vanished record would sit: after every record that orders before (value, canonicalId).
        const byId = new Map(records.map((r) => [r.canonicalId, r]));
        const before = (id2: string) => {
          const v = sortKey(collection.sort[field]!, byId.get(id2)![field]);
          const c = v === value ? (id2 < canonicalId ? -1 : id2 > canonicalId ? 1 : 0) : v < value ? -1 : 1;
          return direction === 'asc' ? c <= 0 : c >= 0;
        };
        const expected = all.filter((id2) => !before(id2)).slice(0, 10);
        assert.deepEqual((scan ? scanning : indexed).run({ ...query, cursor }).canonicalIds, expected);
      },
    ),
    { numRuns: 300 },
  );
});
