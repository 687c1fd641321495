/**
 * The accept/reject matrix of public SQL, through the Web handler: every accepted
 * statement's rows are compared with rows computed from the fixture records; every
 * refused one must give its slug and status, and its answer must not contain the
 * statement, its literals or its identifiers (the `zq…` markers) or a source position.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSqlFetchHandler } from '../../functions/sql.ts';
import { sqlImageBytes } from '../../src/sql/image.ts';
import { RELATIONS } from '../../src/sql/relations.ts';

type Rec = Record<string, unknown>;
const pad = (i: number) => String(i).padStart(3, '0');
const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + i * 20 * 86_400_000).toISOString().slice(0, 10);
export const records: Rec[] = Array.from({ length: 120 }, (_, i) => {
  const r: Rec = {
    canonicalId: `w-${pad(i)}`,
    title: `Title ${pad(i)}`,
    url: `https://example.com/w/${pad(i)}`,
    publishedAt: day(i),
    tags: i % 3 === 0 ? ['node.js', 'streams'] : i % 3 === 1 ? ['travel'] : [],
  };
  if (i % 2 === 0) r.summary = `Summary, "quoted" ${i}`;
  if (i % 5 !== 0) r.wordCount = i * 10;
  if (i < 5) r.body = `Body ${i}\nsecond line`;
  if (i % 7 === 0) r.updated = day(i + 1);
  if (i % 4 === 0) r.revision = i % 8;
  return r;
});
let client = 0;
const handler = await createSqlFetchHandler({ image: sqlImageBytes([...records].reverse()), clientOf: () => String(client++) });

const writing = RELATIONS[0]!;
const field = (c: string) => writing.columns.find((x) => x.name === c)!.field!;
const value = (r: Rec, c: string): unknown => {
  const v = r[field(c)];
  if (v === undefined) return null;
  return Array.isArray(v) ? JSON.stringify(v) : v;
};
/** Fixture rows in image order (canonical_id), filtered, optionally sorted, projected. */
function rows(columns: string[], where: (r: Rec) => boolean = () => true, order?: (a: Rec, b: Rec) => number, limit = 100): unknown[][] {
  const all = records.filter(where);
  if (order) all.sort(order);
  const result = all.slice(0, limit).map((r) => columns.map((c) => value(r, c)));
  // Whether more rows matched than were kept; not enumerable, so deepEqual ignores it.
  Object.defineProperty(result, 'more', { value: all.length > limit });
  return result;
}
const cmp = (op: string, a: unknown, b: unknown): boolean => {
  if (a === null || b === null) return false;
  const x = a as number,
    y = b as number;
  return op === '=' ? x === y : op === '<>' || op === '!=' ? x !== y : op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
};
const by =
  (c: string, dir = 1) =>
  (a: Rec, b: Rec) => {
    const x = value(a, c) as string | number | null,
      y = value(b, c) as string | number | null;
    if (x === y) return 0;
    if (x === null) return -dir;
    if (y === null) return dir;
    return (x < y ? -1 : 1) * dir;
  };

async function query(sql: string, headers: Record<string, string> = {}): Promise<Response> {
  return handler(
    new Request('http://x/api/sql', { method: 'QUERY', headers: { 'Content-Type': 'application/sql', Accept: 'application/json', ...headers }, body: sql }),
  );
}

