/**
 * Query strings for list routes, from what each route declares: a collection's real
 * filter names and kinds (src/collections), the common parameters (limit, cursor, sort,
 * facets, q), the cross-collection search's parameters and the taste summary's. Values
 * are valid, near-valid (bounds, signs, padding, case), hostile text, broken
 * percent-encodings, real cursors mutated, or carry a canary; names are repeated, unknown
 * or missing their value. Routes without a declaration get parameters of any name.
 */
import fc from 'fast-check';
import { collection, contentCollections } from '../../../src/collections/index.ts';
import type { FilterKind } from '../../../src/collections/define.ts';
import { BAD_ESCAPES, bytes, canary, hostileText, mutate, oneOf, percentEncode, PLAUSIBLE, spliced } from './common.ts';
import { anyParameter } from './http.ts';

type Kind = FilterKind | { type: 'limit' } | { type: 'cursor' } | { type: 'sort'; fields: readonly string[] } | { type: 'facets' } | { type: 'q' };
interface Parameter {
  name: string;
  kind: Kind;
}

const common = (sortFields: readonly string[]): Parameter[] => [
  { name: 'limit', kind: { type: 'limit' } },
  { name: 'cursor', kind: { type: 'cursor' } },
  { name: 'sort', kind: { type: 'sort', fields: sortFields } },
  { name: 'facets', kind: { type: 'facets' } },
  { name: 'q', kind: { type: 'q' } },
];

/** The parameters a list path takes, or undefined when the path declares none we know. */
export function parametersOf(path: string): Parameter[] | undefined {
  if (path === '/api/search.json') {
    return [
      { name: 'q', kind: { type: 'q' } },
      { name: 'collection', kind: { type: 'enum', values: contentCollections.map((c) => c.name) } },
      { name: 'year', kind: { type: 'integer', min: 1000, max: 9999 } },
      { name: 'limit', kind: { type: 'limit' } },
      { name: 'cursor', kind: { type: 'cursor' } },
    ];
  }
  if (path === '/api/taste/summary.json') {
    return [
      { name: 'collection', kind: { type: 'enum', values: ['movies'] } },
      { name: 'exampleLimit', kind: { type: 'integer', min: 0, max: 12 } },
    ];
  }
  const declaration = collection(/^\/api\/([a-z-]+)\.json$/.exec(path)?.[1] ?? '');
  if (!declaration?.rest) return undefined;
  return [...Object.entries(declaration.filters).map(([name, spec]) => ({ name, kind: spec.kind })), ...common(Object.keys(declaration.sort))];
}

const DATES = [
  '2024-01-01',
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '2024-01-01T00:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-06-30T23:59:60Z',
  '2024-01-01t00:00:00z',
  '2024-01-01T00:00:00',
  '2024-01-01T00:00:00.123456789+14:00',
  '0000-01-01',
  '9999-12-31',
  '+275760-09-13',
  '2024-1-1',
  '2024',
  '',
];

/** A value the parameter accepts, so that what else the request carries reaches the query itself. */
function validValue(kind: Kind, cursors: readonly string[]): fc.Arbitrary<string> {
  switch (kind.type) {
    case 'integer':
      return fc.integer({ min: kind.min, max: kind.max }).map(String);
    case 'enum':
      return oneOf(...kind.values);
    case 'since':
      return oneOf('2020-01-01', '2024-02-29', '2024-06-30T23:59:60Z', '2025-01-01T00:00:00.123456789+14:00');
    case 'string':
    case 'q':
      return oneOf(...PLAUSIBLE);
    case 'limit':
      return fc.integer({ min: 1, max: 100 }).map(String);
    case 'facets':
      return oneOf('1', 'true', 'yes', ' Yes ');
    case 'sort':
      return fc
        .subarray([...kind.fields], { minLength: 1, maxLength: Math.min(4, kind.fields.length) })
        .chain((fields) => fc.tuple(...fields.map((f) => oneOf(f, `${f}:asc`, `${f}:desc`))).map((keys) => keys.join(',')));
    case 'cursor':
      return cursors.length > 0 ? oneOf(...cursors) : fc.constant('');
  }
}

