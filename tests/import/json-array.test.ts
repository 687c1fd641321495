/**
 * The streamed JSON array reader (src/import/json-array.ts) against `JSON.parse`: on
 * generated arrays — strings full of brackets, braces, commas, quotes, escapes, control
 * characters and unicode (astral, lone surrogates, U+2028), any JSON whitespace between
 * tokens — cut into chunks at any byte (also inside a multi-byte character), it gives
 * exactly the elements `JSON.parse` gives; and on the same texts damaged by one edit, it
 * refuses exactly when `JSON.parse` refuses (or gives something that is not an array).
 * The same for the members of an object, keys given twice included (the later wins, as
 * in `JSON.parse`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonArrayElements, JsonArrayError, JsonArraySplitter, jsonObjectMembers } from '../../src/import/json-array.ts';
import fc from '../helpers/fc.ts';

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', '\\"', '/', ' ', '\n', '\t', 'u', '0') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '€', '😀', '𝄞', '\u2028', '\u2029', '\u0000', '\u001f', '\ufeff', '\ud800', '\udfff') },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
/**
 * Object keys never need an escape (no quote, backslash or control character): V8 in
 * Node 24 sometimes reads an escaped key as another one once a similar key was parsed
 * before (https://github.com/nodejs/node/issues/63785), which would fail the reference,
 * JSON.parse, and not the splitter. Values keep every character; the members' own keys
 * with escapes are checked below against literal expectations.
 */
const keyUnit = unit.filter((u) => !/["\\\u0000-\u001f]/.test(u) && u.isWellFormed());
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: keyUnit, maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
}));
const whitespace = fc.stringMatching(/^[ \t\n\r]{0,3}$/);

/** JSON text of `v` with generated JSON whitespace between its tokens. */
function spaced(v: unknown, ws: () => string): string {
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${spaced(x, ws)}${ws()}`).join(`,${ws()}`)}]`;
  if (v !== null && typeof v === 'object')
    return `{${ws()}${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${spaced(x, ws)}${ws()}`)
      .join(`,${ws()}`)}}`;
  return JSON.stringify(v);
}

const withWhitespace = (build: (ws: () => string) => string) =>
  fc.infiniteStream(whitespace).map((stream) => {
    const it = stream[Symbol.iterator]();
    const ws = () => it.next().value as string;
    return `${ws()}${build(ws)}${ws()}`;
  });
const arrayText = fc.array(value, { maxLength: 8 }).chain((items) => withWhitespace((ws) => spaced(items, ws)));
/** An object's text whose keys may repeat (from a small set, `__proto__` among them). */
const memberKey = fc.oneof(fc.constantFrom('a', 'b', '__proto__', '0', '10', '😀'), fc.string({ unit: keyUnit, maxLength: 4 }));
const objectText = fc
  .array(fc.tuple(memberKey, value), { maxLength: 8 })
  .chain((members) =>
    withWhitespace((ws) => `{${ws()}${members.map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${spaced(v, ws)}${ws()}`).join(`,${ws()}`)}}`),
  );

