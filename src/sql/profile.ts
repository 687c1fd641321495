/**
 * The SQL profile (version 1): a generated document of everything a client needs to
 * write a statement that will be accepted — relations and their columns with types and
 * nullability, how NULL and each type are encoded, the accepted and refused grammar, and
 * every budget, read from LIMIT_DEFINITIONS so the document cannot drift from the checks.
 */
import { LIMIT_DEFINITIONS } from '../core/limits.ts';
import { RELATIONS } from './relations.ts';
import { problemUrl, URLS } from '../urls.ts';

export const SQL_API_VERSION = '1.1.0';
export const SQL_PROFILE_VERSION = 1;

const BUDGETS = {
  requestBytes: 'sqlRequestBytesMax',
  rows: 'sqlRowsMax',
  returnedColumns: 'sqlColumnsMax',
  responseBytes: 'sqlResponseBytesMax',
  requestsPerWindow: 'sqlRequestsPerWindow',
  windowSeconds: 'sqlWindowSeconds',
  expressionDepth: 'sqlExpressionDepthMax',
  inListValues: 'sqlInListMax',
  predicates: 'sqlPredicatesMax',
  orderByKeys: 'sqlOrderKeysMax',
  parenthesisDepth: 'sqlParenDepthMax',
  tokens: 'sqlTokensMax',
  timeMilliseconds: 'sqlTimeBudgetMs',
  overrunCost: 'sqlOverrunCost',
  statementsInFlightPerClient: 'sqlClientStatementsMax',
} as const satisfies Record<string, keyof typeof LIMIT_DEFINITIONS>;

export function sqlProfile(): object {
  return {
    profileVersion: SQL_PROFILE_VERSION,
    apiVersion: SQL_API_VERSION,
    endpoint: { method: 'QUERY', path: URLS.sql, contentType: 'application/sql; charset=utf-8', accept: ['application/json', 'text/csv'] },
    dialect: 'A subset of PostgreSQL syntax, executed by SQLite: text compares by code point, LIKE is case-sensitive, NULL orders first ascending.',
    relations: RELATIONS.map((r) => ({
      name: `${r.schema}.${r.name}`,
      type: r.kind,
      columns: r.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
    })),
    types: {
      text: 'UTF-8 string.',
      integer: 'Whole number within ±2^53.',
      real: 'Double-precision number.',
      date: 'ISO 8601 calendar date YYYY-MM-DD as text; orders chronologically.',
      json: 'A JSON array written as text, e.g. tags ["node.js","streams"]; match one element with LIKE \'%"streams"%\'.',
      boolean: 'TRUE or FALSE literal; JSON true/false, CSV true/false.',
      null: 'A NULL literal.',
    },
    nullEncoding: { json: 'null', csv: 'an empty unquoted field (the empty string is written "")' },
    responses: {
      json: '{"columns":[{"name","type"}],"rows":[[…ordered values…]],"truncated":boolean}',
      csv: 'RFC 4180 with a header row; header SQL-Truncated: true|false',
      truncated: 'true when rows were cut: more than the row budget matched and no LIMIT was given, or the encoded rows reached the response byte budget.',
    },
    grammar: {
      accepted: [
        'exactly one SELECT statement (one trailing semicolon allowed)',
        'projection of columns, * and alias.*, and literals, each with an optional AS alias',
        'FROM one relation, with an optional alias; an unqualified writing means public.writing',
        "literals: integers, decimals, 'strings', TRUE, FALSE, NULL, DATE 'YYYY-MM-DD', TIMESTAMP 'YYYY-MM-DD HH:MM[:SS]'",
        'comparisons = <> != < <= > >= between columns and literals',
        'AND, OR, NOT and parentheses',
        'IS NULL, IS NOT NULL',
        '[NOT] IN (literal, …)',
        '[NOT] LIKE',
        '[NOT] BETWEEN … AND …',
        'ORDER BY columns, output aliases or 1-based positions, ASC or DESC',
        'LIMIT n with 0 ≤ n ≤ the row budget; without LIMIT the row budget applies',
      ],
      refused: [
        'joins and more than one relation',
        'aggregates',
        'subqueries and EXISTS',
        'WITH (CTEs)',
        'functions, casts, CASE, arithmetic, string concatenation',
        'OFFSET',
        'other relations (physical tables, system catalogs)',
        'parameters',
        'GROUP BY, HAVING, DISTINCT, window clauses',
        'UNION, INTERSECT, EXCEPT',
        'PRAGMA, ATTACH, EXPLAIN',
        'INSERT, UPDATE, DELETE and every DDL statement',
        'more than one statement',
        'ILIKE, SIMILAR TO, regular-expression operators, ESCAPE, COLLATE, NULLS FIRST/LAST',
      ],
    },
    budgets: Object.fromEntries(Object.entries(BUDGETS).map(([name, key]) => [name, { ...LIMIT_DEFINITIONS[key] }])),
    problems: [
      'sql-syntax',
      'sql-unsupported',
      'sql-unknown-name',
      'sql-limit',
      'sql-too-large',
      'sql-media-type',
      'unsupported-sql-api-version',
      'not-acceptable',
      'method-not-allowed',
      'rate-limited',
      'sql-client-busy',
      'sql-busy',
    ].map(problemUrl),
  };
}