const accepted: [string, unknown[][]][] = [];
const cols = writing.columns.map((c) => c.name);
for (const c of cols) {
  accepted.push([`SELECT ${c} FROM public.writing ORDER BY canonical_id LIMIT 100`, rows([c])]);
  accepted.push([`select w.${c} as v from writing w`, rows([c])]);
  accepted.push([`SELECT public.writing.${c} FROM public.writing WHERE ${c} IS NOT NULL LIMIT 7`, rows([c], (r) => value(r, c) !== null, undefined, 7)]);
}
for (const op of ['=', '<>', '!=', '<', '<=', '>', '>=']) {
  accepted.push([`SELECT canonical_id FROM public.writing WHERE word_count ${op} 500`, rows(['canonical_id'], (r) => cmp(op, value(r, 'word_count'), 500))]);
  accepted.push([
    `SELECT title FROM public.writing WHERE published_at ${op} DATE '2017-01-01'`,
    rows(['title'], (r) => cmp(op, value(r, 'published_at'), '2017-01-01')),
  ]);
  accepted.push([`SELECT url FROM public.writing WHERE 'Title 050' ${op} title`, rows(['url'], (r) => cmp(op, 'Title 050', value(r, 'title')))]);
}
for (const c of ['summary', 'word_count', 'body', 'updated', 'revision']) {
  accepted.push([`SELECT canonical_id FROM public.writing WHERE ${c} IS NULL`, rows(['canonical_id'], (r) => value(r, c) === null)]);
  accepted.push([`SELECT canonical_id FROM public.writing WHERE NOT ${c} IS NULL`, rows(['canonical_id'], (r) => value(r, c) !== null)]);
}
const inList = (r: Rec) => [10, 20, 30].includes(value(r, 'word_count') as number);
accepted.push(
  ['SELECT title FROM public.writing WHERE word_count IN (10, 20, 30)', rows(['title'], inList)],
  ['SELECT title FROM public.writing WHERE word_count NOT IN (10, 20, 30)', rows(['title'], (r) => value(r, 'word_count') !== null && !inList(r))],
  [
    "SELECT title FROM public.writing WHERE title IN ('Title 001', 'Title 002', 'nope')",
    rows(['title'], (r) => ['Title 001', 'Title 002'].includes(r.title as string)),
  ],
  ["SELECT title FROM public.writing WHERE title LIKE 'Title 01%'", rows(['title'], (r) => (r.title as string).startsWith('Title 01'))],
  ["SELECT title FROM public.writing WHERE title NOT LIKE 'Title 0%'", rows(['title'], (r) => !(r.title as string).startsWith('Title 0'))],
  ["SELECT title FROM public.writing WHERE title LIKE 'title%'", []],
  ["SELECT title FROM public.writing WHERE title LIKE 'Title _1_'", rows(['title'], (r) => (r.title as string)[7] === '1')],
  [
    `SELECT canonical_id, tags FROM public.writing WHERE tags LIKE '%"streams"%'`,
    rows(['canonical_id', 'tags'], (r) => (r.tags as string[]).includes('streams')),
  ],
  ["SELECT canonical_id FROM public.writing WHERE tags = '[]'", rows(['canonical_id'], (r) => (r.tags as string[]).length === 0)],
  [
    'SELECT title FROM public.writing WHERE word_count BETWEEN 100 AND 200',
    rows(['title'], (r) => cmp('>=', value(r, 'word_count'), 100) && cmp('<=', value(r, 'word_count'), 200)),
  ],
  [
    "SELECT title FROM public.writing WHERE published_at NOT BETWEEN DATE '2016-01-01' AND DATE '2020-12-31'",
    rows(['title'], (r) => !((r.publishedAt as string) >= '2016-01-01' && (r.publishedAt as string) <= '2020-12-31')),
  ],
  [
    'SELECT title FROM public.writing WHERE word_count > 100 AND word_count < 300 OR revision = 4',
    rows(['title'], (r) => (cmp('>', value(r, 'word_count'), 100) && cmp('<', value(r, 'word_count'), 300)) || value(r, 'revision') === 4),
  ],
  [
    'SELECT title FROM public.writing WHERE word_count > 100 AND (word_count < 300 OR revision = 4)',
    rows(['title'], (r) => cmp('>', value(r, 'word_count'), 100) && (cmp('<', value(r, 'word_count'), 300) || value(r, 'revision') === 4)),
  ],
  [
    'SELECT title FROM public.writing WHERE NOT (word_count > 100)',
    rows(['title'], (r) => value(r, 'word_count') !== null && !cmp('>', value(r, 'word_count'), 100)),
  ],
  ['SELECT title FROM public.writing WHERE NOT (NOT (word_count = 40))', rows(['title'], (r) => value(r, 'word_count') === 40)],
  ['SELECT title FROM public.writing WHERE ((((word_count = 40))))', rows(['title'], (r) => value(r, 'word_count') === 40)],
  ['SELECT title FROM public.writing WHERE TRUE', rows(['title'])],
  ['SELECT title FROM public.writing WHERE FALSE', []],
  [
    'SELECT title FROM public.writing WHERE summary IS NULL AND word_count IS NOT NULL AND revision IS NULL',
    rows(['title'], (r) => value(r, 'summary') === null && value(r, 'word_count') !== null && value(r, 'revision') === null),
  ],
  [
    'SELECT title, published_at FROM public.writing ORDER BY published_at DESC LIMIT 10',
    rows(['title', 'published_at'], undefined, by('published_at', -1), 10),
  ],
  ['SELECT title AS t FROM public.writing ORDER BY t DESC LIMIT 5', rows(['title'], undefined, by('title', -1), 5)],
  ['SELECT url, title FROM public.writing ORDER BY 2 DESC LIMIT 5', rows(['url', 'title'], undefined, by('title', -1), 5)],
  [
    'SELECT canonical_id FROM public.writing ORDER BY revision DESC, canonical_id ASC LIMIT 20',
    rows(['canonical_id'], undefined, (a, b) => by('revision', -1)(a, b) || by('canonical_id')(a, b), 20),
  ],
  [
    'SELECT canonical_id FROM public.writing ORDER BY word_count LIMIT 30',
    rows(['canonical_id'], undefined, (a, b) => by('word_count')(a, b) || by('canonical_id')(a, b), 30),
  ],
  ['SELECT title FROM public.writing LIMIT 0', []],
  ['SELECT title FROM public.writing LIMIT 1', rows(['title'], undefined, undefined, 1)],
  ['SELECT title FROM public.writing LIMIT 100', rows(['title'])],
  ['select title from writing;', rows(['title'])],
  ['SELECT "title" FROM "public"."writing" WHERE "word_count" = 30', rows(['title'], (r) => value(r, 'word_count') === 30)],
  ['SELECT TITLE FROM PUBLIC.WRITING WHERE WORD_COUNT = 30', rows(['title'], (r) => value(r, 'word_count') === 30)],
  ['SELECT title -- a comment\nFROM public.writing /* another */ WHERE word_count = 30', rows(['title'], (r) => value(r, 'word_count') === 30)],
  [
    "SELECT 1 AS one, 'x' AS x, 2.5, NULL, TRUE, DATE '2020-01-01' FROM public.writing LIMIT 2",
    [
      [1, 'x', 2.5, null, true, '2020-01-01'],
      [1, 'x', 2.5, null, true, '2020-01-01'],
    ],
  ],
  [
    "SELECT title FROM public.writing WHERE published_at >= TIMESTAMP '2020-01-01 00:00:00'",
    rows(['title'], (r) => (r.publishedAt as string) >= '2020-01-01 00:00:00'),
  ],
  ['SELECT title FROM public.writing WHERE summary = \'Summary, "quoted" 4\'', rows(['title'], (r) => r.summary === 'Summary, "quoted" 4')],
  ["SELECT title FROM public.writing WHERE title = 'it''s'", []],
  ['SELECT table_schema, table_name, table_type FROM information_schema.tables', RELATIONS.map((r) => [r.schema, r.name, r.kind])],
  [
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'writing' ORDER BY ordinal_position",
    writing.columns.map((c) => [c.name, c.type]),
  ],
);
accepted.push(
  [
    "SELECT t.column_name FROM information_schema.columns t WHERE t.table_schema = 'information_schema' AND t.table_name = 'tables'",
    [['table_schema'], ['table_name'], ['table_type']],
  ],
  ["SELECT is_nullable FROM information_schema.columns WHERE table_name = 'writing' AND column_name = 'summary'", [['YES']]],
  ["SELECT * FROM information_schema.tables WHERE table_name IN ('columns')", [['information_schema', 'columns', 'VIEW']]],
  ['SELECT * FROM public.writing ORDER BY canonical_id LIMIT 3', rows(cols, undefined, undefined, 3)],
  ['SELECT w.* FROM public.writing AS w WHERE w.word_count = 20', rows(cols, (r) => value(r, 'word_count') === 20)],
);

