/**
 * The pre-serialized wire form of records (src/rpc/wire.ts) is capnweb's own: for every
 * record of the image, and for generated ones — date and URL fields that read and that do
 * not (days past the 28th, years before 100, offsets, lowercase markers, escapes, non-ASCII,
 * spaces and backslashes in links), nested arrays and objects, quotes and escapes in keys
 * and values, integer-like keys — the one pass over the stored bytes gives exactly
 * `serialize` of the native records, or declines (only for a `__proto__` key).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { serialize } from 'capnweb';
import fc from '../helpers/fc.ts';
import { collection, restCollections } from '../../src/collections/index.ts';
import { Image, recordsTable } from '../../src/core/image.ts';
import { paths } from '../../src/paths.ts';
import { nativeFields, nativeRecord, SEARCH_HIT_KINDS, searchHit, type WireKind } from '../../src/rpc/values.ts';
import { wireFields, wireJoined } from '../../src/rpc/wire.ts';

const image = new Image(paths.image);
after(() => image.close());

/** Records joined as the core joins them: their UTF-8 bytes, and a comma between two, as parts. */
const joined = (jsons: readonly string[]) => jsons.flatMap((json, i) => (i === 0 ? [Buffer.from(json)] : [Buffer.from(','), Buffer.from(json)]));
const wire = (jsons: readonly string[], kinds: ReadonlyMap<string, WireKind>) => {
  const bytes = wireJoined(joined(jsons), wireFields(kinds));
  return bytes === undefined ? undefined : Buffer.from(bytes).toString();
};

test('every record of the image, a page at a time, has the wire form capnweb gives its native form', () => {
  let records = 0;
  for (const c of restCollections) {
    const rows = (image.db.prepare(`SELECT json FROM ${recordsTable(c.name)}`).all() as { json: string }[]).map((r) => r.json);
    for (let start = 0; start < rows.length; start += 7) {
      const page = rows.slice(start, start + 7);
      assert.equal(wire(page, nativeFields(c)), serialize(page.map((json) => nativeRecord(c, json))), c.name);
      records += page.length;
    }
  }
  assert.ok(records > 500);
  assert.equal(wire([], nativeFields(collection('movies')!)), serialize([]));
});

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const dateText = fc.oneof(
  fc
    .record({ y: fc.integer({ min: 0, max: 9999 }), m: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }) })
    .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc
    .record({
      y: fc.integer({ min: 1, max: 9999 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
      h: fc.integer({ min: 0, max: 25 }),
      mi: fc.integer({ min: 0, max: 60 }),
      s: fc.integer({ min: 0, max: 60 }),
      tail: fc.constantFrom('', 'Z', 'z', '.123Z', '+02:00', '-05:30', 'X'),
    })
    .map(({ y, m, d, h, mi, s, tail }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${tail}`),
  fc.constantFrom('2020-01', '', 'yesterday', '2020-01-01 10:00:00', '２０２０-01-01', '2020-01-01T10:00Z', '+002020-01-01'),
  fc.string(),
);
const urlText = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('https://EXAMPLE.com', 'https://例え.jp/パス?q=é', 'http://x/a b', 'foo:a\\b', 'https://x/"q"', '/relative', 'not a url', 'mailto:a@b', ''),
  fc.string(),
);
/** Any JSON value; arrays, objects, escapes and non-ASCII text included. */
const anyValue = fc.jsonValue({ maxDepth: 3 });

/** A record of `c`'s shape: its native fields as date or URL text (or anything), among other keys. */
const recordOf = (kinds: ReadonlyMap<string, WireKind>) =>
  fc
    .tuple(
      fc
        .subarray([...kinds])
        .chain((fields) =>
          fc.tuple(...fields.map(([name, kind]) => fc.oneof(kind === 'url' ? urlText : dateText, anyValue).map((value) => [name, value] as const))),
        ),
      fc.array(fc.tuple(fc.oneof(fc.string(), fc.constantFrom('0', '7', 'a"b', 'c\\d', 'title', 'é')), anyValue), { maxLength: 6 }),
    )
    .map(([natives, others]) => JSON.stringify(Object.fromEntries([...others.slice(0, 2), ...natives, ...others.slice(2)])));

for (const [label, kinds, native] of [
  ['movies', nativeFields(collection('movies')!), (json: string) => nativeRecord(collection('movies')!, json)],
  ['places', nativeFields(collection('places')!), (json: string) => nativeRecord(collection('places')!, json)],
  ['search hits', SEARCH_HIT_KINDS, searchHit],
] as const) {
  test(`generated ${label}: the one pass gives capnweb's bytes, or declines a __proto__ key`, () => {
    fc.assert(
      fc.property(fc.array(recordOf(kinds), { maxLength: 5 }), (jsons) => {
        const fast = wire(jsons, kinds);
        if (fast === undefined) assert.ok(jsons.some((json) => json.includes('"__proto__"')));
        else assert.equal(fast, serialize(jsons.map(native)));
      }),
      { numRuns: 400 },
    );
  });
}

test('a __proto__ key, which capnweb drops, sends the page the long way', () => {
  const kinds = nativeFields(collection('movies')!);
  assert.equal(wire(['{"__proto__":{"x":1},"title":"a"}'], kinds), undefined);
  assert.equal(wire(['{"a":[1]}', '[1]'], kinds), undefined, 'a record that is not an object');
});