/** Raw values (text, before encoding) for one parameter kind: valid, near-valid, hostile. */
function values(kind: Kind, cursors: readonly string[]): fc.Arbitrary<string> {
  const hostile = { weight: 3, arbitrary: hostileText() };
  const planted = { weight: 1, arbitrary: fc.constant(canary('q')) };
  const valid = { weight: 3, arbitrary: validValue(kind, cursors) };
  switch (kind.type) {
    case 'integer':
      return fc.oneof(
        valid,
        { weight: 3, arbitrary: oneOf(kind.min - 1, kind.max + 1, 0, -1, 2 ** 53, -(2 ** 53)).map(String) },
        { weight: 3, arbitrary: oneOf('+2024', ' 2024 ', '2024.0', '2e3', '0x7E8', '٢٠٢٤', '２０２４', '9'.repeat(30), '2024abc', '-0', '0002024', '1_000') },
        hostile,
        planted,
      );
    case 'enum':
      return fc.oneof(
        valid,
        { weight: 2, arbitrary: oneOf(...kind.values).chain((v) => oneOf(v.toUpperCase(), ` ${v} `, `${v}\u0000`, `${v},${v}`, v.slice(0, -1), `${v}x`)) },
        hostile,
        planted,
      );
    case 'since':
      return fc.oneof(valid, { weight: 3, arbitrary: oneOf(...DATES) }, hostile, planted);
    case 'string':
    case 'q':
      return fc.oneof(valid, { weight: 3, arbitrary: spliced }, hostile, planted);
    case 'limit':
      return fc.oneof(
        valid,
        { weight: 2, arbitrary: oneOf('0', '101', '-1', '1.5', '1e2', '1e309', 'Infinity', '-Infinity', 'NaN', '0x10', ' 5 ', '', '9'.repeat(400)) },
        hostile,
      );
    case 'facets':
      return fc.oneof(valid, { weight: 2, arbitrary: oneOf('TRUE', '0', 'no', '') }, hostile);
    case 'sort': {
      const key = fc.tuple(
        oneOf(...kind.fields, 'canonicalId', 'TITLE', '', canary('q')),
        oneOf('', ':asc', ':desc', ':ASC', ':up', '::', ':asc:desc', ' : desc '),
      );
      return fc.oneof(
        valid,
        { weight: 3, arbitrary: fc.array(key, { minLength: 1, maxLength: 6 }).map((keys) => keys.map(([f, d]) => f + d).join(',')) },
        hostile,
      );
    }
    case 'cursor': {
      const mutated =
        cursors.length > 0
          ? [{ weight: 5, arbitrary: oneOf(...cursors).chain((c) => mutate(c, ['=', '.', '-', '_', 'A', '/', '+', '%', '\u0000', 'é', c])) }]
          : [];
      return fc.oneof(valid, ...mutated, { weight: 2, arbitrary: fc.base64String({ maxLength: 120 }) }, hostile, planted);
    }
  }
}

/** A value as it goes into the target: encoded properly, form-style, with broken escapes, or raw. */
const encoded = (raw: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 10, arbitrary: raw.map((v) => percentEncode(bytes(v))) },
    { weight: 1, arbitrary: raw.map((v) => percentEncode(bytes(v)).replace(/%20/g, '+')) },
    { weight: 2, arbitrary: fc.tuple(raw, oneOf(...BAD_ESCAPES)).map(([v, bad]) => `${percentEncode(bytes(v))}${bad}`) },
    { weight: 1, arbitrary: raw.map(bytes) },
  );

const memo = new WeakMap<Record<string, string[]>, Map<string, fc.Arbitrary<[string, string][]>>>();

/** The pairs of a query string for `path`, with real cursors to mutate (of every list: cursors cross collections too). Built once per path. */
export function queryPairs(path: string, cursors: Record<string, string[]>): fc.Arbitrary<[string, string][]> {
  let byPath = memo.get(cursors);
  if (!byPath) memo.set(cursors, (byPath = new Map()));
  let arbitrary = byPath.get(path);
  if (!arbitrary) byPath.set(path, (arbitrary = buildPairs(path, cursors)));
  return arbitrary;
}

function buildPairs(path: string, cursors: Record<string, string[]>): fc.Arbitrary<[string, string][]> {
  const parameters = parametersOf(path);
  const own = cursors[path] ?? [];
  const all = Object.values(cursors).flat();
  if (!parameters) return fc.array(anyParameter, { maxLength: 4 });
  const known = fc.oneof(
    ...parameters.map((p) =>
      encoded(
        p.kind.type === 'cursor' ? fc.oneof({ weight: 4, arbitrary: values(p.kind, own) }, { weight: 1, arbitrary: values(p.kind, all) }) : values(p.kind, own),
      ).map((v): [string, string] => [p.name, v]),
    ),
  );
  // Valid values only, each parameter at most once: the query reaches the core.
  const valid = fc
    .subarray(parameters, { maxLength: Math.min(4, parameters.length) })
    .chain((chosen) =>
      chosen.length === 0
        ? fc.constant<[string, string][]>([])
        : fc.tuple(...chosen.map((p) => validValue(p.kind, own).map((v): [string, string] => [p.name, percentEncode(bytes(v))]))),
    );
  const odd = oneOf<[string, string]>(
    ['q', '\u0000novalue'],
    ['', 'x'],
    ['', ''],
    ['&', ''],
    ['limit', ''],
    [`${canary('q')}`, '1'],
    ['Limit', '5'],
    ['q%00', 'a'],
    ['%71', 'a'],
    ['q[]', 'a'],
    ['__proto__', 'x'],
    ['constructor', 'x'],
  );
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    // Valid but for one parameter: whatever that one breaks is not hidden by another's refusal.
    {
      weight: 5,
      arbitrary: fc
        .tuple(valid, known, fc.nat())
        .map(([pairs, bad, at]): [string, string][] => [
          ...pairs.filter(([n]) => n !== bad[0]).slice(0, at % (pairs.length + 1)),
          bad,
          ...pairs.filter(([n]) => n !== bad[0]).slice(at % (pairs.length + 1)),
        ]),
    },
    {
      weight: 4,
      arbitrary: fc.array(fc.oneof({ weight: 8, arbitrary: known }, { weight: 1, arbitrary: odd }, { weight: 1, arbitrary: anyParameter }), { maxLength: 5 }),
    },
    // The same parameter many times (short values only: a long one repeated is just a huge target, which other cases send).
    {
      weight: 1,
      arbitrary: fc.tuple(known, fc.integer({ min: 2, max: 300 })).map(([pair, n]) => Array.from({ length: pair[1].length > 64 ? 2 : n }, () => pair)),
    },
  );
}
