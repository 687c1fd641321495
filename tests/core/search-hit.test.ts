/**
 * A search hit is the stored hit's bytes with the matched field spliced in after its title
 * (src/core/search.ts `withField`), which must be exactly what parsing the stored hit and
 * serializing `{canonicalId, collection, title, field, ...rest}` gives, for any hit the
 * image writer can store and for hits shaped otherwise.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from '../helpers/fc.ts';
import { contentCollections } from '../../src/collections/index.ts';
import { Image } from '../../src/core/image.ts';
import { parseSearch, SearchCore, withField } from '../../src/core/search.ts';
import { paths } from '../../src/paths.ts';

/** The full path: parse the stored hit, serialize it with the field after the title. */
function parsed(json: string, field: string): string {
  const { canonicalId, collection, title, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify({ canonicalId, collection, title, field, ...rest });
}

/** The hit as the search answers it, from its stored bytes. */
const spliced = (json: string, field: string) => Buffer.concat(withField(Buffer.from(json), field)).toString();

/** Text with what a title can hold: quotes, backslashes, controls, non-ASCII, lone surrogates, and member-like runs. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', ',', ':', '}', '{', 'a', 'é', '\u001f', '\n', '\ud800', '"field":', '","url":"') }),
);
const canonicalId = fc.stringMatching(/^itm_[0-9a-f]{24}$/);
const name = fc.constantFrom('movies', 'tweets', 'sporting-events', 'books');

/** Hits as the writer stores them (search-index.ts `searchRow`), with a date and year or without. */
const written = fc.record(
  {
    canonicalId,
    collection: name,
    title: text,
    url: text,
    date: text,
    year: fc.integer({ min: 1000, max: 9999 }),
  },
  { requiredKeys: ['canonicalId', 'collection', 'title', 'url'] },
);

/** Hits shaped otherwise: another member order, a title that is not a string or absent, a member named field, other collection names. */
const other = fc.dictionary(
  fc.constantFrom('canonicalId', 'collection', 'title', 'url', 'field', 'year', 'x'),
  fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean(), fc.array(text, { maxLength: 2 })),
);

test('the field spliced into a written hit is what parsing and serializing it gives', () => {
  fc.assert(
    fc.property(written, text, (hit, field) => {
      const json = JSON.stringify(hit);
      assert.equal(spliced(json, field), parsed(json, field));
    }),
    { numRuns: 2000 },
  );
});

test('a hit not shaped as the writer writes it is answered as parsing and serializing it gives', () => {
  fc.assert(
    fc.property(other, text, (hit, field) => {
      const json = JSON.stringify(hit);
      assert.equal(spliced(json, field), parsed(json, field));
    }),
    { numRuns: 2000 },
  );
});

test('a title holding quotes, backslashes and member-like text is spliced after its closing quote', () => {
  const hit = { canonicalId: `itm_${'a'.repeat(24)}`, collection: 'movies', title: 'say \\"hi\\", "field":1,"url":"x"\\', url: '/m' };
  const json = JSON.stringify(hit);
  assert.equal(spliced(json, 'title'), parsed(json, 'title'));
  assert.equal(spliced(json, 'title'), json.replace(',"url":"/m"}', ',"field":"title","url":"/m"}'));
});

const image = new Image(paths.image);
after(() => image.close());
const titles = (image.db.prepare('SELECT head FROM search').all() as { head: string }[]).map((r) => r.head);

test('the joined search page is the page its hits make, page after page, in either search plan', () => {
  const cores = [new SearchCore(image), new SearchCore(image, { scan: true })];
  const searchable = contentCollections.map((c) => c.name);
  fc.assert(
    fc.property(
      fc.constantFrom(...titles),
      fc.nat(),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 7 }),
      fc.boolean(),
      (head, at, length, limit, scan) => {
        const core = cores[scan ? 1 : 0]!;
        const q = head.slice(at % Math.max(1, head.length), (at % Math.max(1, head.length)) + length).trim() || 'a';
        let query = parseSearch(searchable, new URLSearchParams({ q, limit: String(limit) }));
        for (let pages = 0; pages < 4; pages++) {
          const page = core.run(query);
          const joined = core.runJoined(query);
          assert.equal(Buffer.concat(joined.parts).toString(), page.items.join(','));
          const { parts: _, ...summary } = joined;
          const { items: __, canonicalIds: ___, ...expected } = page;
          assert.deepEqual(summary, expected);
          if (page.next === undefined) break;
          query = { ...query, cursor: page.next };
        }
      },
    ),
    { numRuns: 150 },
  );
});
