/**
 * Hostile input: random text, SQL-shaped token soup, mutations of accepted statements
 * and runs of parentheses spliced into them never produce a 5xx, and a refused statement's answer never contains the
 * statement or any of the `zq…` identifiers and literals it used.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSqlHandler } from '../../functions/sql.ts';
import { sqlImageBytes } from '../../src/sql/image.ts';
import fc from '../helpers/fc.ts';

const records = Array.from({ length: 30 }, (_, i) => ({
  canonicalId: `w-${i}`,
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  publishedAt: `2020-01-${String(i + 1).padStart(2, '0')}`,
  tags: ['x'],
  ...(i % 2 ? { wordCount: i } : {}),
}));
let client = 0;
const answer = createSqlHandler({ image: sqlImageBytes(records), clientOf: () => String(client++) });
const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };

async function check(sql: string): Promise<void> {
  const result = await answer(facts, Buffer.from(sql));
  assert.ok(result.status < 500, `${JSON.stringify(sql)} → ${result.status}`);
  if (result.status === 200) return;
  const text = Buffer.from(result.body!).toString();
  const statement = sql.trim();
  if (statement.length >= 8) assert.ok(!text.includes(statement), `${JSON.stringify(sql)} echoed`);
  for (const marker of sql.match(/zq[a-z0-9]+/gi) ?? [])
    assert.ok(!text.toLowerCase().includes(marker.toLowerCase()), `${JSON.stringify(sql)} echoed ${marker}`);
  for (const value of Object.values(result.headers)) for (const marker of sql.match(/zq[a-z0-9]+/gi) ?? []) assert.ok(!value.includes(marker));
}

const KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'LIKE',
  'IS',
  'NULL',
  'ORDER',
  'BY',
  'LIMIT',
  'OFFSET',
  'AS',
  'JOIN',
  'ON',
  'UNION',
  'WITH',
  'GROUP',
  'HAVING',
  'DISTINCT',
  'DESC',
  'ASC',
  'BETWEEN',
  'COUNT',
  'PRAGMA',
  'ATTACH',
  'INSERT',
  'INTO',
  'VALUES',
  'DELETE',
  'DROP',
  'TABLE',
  'DATE',
  'TRUE',
  'FALSE',
  'CASE',
  'WHEN',
  'THEN',
  'END',
  'EXISTS',
];
const PUNCT = ['(', ')', ',', ';', '*', '=', '<>', '<', '>=', '.', '||', '+', '-', '::', '$1', '?', '--', '/*', '*/', "'"];
const NAMES = [
  'public.writing',
  'writing',
  'information_schema.tables',
  'information_schema.columns',
  'title',
  'url',
  'published_at',
  'word_count',
  'tags',
  'sqlite_master',
];
const marker = fc.stringMatching(/^zq[a-z0-9]{3,8}$/);
const token = fc.oneof(
  fc.constantFrom(...KEYWORDS),
  fc.constantFrom(...PUNCT),
  fc.constantFrom(...NAMES),
  marker,
  marker.map((m) => `'${m}'`),
  marker.map((m) => `"${m}"`),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
);
const soup = fc.array(token, { minLength: 1, maxLength: 30 }).map((t) => t.join(' '));

const BASES = [
  "SELECT title AS zqalias, 'zqlit' FROM public.writing WHERE title = 'zqvalue' OR word_count IN (1, 2) ORDER BY published_at DESC LIMIT 10",
  "SELECT w.url FROM writing w WHERE NOT (w.title LIKE 'zqpat%') AND w.word_count IS NOT NULL",
  "SELECT table_name FROM information_schema.columns WHERE column_name <> 'zqcol' ORDER BY 1",
];
const mutated = fc
  .tuple(
    fc.constantFrom(...BASES),
    fc.array(
      fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(...PUNCT, ...KEYWORDS.map((k) => ` ${k} `), 'zqins', ' zqname ')),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([base, edits]) => {
    let s = base;
    for (const [at, kind, text] of edits) {
      const i = at % (s.length + 1);
      s =
        kind === 'delete'
          ? s.slice(0, i) + s.slice(i + 1 + (at % 5))
          : kind === 'insert'
            ? s.slice(0, i) + text + s.slice(i)
            : s.slice(0, i) + text + s.slice(i + text.length);
    }
    return s;
  });

test('random text never gets a 5xx or an echo', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), (s) => check(s)),
    { numRuns: 400 },
  );
});

test('SQL-shaped token soup never gets a 5xx or an echo', async () => {
  await fc.assert(
    fc.asyncProperty(soup, (s) => check(s)),
    { numRuns: 1500 },
  );
});

test('mutated accepted statements never get a 5xx or an echo', async () => {
  await fc.assert(
    fc.asyncProperty(mutated, (s) => check(s)),
    { numRuns: 1500 },
  );
});

// Runs of parentheses, brackets and NOT ( spliced into accepted statements: the shapes of
// defect D2, refused by the lexical bounds or, within them, by the parser or the time budget.
const nested = fc
  .tuple(
    fc.constantFrom(...BASES),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('(', ')', 'NOT (', '[', '(zqn ', "'('", '/* ( */'), fc.integer({ min: 1, max: 12 })), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([base, runs]) => {
    let s = base;
    for (const [at, text, count] of runs) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + text.repeat(count) + s.slice(i);
    }
    return s;
  });

test('statements with runs of parentheses never get a 5xx or an echo', async () => {
  await fc.assert(
    fc.asyncProperty(nested, (s) => check(s)),
    { numRuns: 300 },
  );
});

test('random bytes (invalid UTF-8 included) never get a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
      assert.ok((await answer(facts, bytes)).status < 500);
    }),
    { numRuns: 300 },
  );
});
