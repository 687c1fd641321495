/**
 * A search hit is the stored hit with the matched field spliced in after its title
 * (src/core/search.ts `withField`), which must be exactly what parsing the stored hit and
 * serializing `{canonicalId, collection, title, field, ...rest}` gives, for any hit the
 * image writer can store and for hits shaped otherwise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { withField } from '../../src/core/search.ts';

/** The full path: parse the stored hit, serialize it with the field after the title. */
function parsed(json: string, field: string): string {
  const { canonicalId, collection, title, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify({ canonicalId, collection, title, field, ...rest });
}

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
      assert.equal(withField(json, field), parsed(json, field));
    }),
    { numRuns: 2000 },
  );
});

test('a hit not shaped as the writer writes it is answered as parsing and serializing it gives', () => {
  fc.assert(
    fc.property(other, text, (hit, field) => {
      const json = JSON.stringify(hit);
      assert.equal(withField(json, field), parsed(json, field));
    }),
    { numRuns: 2000 },
  );
});

test('a title holding quotes, backslashes and member-like text is spliced after its closing quote', () => {
  const hit = { canonicalId: `itm_${'a'.repeat(24)}`, collection: 'movies', title: 'say \\"hi\\", "field":1,"url":"x"\\', url: '/m' };
  const json = JSON.stringify(hit);
  assert.equal(withField(json, 'title'), parsed(json, 'title'));
  assert.equal(withField(json, 'title'), json.replace(',"url":"/m"}', ',"field":"title","url":"/m"}'));
});
