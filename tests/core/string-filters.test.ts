/**
 * The filters SPEC §4.1 calls strings (activities `sportType`, sporting events
 * `experience` and `experienceStatus`, music `type`, code and work `kind`) match as the
 * other string filters do, through the REST handler against the built demo image: any
 * casing and accents of a value records hold find exactly the records an independent
 * oracle finds, a value nothing holds is an empty 200 page, and the filters SPEC does
 * close (`year`, movies' `type`, places' `category`) still refuse what they do not take.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { createRestFetchHandler } from '../../functions/rest.ts';
import { restCollections } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { parseQuery } from '../../src/core/params.ts';
import { QueryCore } from '../../src/core/query.ts';
import { paths } from '../../src/paths.ts';
import { collectionView } from '../../src/site/view.ts';
import { allItems, type Item } from '../helpers/oracle.ts';

const image = new Image(paths.image);
after(() => image.close());
const handler = createRestFetchHandler(new QueryCore(image), { cacheBytes: 0, quota: 1_000_000 });

/** The filters SPEC calls strings that earlier releases closed, by collection. */
const OPENED: Readonly<Record<string, readonly string[]>> = {
  activities: ['sportType'],
  'sporting-events': ['experience', 'experienceStatus'],
  music: ['type'],
  code: ['kind'],
  work: ['kind'],
};
const cases = Object.entries(OPENED).flatMap(([name, params]) => params.map((param) => ({ collection: restCollections.find((c) => c.name === name)!, param })));
const items = new Map(cases.map(({ collection }) => [collection.name, allItems(paths.image, collection.name)]));

/** The oracle's folding, written apart from the core's: compatibility decomposition, marks dropped, lower case. */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

async function list(name: string, search: Record<string, string>): Promise<{ status: number; ids: string[]; total: number }> {
  const response = await handler(new Request(`http://x/api/${name}.json?${new URLSearchParams({ ...search, limit: '100' })}`));
  if (response.status !== 200) return { status: response.status, ids: [], total: -1 };
  const body = (await response.json()) as { data: { canonicalId: string }[]; meta: { totalCount: number } };
  return { status: 200, ids: body.data.map((d) => d.canonicalId).sort(), total: body.meta.totalCount };
}

/** A value in another casing, with combining accents on some letters. */
const mangled = (value: string) =>
  fc
    .array(fc.tuple(fc.boolean(), fc.constantFrom('', '\u0301', '\u0308', '\u0300')), { minLength: value.length, maxLength: value.length })
    .map((marks) => [...value].map((ch, i) => `${marks[i]![0] ? ch.toUpperCase() : ch.toLowerCase()}${/[a-z]/i.test(ch) ? marks[i]![1] : ''}`).join(''));

test('each of these filters is a string filter in the declarations (every surface derives from them)', () => {
  for (const { collection, param } of cases) assert.equal(collection.filters[param]!.kind.type, 'string', `${collection.name} ${param}`);
});

test('any casing and accents of a value records hold match as the oracle, ignoring case and accents', async () => {
  const drawn = fc.constantFrom(...cases).chain(({ collection, param }) => {
    const field = collection.filters[param]!.field;
    const held = [...new Set(items.get(collection.name)!.map((item: Item) => String(item[field])))];
    return fc.constantFrom(...held).chain((value) =>
      fc.record({
        name: fc.constant(collection.name),
        param: fc.constant(param),
        field: fc.constant(field),
        value: fc.constant(value),
        given: mangled(value),
      }),
    );
  });
  await fc.assert(
    fc.asyncProperty(drawn, async ({ name, param, field, value, given }) => {
      const expected = items
        .get(name)!
        .filter((item) => folded(String(item[field])) === folded(value))
        .map((item) => item.canonicalId);
      const answer = await list(name, { [param]: given });
      assert.equal(answer.status, 200, `${name}?${param}=${given}`);
      assert.equal(answer.total, expected.length);
      if (expected.length <= 100) assert.deepEqual(answer.ids, expected.sort());
    }),
    { numRuns: 120 },
  );
  // The case the issue names.
  const runs = await list('activities', { sportType: 'run' });
  assert.ok(runs.total > 0 && runs.total === (await list('activities', { sportType: 'Run' })).total);
});

test('a value no record holds is an empty page, not a 400', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...cases), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), async ({ collection, param }, raw) => {
      const value = `zz-${raw}`.replace(/[\p{Cc}\p{Cs}\uFFFD]/gu, '');
      const field = collection.filters[param]!.field;
      fc.pre(!items.get(collection.name)!.some((item) => folded(String(item[field])) === folded(value.trim())));
      const answer = await list(collection.name, { [param]: value });
      assert.deepEqual(answer, { status: 200, ids: [], total: 0 }, `${collection.name}?${param}=${value}`);
    }),
    { numRuns: 100 },
  );
});

test('the filters SPEC closes still refuse other values: year, movies type, places category', async () => {
  for (const [name, param, value] of [
    ['activities', 'year', 'abc'],
    ['movies', 'type', 'film'],
    ['places', 'category', 'museums'],
  ] as const) {
    const response = await handler(new Request(`http://x/api/${name}.json?${param}=${value}`));
    assert.equal(response.status, 400, `${name}?${param}=${value}`);
    assert.equal(((await response.json()) as { type: string }).type, '/problems/invalid-query');
  }
});

test('the site’s facet links follow: ?sportType=run selects the facet value Run, and its link clears the filter', () => {
  const activities = restCollections.find((c) => c.name === 'activities')!;
  const view = collectionView(new QueryCore(image), parseQuery(activities, new URLSearchParams({ sportType: 'run' })));
  const facet = view.facets.find((f) => f.param === 'sportType')!;
  const run = facet.values.find((v) => v.label === 'Run')!;
  assert.equal(run.active, true);
  assert.doesNotMatch(run.href, /sportType=/);
  assert.ok(view.totalCount > 0);
});