/** The bytes of `text`, cut at the given fractions (any byte: also inside a character). */
function chunks(text: string, cuts: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const at = [...new Set(cuts.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  return out;
}

type Container = 'array' | 'object';
type Read = { ok: true; value: unknown } | { ok: false; error?: unknown };

/** The array's elements, or the object built from its members as JSON.parse builds it (a later key wins, `__proto__` an own key). */
async function streamed(parts: readonly Buffer[], container: Container): Promise<Read> {
  const source = (async function* () {
    yield* parts;
  })();
  try {
    if (container === 'array') {
      const value: unknown[] = [];
      for await (const element of jsonArrayElements(source)) value.push(element);
      return { ok: true, value };
    }
    const value: Record<string, unknown> = {};
    for await (const [k, v] of jsonObjectMembers(source)) Object.defineProperty(value, k, { value: v, enumerable: true, writable: true, configurable: true });
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

function whole(text: string, container: Container): Read {
  try {
    const value = JSON.parse(text) as unknown;
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    return (container === 'array' ? Array.isArray(value) : isObject) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });

const texts: [Container, fc.Arbitrary<string>][] = [
  ['array', arrayText],
  ['object', objectText],
];

for (const [container, text] of texts) {
  test(`json-array: the ${container === 'array' ? 'elements of any array' : 'members of any object'} are JSON.parse’s, whatever the chunks`, async () => {
    await fc.assert(
      fc.asyncProperty(text, cuts, async (t, at) => {
        const expected = whole(t, container);
        assert.equal(expected.ok, true);
        const got = await streamed(chunks(t, at), container);
        assert.deepStrictEqual(got, expected);
      }),
      { numRuns: 400 },
    );
  });
}

const edit = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace', 'cut', 'beside'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  char: fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', ' ', '1', '-', 'e', '.', 'n', 'x', '\u00a0', '\u0001'),
});

for (const [container, text] of texts) {
  test(`json-array: a damaged ${container} is refused exactly when JSON.parse refuses it`, async () => {
    await fc.assert(
      fc.asyncProperty(text, edit, cuts, async (t, e, at) => {
        // `beside`: next to a bracket, brace, comma or colon, where the separators are checked.
        const marks = [...t.matchAll(/[[\]{},:]/g)].map((m) => m.index + (e.char.charCodeAt(0) % 2));
        const i = e.kind === 'beside' ? (marks[Math.floor(e.at * marks.length)] ?? 0) : Math.floor(e.at * t.length);
        const damaged =
          e.kind === 'delete'
            ? t.slice(0, i) + t.slice(i + 1)
            : e.kind === 'insert' || e.kind === 'beside'
              ? t.slice(0, i) + e.char + t.slice(i)
              : e.kind === 'replace'
                ? t.slice(0, i) + e.char + t.slice(i + 1)
                : t.slice(0, i);
        // The reference reads the bytes whole, as the importer once did (a lone surrogate the edit left becomes U+FFFD in UTF-8).
        const expected = whole(Buffer.from(damaged).toString('utf8'), container);
        const got = await streamed(chunks(damaged, at), container);
        assert.equal(got.ok, expected.ok, `${JSON.stringify(damaged)}: ${got.ok ? 'read' : String(got.error)}`);
        if (got.ok) assert.deepStrictEqual(got, expected);
        else assert.ok(got.error instanceof JsonArrayError, String(got.error));
      }),
      { numRuns: 2000 },
    );
  });
}

test('json-array: a head and a tail are the caller’s to allow', () => {
  const head = (text: string) => /^window\.YTD\.tweets\.part0 = $/.test(text) || 'not the assignment';
  const splitter = new JsonArraySplitter({ head, tail: /^[ \t\n\r]*(?:;\s*)?$/ });
  assert.deepEqual(splitter.write('window.YTD.tweets.part0 = [{"a":"]"}, 2'), ['{"a":"]"}']);
  assert.deepEqual(splitter.write('] ;\n'), ['2']);
  splitter.end();
  assert.throws(() => new JsonArraySplitter({ head }).write('process.exit(1); window.YTD.tweets.part0 = []'), /not the assignment/);
  const trailing = new JsonArraySplitter({ head, tail: /^[ \t\n\r]*(?:;\s*)?$/ });
  trailing.write('window.YTD.tweets.part0 = [1]; alert(1)');
  assert.throws(() => trailing.end(), /unexpected text after the array/);
  const cut = new JsonArraySplitter();
  cut.write('[1, {"a": [');
  assert.throws(() => cut.end(), /cut short/);
  // The container may open past other brackets, where the head says so (the ledger's records).
  const ledgerHead = (text: string) => /^\{\s*"source": "[^"]*",\s*"records": $/.test(text);
  const nested = new JsonArraySplitter({ container: 'object', head: ledgerHead, tail: /^\s*\}\s*$/ });
  assert.deepEqual(nested.write('{\n  "source": "a{b",\n  "records": {"1": {"file": "x"}, "2": 3}\n}\n'), ['"1": {"file": "x"}', '"2": 3']);
  nested.end();
});

test('json-array: a member’s key with escapes is read as written', async () => {
  const keys = ['a"b', '\\', '\n', '"]}', '\u0000', '\r\f', '"'];
  const text = `{${keys.map((k, i) => `${JSON.stringify(k)}: ${i}`).join(', ')}}`;
  const members: [string, unknown][] = [];
  for await (const member of jsonObjectMembers([Buffer.from(text)] as unknown as AsyncIterable<Buffer>)) members.push(member);
  assert.deepEqual(
    members,
    keys.map((k, i) => [k, i]),
  );
});
