/**
 * SQL statements for `QUERY /api/sql`: a small grammar of valid statements over the
 * profile's relations (projection, aliases, typed literals, comparisons, boolean
 * predicates, IS NULL, IN, LIKE, BETWEEN, ORDER BY, LIMIT), then mutated at the byte
 * level, nested deeply (balanced and unbalanced parentheses, NOT chains), stretched to the
 * body bound, or replaced by injection payloads and constructs the grammar refuses.
 *
 * Canaries go only where a correct server never shows them: WHERE literals, unknown
 * identifiers, comments. Never in the projection or an alias, whose text a successful
 * answer legitimately returns (the oracle still allows an echo inside a 2xx result, in
 * case a mutation moved a literal there).
 */
import fc from 'fast-check';
import { bytes, canary, hostileText, mutate, oneOf } from './common.ts';

type Relations = Record<string, { name: string; type: string }[]>;

const SQL_TOKENS = [
  '(',
  ')',
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  ',',
  '.',
  '*',
  ' ',
  '\n',
  '\u0000',
  '\\',
  '$1',
  '?',
  ':x',
  '@x',
  '||',
  '::',
  '[',
  ']',
  '`',
  'é',
  '\uD800',
  ' AND ',
  ' OR ',
  ' NOT ',
  ' NULL ',
  ' SELECT ',
  ' FROM ',
  ' WHERE ',
  ' UNION SELECT * FROM sqlite_master ',
  ' JOIN public.writing ON 1=1 ',
  ' LIMIT 1 OFFSET 1 ',
  ' GROUP BY 1 ',
  ' ORDER BY ',
  ` /* ${canary('s')} */ `,
  ` -- ${canary('s')}\n`,
  `'${canary('s')}'`,
  canary('s'),
];

/** Statements the grammar must refuse, and classic injection attempts. */
const PAYLOADS = [
  "SELECT * FROM public.writing WHERE title = ''; DROP TABLE writing; --'",
  "SELECT * FROM public.writing WHERE title = '' OR '1'='1'",
  'SELECT title FROM public.writing UNION SELECT sql FROM sqlite_master',
  'SELECT title FROM public.writing UNION ALL SELECT name FROM sqlite_schema',
  'SELECT * FROM sqlite_master',
  'SELECT * FROM sqlite_schema',
  'SELECT * FROM main.sqlite_master',
  'SELECT * FROM sqlite_temp_master',
  "SELECT load_extension('/tmp/x.so')",
  "SELECT title FROM public.writing WHERE load_extension('x') IS NULL",
  "SELECT readfile('/etc/passwd')",
  "ATTACH DATABASE '/tmp/x.db' AS x",
  'DETACH DATABASE main',
  'PRAGMA table_info(writing)',
  'PRAGMA database_list',
  'PRAGMA writable_schema = ON',
  "VACUUM INTO '/tmp/x.db'",
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r',
  'SELECT randomblob(1000000000)',
  'SELECT zeroblob(1000000000)',
  "SELECT title FROM public.writing WHERE title LIKE '%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%b'",
  'SELECT * FROM public.writing; SELECT 1',
  'SELECT 1;',
  ';',
  ';;',
  'SELECT',
  'SELECT *',
  'SELECT * FROM',
  '',
  ' ',
  '\u0000',
  '\uFEFFSELECT * FROM public.writing',
  'SELECT * FROM writing',
  'SELECT * FROM records',
  'SELECT * FROM "public"."writing"',
  'SELECT * FROM PUBLIC.WRITING',
  'SELECT * FROM pg_catalog.pg_tables',
  'SELECT current_user',
  'SELECT version()',
  'SELECT * FROM public.writing WHERE title = $1',
  'SELECT * FROM public.writing WHERE title = ?',
  'SELECT * FROM public.writing WHERE title = :name',
  'SELECT * FROM public.writing WHERE title = @x',
  'SELECT COUNT(*) FROM public.writing',
  'SELECT DISTINCT kind FROM public.writing',
  'SELECT kind FROM public.writing GROUP BY kind HAVING 1 = 1',
  'SELECT * FROM public.writing a JOIN public.writing b ON a.title = b.title',
  'SELECT * FROM public.writing, information_schema.tables',
  'SELECT * FROM (SELECT * FROM public.writing) w',
  'SELECT title FROM public.writing LIMIT 1 OFFSET 5',
  'SELECT title FROM public.writing LIMIT -1',
  'SELECT title FROM public.writing LIMIT 1e309',
  'SELECT title FROM public.writing LIMIT 9223372036854775808',
  'SELECT title FROM public.writing LIMIT ALL',
  'SELECT title FROM public.writing ORDER BY 1',
  'SELECT title FROM public.writing ORDER BY title COLLATE "C"',
  'SELECT title FROM public.writing ORDER BY random()',
  "SELECT * FROM public.writing WHERE title GLOB '*'",
  "SELECT * FROM public.writing WHERE title REGEXP '(a+)+$'",
  "SELECT * FROM public.writing WHERE title SIMILAR TO '(a+)+'",
  "SELECT * FROM public.writing WHERE title ~ '(a|a)*$'",
  "SELECT * FROM public.writing WHERE title LIKE 'a' ESCAPE '\\'",
  "SELECT * FROM public.writing WHERE title ILIKE 'a'",
  "SELECT * FROM public.writing WHERE title = E'\\x00'",
  "SELECT * FROM public.writing WHERE title = U&'\\0000'",
  'SELECT * FROM public.writing WHERE title = $$x$$',
  "SELECT * FROM public.writing WHERE title = X'00'",
  "SELECT * FROM public.writing WHERE tags @> '[]'",
  "SELECT * FROM public.writing WHERE tags->>'a' = 'b'",
  "INSERT INTO public.writing (title) VALUES ('x')",
  'DELETE FROM public.writing',
  "UPDATE public.writing SET title = 'x'",
  'CREATE TABLE x (a int)',
  'DROP TABLE public.writing',
  'ALTER TABLE public.writing ADD c int',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'EXPLAIN SELECT * FROM public.writing',
  'EXPLAIN QUERY PLAN SELECT * FROM public.writing',
  'SELECT * INTO x FROM public.writing',
  'COPY public.writing TO STDOUT',
  'SET search_path = x',
  'SHOW ALL',
  `SELECT * FROM ${canary('s')}`,
  `SELECT * FROM public.${canary('s')}`,
  `SELECT * FROM public.writing WHERE ${canary('s')} = 1`,
  `SELECT * FROM public.writing WHERE title = '${canary('s')}' AND ${canary('s')} IS NULL`,
  `SELECT * FROM public.writing /* ${canary('s')} */`,
  `SELECT * FROM public.writing -- ${canary('s')}`,
  `SELECT * FROM public.writing WHERE title = "${canary('s')}"`,
  `SELECT ${canary('s')}(title) FROM public.writing`,
];

