/**
 * JSON bodies for the music POSTs: the owner's published profile as an intersection
 * request, and station requests of the contract's shape, then mutated structurally (wrong
 * types, deleted and unknown fields, values at and past every bound, huge arrays, deep
 * nesting, prototype keys) and textually (bytes, duplicate keys, BOM, trailing garbage,
 * bodies at the size bound). Canaries: class v in values (the music problems never echo a
 * value), class k in keys (a problem names the path, so an unknown key may come back).
 */
import fc from 'fast-check';
import { bytes, canary, EDGE_LENGTHS, hostileText, mutate, oneOf } from './common.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const JSON_TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  'null',
  'true',
  '1e999',
  '-',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '"__proto__":',
  `"${canary('k')}":`,
  `"${canary('v')}"`,
];

function paths(value: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.slice(0, 8).forEach((v, i) => paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

function getAt(value: Json, path: Path): Json {
  let node: Json = value;
  for (const key of path) node = (node as Record<string | number, Json>)[key] as Json;
  return node;
}

function setAt(value: Json, path: Path, replacement: Json | undefined): Json {
  if (path.length === 0) return replacement ?? null;
  // A copy that shares nothing: a grown array repeats its elements by reference, and a
  // change made through one repetition must not reach them all (structuredClone keeps the
  // sharing).
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1]!;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = replacement;
  return copy;
}

const nestedArrays = (depth: number): Json => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as Json;

/**
 * The most characters an array grown by `change` may serialize to. A huge array is about
 * its count, and every body past a few times the 32 KiB bound is refused alike (413).
 * Growth used to compound over the rounds (3,000 copies of a 20,000-character string, or
 * of a 500-deep nest of arrays, then a change inside one copy that, the copies being one
 * shared value, reached all of them): seed 7 built bodies of 10 to 317 MB, each holding
 * the fuzzer's event loop for seconds (48 s for the largest), long enough for its own
 * clock to call the server frozen.
 */
export const GROWN_ARRAY_BYTES_MAX = 256 * 1024;

/** `len`, or fewer when `len` elements of `array` (repeated in order) would serialize past GROWN_ARRAY_BYTES_MAX. */
export function grownLength(array: readonly Json[], len: number): number {
  const perElement = Math.max(1, JSON.stringify(array).length / array.length);
  return Math.max(1, Math.min(len, Math.floor(GROWN_ARRAY_BYTES_MAX / perElement)));
}

/** One structural change at a random place of `value`. */
function change(value: Json): fc.Arbitrary<Json> {
  const where = paths(value);
  return fc.tuple(oneOf(...where), fc.nat({ max: 1 << 30 })).chain(([path, n]) => {
    const node = getAt(value, path);
    const replacements: fc.Arbitrary<Json | undefined>[] = [
      oneOf<Json>(null, 0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, true, '', 'x', [], {}, [null], { a: 1 }, '1', 'love', 'itm_000000000000000000000000'),
      fc.constant(undefined),
      hostileText().map((t): Json => t),
      fc.constant<Json>(canary('v')),
      oneOf(...EDGE_LENGTHS).map((len): Json => 'é'.repeat(len)),
      oneOf(10, 500).map(nestedArrays),
    ];
    if (Array.isArray(node) && node.length > 0)
      replacements.push(
        oneOf(20, 21, 50, 51, 100, 101, 200, 201, 500, 501, 3000).map((len): Json =>
          Array.from({ length: grownLength(node, len) }, (_, i) => node[i % node.length]!),
        ),
      );
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      replacements.push(
        oneOf(canary('k'), '__proto__', 'constructor', 'prototype', '', 'schemaVersion', 'a'.repeat(300)).map((key): Json => ({ ...node, [key]: canary('v') })),
      );
    }
    return fc
      .oneof(...replacements)
      .map((replacement) => setAt(value, path, replacement === undefined && path.length === 0 ? (n % 2 === 0 ? null : {}) : replacement));
  });
}

