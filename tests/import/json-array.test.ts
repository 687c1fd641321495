/**
 * The streamed JSON array reader (src/import/json-array.ts) against `JSON.parse`: on
 * generated arrays — strings full of brackets, braces, commas, quotes, escapes, control
 * characters and unicode (astral, lone surrogates, U+2028), any JSON whitespace between
 * tokens — cut into chunks at any byte (also inside a multi-byte character), it gives
 * exactly the elements `JSON.parse` gives; and on the same texts damaged by one edit, it
 * refuses exactly when `JSON.parse` refuses (or gives something that is not an array).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonArrayElements, JsonArrayError, JsonArraySplitter } from '../../src/import/json-array.ts';
import fc from '../helpers/fc.ts';

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', '\\"', '/', ' ', '\n', '\t', 'u', '0') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '€', '😀', '𝄞', '\u2028', '\u2029', '\u0000', '\u001f', '\ufeff', '\ud800', '\udfff') },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const value = fc.jsonValue({ maxDepth: 4, stringUnit: unit });
const whitespace = fc.stringMatching(/^[ \t\n\r]{0,3}$/);

/** JSON text of `v` with generated JSON whitespace between its tokens. */
function spaced(v: unknown, ws: () => string): string {
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${spaced(x, ws)}${ws()}`).join(`,${ws()}`)}]`;
  if (v !== null && typeof v === 'object') return `{${ws()}${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${spaced(x, ws)}${ws()}`).join(`,${ws()}`)}}`;
  return JSON.stringify(v);
}

const arrayText = fc
  .tuple(fc.array(value, { maxLength: 8 }), fc.infiniteStream(whitespace))
  .map(([items, stream]) => {
    const it = stream[Symbol.iterator]();
    const ws = () => it.next().value as string;
    return `${ws()}${spaced(items, ws)}${ws()}`;
  });

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

async function streamed(parts: readonly Buffer[]): Promise<{ ok: true; value: unknown[] } | { ok: false; error: unknown }> {
  const value: unknown[] = [];
  try {
    for await (const element of jsonArrayElements((async function* () {
      yield* parts;
    })())) value.push(element);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

function whole(text: string): { ok: true; value: unknown[] } | { ok: false } {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });

test('json-array: the elements of any array are JSON.parse’s, whatever the chunks', async () => {
  await fc.assert(
    fc.asyncProperty(arrayText, cuts, async (text, at) => {
      const expected = whole(text);
      assert.equal(expected.ok, true);
      const got = await streamed(chunks(text, at));
      assert.deepEqual(got, expected);
    }),
    { numRuns: 400 },
  );
});

const edit = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace', 'cut', 'beside'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  char: fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', ' ', '1', '-', 'e', '.', 'n', 'x', '\u00a0', '\u0001'),
});

test('json-array: a damaged array is refused exactly when JSON.parse refuses it', async () => {
  await fc.assert(
    fc.asyncProperty(arrayText, edit, cuts, async (text, e, at) => {
      // `beside`: next to a bracket, brace, comma or colon, where the separators are checked.
      const marks = [...text.matchAll(/[[\]{},:]/g)].map((m) => m.index + (e.char.charCodeAt(0) % 2));
      const i = e.kind === 'beside' ? (marks[Math.floor(e.at * marks.length)] ?? 0) : Math.floor(e.at * text.length);
      const damaged =
        e.kind === 'delete' ? text.slice(0, i) + text.slice(i + 1)
        : e.kind === 'insert' || e.kind === 'beside' ? text.slice(0, i) + e.char + text.slice(i)
        : e.kind === 'replace' ? text.slice(0, i) + e.char + text.slice(i + 1)
        : text.slice(0, i);
      const expected = whole(damaged);
      const got = await streamed(chunks(damaged, at));
      assert.equal(got.ok, expected.ok, `${JSON.stringify(damaged)}: ${got.ok ? 'read' : String((got as { error: unknown }).error)}`);
      if (got.ok && expected.ok) assert.deepEqual(got.value, expected.value);
      if (!got.ok) assert.ok(got.error instanceof JsonArrayError, String(got.error));
    }),
    { numRuns: 2000 },
  );
});

test('json-array: a head and a tail are the caller’s to allow', () => {
  const head = (text: string) => (/^window\.YTD\.tweets\.part0 = $/.test(text) ? undefined : 'not the assignment');
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
});
