/**
 * The lexical bounds checked before the parser (src/sql/lexical.ts): parenthesis nesting
 * and token count, each probed at its edge (at the budget passes, one over is
 * `sql-limit`), the statements of defect D2 (unclosed parentheses that made the parser
 * backtrack for good), and what the scan skips (strings, quoted identifiers, comments)
 * or, when they do not close, does not skip.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSqlHandler } from '../../functions/sql.ts';
import { isPublicError } from '../../src/core/errors.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { sqlImageBytes } from '../../src/sql/image.ts';
import { checkLexicalBounds } from '../../src/sql/lexical.ts';

const records = Array.from({ length: 60 }, (_, i) => ({
  canonicalId: `w-${String(i).padStart(2, '0')}`,
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  publishedAt: '2020-01-01',
  tags: [],
  wordCount: i,
}));
let client = 0;
const answer = createSqlHandler({ image: sqlImageBytes(records), clientOf: () => `c${client++}` });
const facts = { method: 'QUERY', url: new URL('http://x/api/sql'), header: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/sql' : null) };

async function run(sql: string): Promise<{ status: number; type: string; detail: string; rows?: unknown[][]; text: string }> {
  const result = await answer(facts, Buffer.from(sql));
  const text = Buffer.from(result.body!).toString();
  const body = JSON.parse(text);
  return { status: result.status, type: body.type ?? 'ok', detail: body.detail ?? '', rows: body.rows, text };
}

/** The slug checkLexicalBounds throws, or 'ok'. */
function lexical(sql: string): string {
  try {
    checkLexicalBounds(sql);
    return 'ok';
  } catch (error) {
    assert.ok(isPublicError(error));
    return error.slug;
  }
}

const WHERE = 'SELECT title FROM public.writing WHERE ';

test(`parenthesis nesting: ${LIMITS.sqlParenDepthMax} levels pass, ${LIMITS.sqlParenDepthMax + 1} are sql-limit naming the budget`, async () => {
  const nested = (n: number) => `${WHERE}${'('.repeat(n)}word_count = 7${')'.repeat(n)}`;
  const ok = await run(nested(LIMITS.sqlParenDepthMax));
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.rows, [['Title 7']]);
  const over = await run(nested(LIMITS.sqlParenDepthMax + 1));
  assert.deepEqual([over.status, over.type], [400, '/problems/sql-limit']);
  assert.match(over.detail, new RegExp(`deeper than ${LIMITS.sqlParenDepthMax} levels`));
  // Brackets nest with parentheses.
  assert.equal(lexical(`${WHERE}${'('.repeat(LIMITS.sqlParenDepthMax)}[1]${')'.repeat(LIMITS.sqlParenDepthMax)}`), 'sql-limit');
});

test(`tokens: ${LIMITS.sqlTokensMax} pass, ${LIMITS.sqlTokensMax + 1} are sql-limit naming the budget`, async () => {
  // SELECT title FROM public . writing WHERE: 7 tokens; `word_count IN (v, …)` of n values: 2n + 3; AND: 1.
  const inList = (n: number) => `word_count IN (${Array.from({ length: n }, (_, i) => i).join(', ')})`;
  const lists = [...Array.from({ length: 9 }, () => inList(50)), inList(27)];
  const sql = `${WHERE}${lists.join(' AND ')}`;
  assert.equal(7 + 9 * 103 + 57 + 9, LIMITS.sqlTokensMax);
  const ok = await run(sql);
  assert.equal(ok.status, 200);
  assert.equal(ok.rows!.length, 27);
  // One token more: the trailing semicolon the grammar accepts.
  const over = await run(`${sql} ;`);
  assert.deepEqual([over.status, over.type], [400, '/problems/sql-limit']);
  assert.match(over.detail, new RegExp(`more than ${LIMITS.sqlTokensMax} tokens`));
  // Comments and whitespace are free.
  assert.equal((await run(`${sql} -- ${'x '.repeat(2000)}\n/* ${'y '.repeat(2000)} */`)).status, 200);
});

test('defect D2: unclosed and deep parentheses and long token streams are refused before parsing, with no echo', async () => {
  const hostile = [
    `SELECT * FROM public.writing WHERE ${'('.repeat(30)}1=1`,
    `SELECT * FROM public.writing WHERE ${'('.repeat(5000)}1=1`,
    `SELECT * FROM public.writing WHERE ${'('.repeat(30)}1=1${')'.repeat(30)}`,
    `SELECT * FROM public.writing WHERE ${'NOT ('.repeat(2000)}1=1`,
    `SELECT ${'zqcol, '.repeat(2000)}title FROM public.writing`,
    `SELECT title FROM public.writing WHERE word_count IN (${'1,'.repeat(6000)}1)`,
  ];
  for (const sql of hostile) {
    assert.ok(Buffer.byteLength(sql) <= LIMITS.sqlRequestBytesMax, 'within the body bound, so the lexical bounds are what refuses it');
    const result = await run(sql);
    assert.deepEqual([result.status, result.type], [400, '/problems/sql-limit'], sql.slice(0, 60));
    assert.ok(!result.text.includes('zqcol') && !result.text.includes('((') && !result.text.includes('1=1'));
  }
  // Unbalanced but shallow: a syntax error, still without parsing.
  for (const sql of [`${WHERE}((((1=1`, `${WHERE}1=1))`, `${WHERE}(1=1]`]) assert.deepEqual((await run(sql)).type, '/problems/sql-syntax');
  // And the next statement is answered.
  assert.deepEqual((await run(`${WHERE}word_count = 3`)).rows, [['Title 3']]);
});

test('the scan skips strings, quoted identifiers and comments as the parser reads them', async () => {
  const deep = '('.repeat(20);
  const skipped = `SELECT title AS "${deep}" FROM public.writing -- ${deep}\nWHERE title <> '${deep} it''s' /* ${deep} /* nested ${deep} */ ${deep} */ AND word_count = 5`;
  assert.deepEqual((await run(skipped)).rows, [['Title 5']]);
  assert.equal(lexical(`SELECT \`${deep}\` FROM public.writing`), 'ok');
  // A backslash escapes the next character, as in the parser: the literal runs to the last quote.
  assert.equal(lexical(`${WHERE}title = 'a\\' ${deep} '`), 'ok');
  assert.equal(lexical(`SELECT "a\\" ${deep} " FROM public.writing`), 'ok');
  // Where the escaped reading never closes, the parser ends the literal at the next quote, and so does the scan.
  assert.equal(lexical(`${WHERE}title = 'a\\' ${deep}`), 'sql-limit');
  // A literal or comment that does not close hides nothing.
  for (const opener of ["'", '"', '`', '/*', '/* /* */']) assert.equal(lexical(`${WHERE}title = ${opener} ${deep}`), 'sql-limit', opener);
  // `--` ends at either line break, as in the parser.
  assert.equal(lexical(`${WHERE}1 = 1 -- x\r${deep}`), 'sql-limit');
  // Many unclosed openers stay one pass (and within the token budget, refused by it).
  for (const opener of ["'\\", '/*', '"\\', "''\\"]) assert.equal(lexical(opener.repeat(5000)), 'sql-limit', opener);
});