test('accepted statements return the fixture rows', async () => {
  assert.ok(accepted.length >= 80, `${accepted.length} accepted`);
  for (const [sql, expected] of accepted) {
    const response = await query(sql);
    const text = await response.text();
    assert.equal(response.status, 200, `${sql} → ${text}`);
    const json = JSON.parse(text);
    assert.deepEqual(json.rows, expected, sql);
    const more = (expected as { more?: boolean }).more === true;
    assert.equal(json.truncated, more && !/limit/i.test(sql), sql);
    assert.equal(json.columns.length, expected[0]?.length ?? json.columns.length, sql);
  }
});

/** [statement, slug, status]; every identifier or literal a client chose is a `zq…` marker. */
export const rejected: [string, string, number][] = [
  ['', 'sql-syntax', 400],
  ['   ', 'sql-syntax', 400],
  ['-- zqcomment', 'sql-syntax', 400],
  ['SELEKT zqcol FROM zqtable', 'sql-syntax', 400],
  ["SELECT title FROM public.writing WHERE title = 'zqunterminated", 'sql-syntax', 400],
  ["SELECT title FROM public.writing WHERE (title = 'zqa'", 'sql-syntax', 400],
  ['SELECT title FROM public.writing WHERE title = ?', 'sql-syntax', 400],
  ['SELECT title FROM public.writing WHERE title = :zqparam', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE title = $1', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing LIMIT $1', 'sql-unsupported', 400],
  ['PRAGMA zqpragma', 'sql-syntax', 400],
  ['PRAGMA table_info(writing)', 'sql-syntax', 400],
  ["ATTACH DATABASE 'zqfile.db' AS zqdb", 'sql-syntax', 400],
  ['DETACH DATABASE zqdb', 'sql-syntax', 400],
  ['VACUUM', 'sql-syntax', 400],
  ['EXPLAIN SELECT title FROM public.writing', 'sql-syntax', 400],
  ["INSERT INTO public.writing (title) VALUES ('zqinsert')", 'sql-unsupported', 400],
  ["UPDATE public.writing SET title = 'zqupdate'", 'sql-unsupported', 400],
  ["DELETE FROM public.writing WHERE title = 'zqdelete'", 'sql-unsupported', 400],
  ['DROP TABLE zqdrop', 'sql-unsupported', 400],
  ['CREATE TABLE zqcreate (zqa int)', 'sql-unsupported', 400],
  ['ALTER TABLE public.writing ADD COLUMN zqadd text', 'sql-unsupported', 400],
  ['TRUNCATE public.writing', 'sql-unsupported', 400],
  ['CREATE INDEX zqidx ON public.writing (title)', 'sql-unsupported', 400],
  ["SELECT 'zqone' FROM public.writing; SELECT 'zqtwo' FROM public.writing", 'sql-unsupported', 400],
  ["SELECT title FROM public.writing; DELETE FROM public.writing WHERE title = 'zqx'", 'sql-unsupported', 400],
  ['SELECT zqcol FROM public.writing', 'sql-unknown-name', 400],
  ['SELECT title FROM public.writing WHERE zqcol = 1', 'sql-unknown-name', 400],
  ['SELECT title FROM public.writing ORDER BY zqcol', 'sql-unknown-name', 400],
  ['SELECT title FROM zqtable', 'sql-unknown-name', 400],
  ['SELECT title FROM zqschema.writing', 'sql-unknown-name', 400],
  ['SELECT * FROM sqlite_master', 'sql-unknown-name', 400],
  ['SELECT * FROM sqlite_schema', 'sql-unknown-name', 400],
  ['SELECT * FROM information_schema_tables', 'sql-unknown-name', 400],
  ['SELECT * FROM public.information_schema_columns', 'sql-unknown-name', 400],
  ['SELECT * FROM information_schema.schemata', 'sql-unknown-name', 400],
  ['SELECT * FROM information_schema.routines', 'sql-unknown-name', 400],
  ['SELECT * FROM pg_catalog.pg_tables', 'sql-unknown-name', 400],
  ['SELECT * FROM tables', 'sql-unknown-name', 400],
  ['SELECT * FROM public.books', 'sql-unknown-name', 400],
  ['SELECT * FROM public.owner_records', 'sql-unknown-name', 400],
  ['SELECT zqalias.title FROM public.writing', 'sql-unknown-name', 400],
  ['SELECT writing.title FROM public.writing AS zqw', 'sql-unknown-name', 400],
  ['SELECT visibility FROM public.writing', 'sql-unknown-name', 400],
  ['SELECT rowid FROM public.writing', 'sql-unknown-name', 400],
  ['SELECT w.title FROM public.writing w JOIN public.writing zqv ON w.url = zqv.url', 'sql-unsupported', 400],
  ['SELECT w.title FROM public.writing w LEFT JOIN information_schema.tables zqt ON TRUE', 'sql-unsupported', 400],
  ['SELECT w.title FROM public.writing w CROSS JOIN public.writing zqv', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing, information_schema.tables', 'sql-unsupported', 400],
  ['SELECT COUNT(*) FROM public.writing', 'sql-unsupported', 400],
  ['SELECT SUM(word_count) AS zqsum FROM public.writing', 'sql-unsupported', 400],
  ['SELECT MAX(word_count) FROM public.writing', 'sql-unsupported', 400],
  ['SELECT AVG(word_count) FROM public.writing', 'sql-unsupported', 400],
  ['SELECT MIN(title) FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE word_count > (SELECT 1)', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title IN (SELECT title FROM public.writing WHERE url = 'zqsub')", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE EXISTS (SELECT 1)', 'sql-unsupported', 400],
  ['SELECT zqx FROM (SELECT title AS zqx FROM public.writing) zqsub', 'sql-unsupported', 400],
  ['WITH zqcte AS (SELECT title FROM public.writing) SELECT * FROM zqcte', 'sql-unsupported', 400],
  ['WITH RECURSIVE zqr(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM zqr) SELECT n FROM zqr', 'sql-unsupported', 400],
  ['SELECT UPPER(title) FROM public.writing', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE LOWER(title) = 'zqlower'", 'sql-unsupported', 400],
  ['SELECT LENGTH(body) FROM public.writing', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE COALESCE(summary, 'zqdefault') = 'zqdefault'", 'sql-unsupported', 400],
  ['SELECT RANDOM() FROM public.writing', 'sql-unsupported', 400],
  ["SELECT load_extension('zqext') FROM public.writing", 'sql-unsupported', 400],
  ["SELECT readfile('zqpath') FROM public.writing", 'sql-unsupported', 400],
  ['SELECT CAST(word_count AS text) FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title::text FROM public.writing', 'sql-unsupported', 400],
  ["SELECT CASE WHEN word_count > 1 THEN 'zqa' ELSE 'zqb' END FROM public.writing", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE word_count + 1 > 2', 'sql-unsupported', 400],
  ['SELECT word_count * 2 FROM public.writing', 'sql-unsupported', 400],
  ["SELECT title || 'zqsuffix' FROM public.writing", 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title = 'zqa' || 'zqb'", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE -word_count < 0', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing LIMIT 5 OFFSET 2', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing OFFSET 2', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing LIMIT ALL', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing LIMIT 2.5', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing GROUP BY title', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing GROUP BY title HAVING title > 'zqh'", 'sql-unsupported', 400],
  ['SELECT DISTINCT title FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing UNION SELECT url FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing UNION ALL SELECT url FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing INTERSECT SELECT url FROM public.writing', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing EXCEPT SELECT url FROM public.writing', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title ILIKE 'zqi%'", 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title SIMILAR TO 'zqs'", 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title ~ 'zqre'", 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title LIKE 'zq!%' ESCAPE '!'", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE title IS TRUE', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title IS NOT 'zqisnot'", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE title', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WHERE word_count IN (1, title)', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing ORDER BY title NULLS FIRST', 'sql-unsupported', 400],
  ["SELECT 'zqlit' AS zqc FROM public.writing ORDER BY zqc", 'sql-unknown-name', 400],
  ['SELECT title FROM public.writing ORDER BY 3', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing ORDER BY UPPER(title)', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE published_at = DATE '2021-02-30'", 'sql-syntax', 400],
  ["SELECT title FROM public.writing WHERE published_at = DATE 'zqdate'", 'sql-syntax', 400],
  ['SELECT title FROM public.writing WHERE word_count = 99999999999999999999', 'sql-unsupported', 400],
  ["SELECT title FROM public.writing WHERE title = E'zqescape'", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing FOR UPDATE', 'sql-syntax', 400],
  ['SELECT title FROM public.writing WHERE title = \'zqa\' COLLATE "C"', 'sql-syntax', 400],
  ['SELECT title FROM public.writing WHERE word_count = ANY(ARRAY[1, 2])', 'sql-unsupported', 400],
  ['SELECT title FROM public.writing LIMIT 101', 'sql-limit', 400],
  ['SELECT title FROM public.writing LIMIT 1000000', 'sql-limit', 400],
  ['SELECT *, *, * FROM public.writing', 'sql-limit', 400],
  ['SELECT title FROM public.writing ORDER BY title, url, published_at, canonical_id, summary', 'sql-limit', 400],
  ['SELECT title FROM public.writing WHERE word_count IN (' + Array.from({ length: 51 }, (_, i) => i + 7000).join(', ') + ')', 'sql-limit', 400],
  ['SELECT title FROM public.writing WHERE ' + Array.from({ length: 33 }, (_, i) => `word_count <> ${i + 7000}`).join(' AND '), 'sql-limit', 400],
  ['SELECT title FROM public.writing WHERE ' + 'NOT '.repeat(8) + 'word_count = 7000', 'sql-limit', 400],
  ['SELECT * AS zqstar FROM public.writing', 'sql-syntax', 400],
  ['VALUES (1)', 'sql-syntax', 400],
  ['SELECT 1', 'sql-unsupported', 400],
  ["SELECT 'zqnofrom'", 'sql-unsupported', 400],
  ['SELECT title FROM public.writing WINDOW zqw AS ()', 'sql-unsupported', 400],
  ['SELECT title INTO zqinto FROM public.writing', 'sql-unsupported', 400],
  ['BEGIN', 'sql-unsupported', 400],
  ['COMMIT', 'sql-unsupported', 400],
  ["SET zqsetting = 'zqv'", 'sql-unsupported', 400],
];

/** The tokens a client chose: every `zq…` marker (ignoring the fixed SQL vocabulary). */
const markers = (sql: string) => sql.match(/zq[a-z0-9!%]*/gi) ?? [];

test('refused statements give their slug and status and echo nothing', async () => {
  assert.ok(rejected.length + accepted.length >= 150, `${rejected.length + accepted.length} statements`);
  for (const [sql, slug, status] of rejected) {
    const response = await query(sql);
    const text = await response.text();
    assert.equal(response.status, status, `${sql} → ${text}`);
    assert.equal(response.headers.get('Content-Type'), 'application/problem+json');
    const problem = JSON.parse(text);
    assert.equal(problem.type, `/problems/${slug}`, `${sql} → ${text}`);
    for (const token of markers(sql)) assert.ok(!text.toLowerCase().includes(token.toLowerCase().replace(/[!%]+$/, '')), `${sql} echoed ${token}`);
    if (sql.trim().length > 0) assert.ok(!text.includes(sql.trim()), `${sql} echoed itself`);
    assert.doesNotMatch(text, /line \d|column \d|position|offset \d|at \d|Expected/i, `${sql} leaked a position`);
    for (const header of response.headers.values()) for (const token of markers(sql)) assert.ok(!header.includes(token.replace(/[!%]+$/, '')));
  }
});
