/**
 * Properties of the cross-collection lists against the built demo image: a search walk
 * equals the oracle whichever plan (trigram index or date-order scan) answers it; any
 * `q` answers 200 or a 400/414 problem, never a 5xx; a mangled search or feed cursor is
 * always `invalid-cursor`; any `since` value parses or is refused as `invalid-query`.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { collection, contentCollections } from '../../src/collections/index.ts';
import { isPublicError } from '../../src/core/errors.ts';
import { Image } from '../../src/core/image.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import { encodeCursor } from '../../src/core/cursor.ts';
import { parseSearch, searchBinding, SearchCore } from '../../src/core/search.ts';
import { paths } from '../../src/paths.ts';
import { contentItems, expectedHits } from '../helpers/lists.ts';

const image = new Image(paths.image);
after(() => image.close());
const indexed = new SearchCore(image);
const scanning = new SearchCore(image, { scan: true });
const items = contentItems();
const names = contentCollections.map((c) => c.name);
const handler = createRestFetchHandler(new QueryCore(image), { cacheBytes: 0, quota: 1_000_000 });
const isSlug = (slug: string) => (e: unknown) => isPublicError(e) && e.slug === slug;

/** A search drawn from the records themselves, so most find something. */
const searchArbitrary = fc
  .tuple(fc.constantFrom(...names), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.boolean())
  .map(([name, pick, at, len, upper]) => {
    const c = contentCollections.find((d) => d.name === name)!;
    const records = items.get(name)!;
    const record = records[pick % records.length]!;
    const text = String([record[c.search[pick % c.search.length]!]].flat()[0] ?? 'zz');
    const start = text.length ? at % text.length : 0;
    const q = text.slice(start, start + len).trim() || 'a';
    return upper ? q.toUpperCase() : q;
  });

test('a search walk visits exactly the oracle’s hits in rank order, with either plan', () => {
  fc.assert(
    fc.property(
      searchArbitrary,
      fc.subarray(names, { maxLength: 3 }),
      fc.option(fc.integer({ min: 2015, max: 2026 }), { nil: undefined }),
      fc.integer({ min: 1, max: 30 }),
      fc.boolean(),
      (q, chosen, year, limit, scan) => {
        const core = scan ? scanning : indexed;
        const params = new URLSearchParams({ q, limit: String(limit) });
        for (const c of chosen) params.append('collection', c);
        if (year !== undefined) params.set('year', String(year));
        const query = parseSearch(names, params);
        const expected = expectedHits(items, q, { collections: chosen, year });
        const seen: string[] = [];
        let page = core.run(query);
        for (let pages = 1; ; pages++) {
          assert.equal(page.totalCount, expected.length);
          seen.push(...page.canonicalIds);
          if (page.next === undefined) break;
          assert.ok(pages <= expected.length, 'more pages than hits');
          page = core.run({ ...query, cursor: page.next });
        }
        assert.deepEqual(
          seen,
          expected.map((e) => e.canonicalId),
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('any q answers 200 or a 400/414 problem, never a server error', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constantFrom('"', '""', '*', 'NEAR(a b)', 'a OR b', '^x', '\u0000', '%'),
      ),
      async (q) => {
        const response = await handler(new Request(`http://x/api/search.json?${new URLSearchParams({ q })}`));
        assert.ok([200, 400, 414].includes(response.status), `${JSON.stringify(q)} → ${response.status}`);
        if (response.status !== 200) assert.match(((await response.json()) as { type: string }).type, /^\/problems\/(invalid-query|query-too-long)$/);
      },
    ),
    { numRuns: 300 },
  );
});

test('a mangled search or feed cursor is invalid-cursor, never another page', () => {
  const search = parseSearch(names, new URLSearchParams({ q: 'e', limit: '3' }));
  const searchNext = indexed.run(search).next!;
  const feed = collection('feed-items')!;
  const feedQuery = parseQuery(feed, new URLSearchParams('limit=3&collection=movies&collection=blog'));
  const core = new QueryCore(image);
  const feedNext = core.run(feedQuery).next!;
  fc.assert(
    fc.property(fc.boolean(), fc.nat(), fc.constantFrom(...'ABCxyz019-_.'), (which, at, ch) => {
      const token = which ? searchNext : feedNext;
      const i = at % token.length;
      fc.pre(token[i] !== ch);
      const mangled = token.slice(0, i) + ch + token.slice(i + 1);
      if (which) assert.throws(() => indexed.run({ ...search, cursor: mangled }), isSlug('invalid-cursor'));
      else assert.throws(() => core.run({ ...feedQuery, cursor: mangled }), isSlug('invalid-cursor'));
    }),
    { numRuns: 300 },
  );
  // Each cursor is refused by the other list, and by the same list with other filters.
  assert.throws(() => core.run({ ...feedQuery, cursor: searchNext }), isSlug('invalid-cursor'));
  assert.throws(() => indexed.run({ ...search, cursor: feedNext }), isSlug('invalid-cursor'));
  assert.throws(() => core.run({ ...parseQuery(feed, new URLSearchParams('limit=3&collection=movies')), cursor: feedNext }), isSlug('invalid-cursor'));
});

test('any since value is a valid bound or an invalid-query problem naming since', () => {
  const feed = collection('feed-items')!;
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      ),
      (since) => {
        try {
          const query = parseQuery(feed, new URLSearchParams({ since }));
          assert.ok(!Number.isNaN(Date.parse(since.trim())), since);
          core(query);
        } catch (error) {
          assert.ok(isPublicError(error) && error.slug === 'invalid-query' && error.parameter === 'since', String(error));
        }
      },
    ),
    { numRuns: 300 },
  );
  function core(query: ReturnType<typeof parseQuery>): void {
    const page = new QueryCore(image).run({ ...query, limit: 100 });
    const bound = query.filters[0]!.key;
    for (const json of page.items) assert.ok(String((JSON.parse(json) as { date: string }).date) >= bound.slice(0, 10));
  }
});

test('a search cursor whose record is gone (a rebuild removed it) still resumes at its place in the ranking', () => {
  const hex = fc.stringMatching(/^[0-9a-f]{24}$/);
  fc.assert(
    fc.property(searchArbitrary, fc.nat(), hex, fc.boolean(), (q, pick, id, scan) => {
      const query = parseSearch(names, new URLSearchParams({ q, limit: '10' }));
      const all = expectedHits(items, q);
      fc.pre(all.length > 0);
      const anchor = all[pick % all.length]!;
      const canonicalId = `itm_${id}`;
      const cursor = encodeCursor(image.cursorKey, searchBinding(query), { values: [anchor.tier, anchor.key], canonicalId });
      const after = (h: (typeof all)[number]) =>
        h.tier > anchor.tier || (h.tier === anchor.tier && (h.key < anchor.key || (h.key === anchor.key && h.canonicalId > canonicalId)));
      const expected = all
        .filter(after)
        .slice(0, 10)
        .map((h) => h.canonicalId);
      assert.deepEqual((scan ? scanning : indexed).run({ ...query, cursor }).canonicalIds, expected);
    }),
    { numRuns: 200 },
  );
});