/** Nesting depths around the expression-depth bound (8) and well past it. */
const DEPTHS = [1, 2, 7, 8, 9, 12, 14, 16, 20, 24, 30, 40, 64, 200] as const;

function statement(relations: Relations): fc.Arbitrary<string> {
  const names = Object.keys(relations);
  return oneOf(...names).chain((relation) => {
    const columns = relations[relation]!.map((c) => c.name);
    const column = fc.oneof(
      { weight: 12, arbitrary: oneOf(...columns) },
      {
        weight: 1,
        arbitrary: oneOf(`"${columns[0]}"`, columns[0]!.toUpperCase(), `${relation}.${columns[0]}`, `w.${columns[0]}`, canary('s'), `"${canary('s')}"`),
      },
    );
    const literal = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: -1000, max: 100000 }).map(String) },
      {
        weight: 4,
        arbitrary: oneOf(
          'NULL',
          'TRUE',
          'FALSE',
          "DATE '2024-01-01'",
          "DATE '2024-02-30'",
          "TIMESTAMP '2024-01-01 10:00:00'",
          "'2024-01-01'",
          '1.5',
          '1e10',
          '-0',
          "'post'",
          "'essay'",
          "''",
          "'it''s'",
          '9223372036854775808',
          "'%'",
          "'%a%'",
        ),
      },
      { weight: 3, arbitrary: hostileText(12).map((t) => `'${t.replace(/'/g, "''")}'`) },
      { weight: 2, arbitrary: fc.constant(`'${canary('s')}'`) },
    );
    const leaf = fc.oneof(
      fc.tuple(column, oneOf('=', '<>', '!=', '<', '<=', '>', '>='), literal).map(([c, op, l]) => `${c} ${op} ${l}`),
      column.map((c) => `${c} IS NULL`),
      column.map((c) => `${c} IS NOT NULL`),
      fc
        .tuple(column, fc.array(literal, { minLength: 1, maxLength: 6 }), fc.boolean())
        .map(([c, list, not]) => `${c} ${not ? 'NOT ' : ''}IN (${list.join(', ')})`),
      fc.tuple(column, literal, fc.boolean()).map(([c, l, not]) => `${c} ${not ? 'NOT ' : ''}LIKE ${l}`),
      fc.tuple(column, literal, literal).map(([c, a, b]) => `${c} BETWEEN ${a} AND ${b}`),
    );
    const { predicate } = fc.letrec<{ predicate: string }>((tie) => ({
      predicate: fc.oneof(
        { maxDepth: 4, depthIdentifier: 'sql' },
        leaf,
        fc.tuple(tie('predicate'), oneOf('AND', 'OR'), tie('predicate')).map(([a, op, b]) => `${a} ${op} ${b}`),
        tie('predicate').map((p) => `NOT ${p}`),
        tie('predicate').map((p) => `(${p})`),
      ),
    }));
    // Projections carry no canary: a successful answer returns their text.
    const projection = fc.oneof(
      { weight: 3, arbitrary: fc.constant('*') },
      {
        weight: 6,
        arbitrary: fc
          .array(fc.tuple(oneOf(...columns), fc.option(oneOf('a', 'b', '"Title"', 'x1'), { nil: undefined })), { minLength: 1, maxLength: 5 })
          .map((items) => items.map(([c, alias]) => (alias ? `${c} AS ${alias}` : c)).join(', ')),
      },
      { weight: 1, arbitrary: oneOf("'x' AS x, title", '1, title', 'NULL', "DATE '2024-01-01'", `${columns[0]}, *`, '*, *') },
    );
    const orderBy = fc.option(
      fc
        .array(fc.tuple(column, oneOf('', ' ASC', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST')), { minLength: 1, maxLength: 5 })
        .map((keys) => ` ORDER BY ${keys.map(([c, d]) => c + d).join(', ')}`),
      { nil: '' },
    );
    const limit = fc.option(
      oneOf(0, 1, 10, 100, 101, 1000, -1).map((n) => ` LIMIT ${n}`),
      { nil: '' },
    );
    const where = fc.option(
      predicate.map((p) => ` WHERE ${p}`),
      { nil: '' },
    );
    return fc.tuple(projection, where, orderBy, limit).map(([p, w, o, l]) => `SELECT ${p} FROM ${relation}${w}${o}${l}`);
  });
}

