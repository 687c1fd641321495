/**
 * Running a checked statement over the SQL image and encoding its rows. The image is
 * opened once, `query_only` (no statement can write, even one this module did not
 * expect) and with case-sensitive LIKE (PostgreSQL's meaning). One query feeds both
 * formats: `runStatement` returns columns, rows and whether rows were cut; the encoders
 * then fit rows into the response byte budget, cutting (and setting `truncated`) at the
 * last whole row that fits. `answerStatement` is the whole path from text to bytes.
 */
import type { Database } from 'sql.js';
import { PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { SQL } from './engine.ts';
import type { CheckedStatement, StatementCache } from './grammar.ts';
import type { SqlType } from './relations.ts';

export type Cell = string | number | boolean | null;

export interface SqlResult {
  columns: readonly { name: string; type: SqlType }[];
  rows: Cell[][];
  /** Rows existed past the 100-row cap (no LIMIT given) or past the response byte budget. */
  truncated: boolean;
}

export function openImage(image: Uint8Array): Database {
  const db = new SQL.Database(image);
  db.run('PRAGMA case_sensitive_like = ON');
  db.run('PRAGMA query_only = ON');
  return db;
}

export function runStatement(db: Database, checked: CheckedStatement): SqlResult {
  const statement = db.prepare(checked.sql);
  const booleans = checked.columns.map((c) => c.type === 'boolean');
  const rows: Cell[][] = [];
  let truncated = false;
  try {
    statement.bind(checked.params as (string | number | null)[]);
    // The SQL's own LIMIT bounds the steps: at most limit + 1 rows are ever produced.
    while (statement.step()) {
      if (rows.length === checked.limit) {
        truncated = true;
        break;
      }
      const row = statement.get() as Cell[];
      for (let i = 0; i < row.length; i++) if (booleans[i]) row[i] = row[i] === null ? null : row[i] === 1;
      rows.push(row);
    }
  } finally {
    statement.free();
  }
  return { columns: checked.columns, rows, truncated: truncated && checked.capped };
}

const tooLarge = () =>
  new PublicError('sql-limit', `Not even one row fits in the ${LIMITS.sqlResponseBytesMax / 1024} KiB response budget; select fewer or shorter columns.`);

/** Joins encoded rows under the byte budget; returns how many fit. */
function fit(encoded: (row: Cell[]) => string, rows: readonly Cell[][], fixedBytes: number, separatorBytes: number): string[] {
  const parts: string[] = [];
  let bytes = fixedBytes;
  for (const row of rows) {
    const part = encoded(row);
    bytes += Buffer.byteLength(part) + (parts.length ? separatorBytes : 0);
    if (bytes > LIMITS.sqlResponseBytesMax) {
      if (parts.length === 0) throw tooLarge();
      break;
    }
    parts.push(part);
  }
  return parts;
}

/** `{"columns":[{name,type}],"rows":[[…]],"truncated":bool}`; NULL is JSON null. */
export function encodeJson(result: SqlResult): { body: Buffer; truncated: boolean } {
  const head = `{"columns":${JSON.stringify(result.columns)},"rows":[`;
  const tail = (truncated: boolean) => `],"truncated":${truncated}}`;
  // Budgeted with the longer tail ("false"), so either ending fits.
  const parts = fit((row) => JSON.stringify(row), result.rows, Buffer.byteLength(head) + Buffer.byteLength(tail(false)), 1);
  const truncated = result.truncated || parts.length < result.rows.length;
  return { body: Buffer.from(head + parts.join(',') + tail(truncated)), truncated };
}

/**
 * RFC 4180: a header row of column names, CRLF line ends, a field quoted when it holds a
 * comma, quote or line break ("each field may or may not be enclosed in double quotes").
 * NULL is an empty unquoted field and the empty string is `""`, so the two stay distinct.
 * CSV has no place for the truncated flag: it is sent as the `SQL-Truncated` header.
 */
function csvField(value: Cell): string {
  if (value === null) return '';
  const text = String(value);
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function encodeCsv(result: SqlResult): { body: Buffer; truncated: boolean } {
  const header = `${result.columns.map((c) => csvField(c.name)).join(',')}\r\n`;
  const parts = fit((row) => `${row.map(csvField).join(',')}\r\n`, result.rows, Buffer.byteLength(header), 0);
  return { body: Buffer.from(header + parts.join('')), truncated: result.truncated || parts.length < result.rows.length };
}

export type SqlFormat = 'json' | 'csv';

/** Checks, runs and encodes one statement: what a SQL worker does for each request. */
export function answerStatement(db: Database, statements: StatementCache, text: string, format: SqlFormat): { body: Buffer; truncated: boolean } {
  const result = runStatement(db, statements.check(text));
  return format === 'csv' ? encodeCsv(result) : encodeJson(result);
}