const changed = (value: Json) =>
  fc.integer({ min: 1, max: 3 }).chain((rounds) => {
    const go = (v: Json, left: number): fc.Arbitrary<Json> => (left === 0 ? fc.constant(v) : change(v).chain((next) => go(next, left - 1)));
    return go(value, rounds);
  });

/** Text-level forms of a JSON value: serialized, padded to a size bound, with a prototype key or duplicate key, a BOM, trailing bytes, mutated bytes. */
function serialized(value: fc.Arbitrary<Json>, bound: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: value.map((v) => bytes(JSON.stringify(v))) },
    { weight: 3, arbitrary: value.chain((v) => mutate(bytes(JSON.stringify(v)), JSON_TOKENS.map(bytes))) },
    {
      weight: 2,
      arbitrary: fc.tuple(value, oneOf('proto', 'duplicate', 'bom', 'trailing', 'bound', 'pastBound', 'utf16', 'deep')).map(([v, form]) => {
        const text = JSON.stringify(v);
        switch (form) {
          case 'proto':
            return bytes(text.replace('{', `{"__proto__":{"polluted":"${canary('v')}","schemaVersion":"2"},`));
          case 'duplicate':
            return bytes(text.replace('{', '{"schemaVersion":"2",'));
          case 'bom':
            return bytes(`\uFEFF${text}`);
          case 'trailing':
            return bytes(`${text} {}`);
          case 'bound':
            return bytes(`${text}${' '.repeat(Math.max(0, bound - Buffer.byteLength(text)))}`);
          case 'pastBound':
            return bytes(`${text}${' '.repeat(Math.max(1, bound + 1 - Buffer.byteLength(text)))}`);
          case 'deep':
            return `{"profile":${'['.repeat(20000)}${']'.repeat(20000)}}`;
          default:
            return Buffer.from(text, 'utf16le').toString('latin1');
        }
      }),
    },
  );
}

export function intersectionBody(profile: unknown): fc.Arbitrary<string> {
  const base = { profile } as Json;
  return serialized(fc.oneof({ weight: 1, arbitrary: fc.constant(base) }, { weight: 6, arbitrary: changed(base) }), 32768);
}

export function stationBody(ids: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(oneOf('Fado', 'Mariza', 'Björk', 'Radiohead', 'Jazz', ...ids.slice(0, 5)), hostileText(12), fc.constant(canary('v')));
  const kind = oneOf('artist', 'genre', 'track');
  const valid = fc
    .record({
      schemaVersion: fc.constant('1'),
      stationSeed: fc.oneof(oneOf('sunday', '', 'x'.repeat(64)), fc.constant(canary('v'))),
      affinities: fc.array(fc.record({ kind, value, weight: fc.double({ min: -1, max: 1, noNaN: true }) }), { maxLength: 4 }),
      votes: fc.array(fc.record({ canonicalId: ids.length > 0 ? oneOf(...ids) : fc.constant('itm_000000000000000000000000'), vote: oneOf('up', 'down') }), {
        maxLength: 3,
      }),
      hardExclusions: fc.array(fc.record({ kind, value }), { maxLength: 3 }),
      recentCanonicalIds: fc.array(ids.length > 0 ? oneOf(...ids) : fc.constant('itm_000000000000000000000000'), { maxLength: 4 }),
      limit: fc.integer({ min: 1, max: 6 }),
      intent: fc.option(fc.oneof(hostileText(), fc.constant(canary('v'))), { nil: undefined }),
      context: fc.option(oneOf('focus', 'workout', 'commute', 'dinner', 'party', 'sleep'), { nil: undefined }),
    })
    .map((r) => JSON.parse(JSON.stringify(r)) as Json);
  return serialized(fc.oneof({ weight: 2, arbitrary: valid }, { weight: 5, arbitrary: valid.chain(changed) }), 24576);
}