/** Deep nesting: balanced and unbalanced parentheses, NOT chains, long AND chains, long IN lists. */
const nested = fc.tuple(oneOf(...DEPTHS), oneOf('balanced', 'open', 'close', 'not', 'and', 'in', 'call', 'subquery')).map(([n, shape]) => {
  const head = 'SELECT * FROM public.writing WHERE ';
  switch (shape) {
    case 'balanced':
      return `${head}${'('.repeat(n)}title = 'a'${')'.repeat(n)}`;
    case 'open':
      return `${head}${'('.repeat(n)}1=1`;
    case 'close':
      return `${head}1=1${')'.repeat(n)}`;
    case 'not':
      return `${head}${'NOT '.repeat(n)}title IS NULL`;
    case 'and':
      return `${head}${Array.from({ length: n }, (_, i) => `word_count > ${i}`).join(' AND ')}`;
    case 'in':
      return `${head}word_count IN (${Array.from({ length: n * 5 }, (_, i) => i).join(', ')})`;
    case 'call':
      return `SELECT ${'f('.repeat(n)}title${')'.repeat(n)} FROM public.writing`;
    default:
      return `SELECT * FROM ${'(SELECT * FROM '.repeat(n)}public.writing${') s'.repeat(n)}`;
  }
});

/** A statement stretched with a trailing comment to the body bound (16384 bytes) or one past it. */
const atBound = (text: string) => oneOf(16383, 16384, 16385, 40000).map((size) => `${text} /*${'x'.repeat(Math.max(0, size - Buffer.byteLength(text) - 5))}*/`);

/** One SQL request body, as a byte string. */
export function sqlBody(relations: Relations): fc.Arbitrary<string> {
  const valid = statement(relations);
  return fc.oneof(
    { weight: 6, arbitrary: valid.map(bytes) },
    { weight: 6, arbitrary: valid.chain((s) => mutate(bytes(s), SQL_TOKENS.map(bytes))) },
    { weight: 3, arbitrary: nested },
    { weight: 3, arbitrary: oneOf(...PAYLOADS).map(bytes) },
    { weight: 1, arbitrary: oneOf(...PAYLOADS).chain((s) => mutate(bytes(s), SQL_TOKENS.map(bytes))) },
    { weight: 1, arbitrary: valid.chain(atBound) },
  );
}
