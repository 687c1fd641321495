/**
 * The SQL side of writing the image: tables filled from rows the compile has already
 * computed (flat arrays of column values), and their indexes built once the rows are in.
 * It imports nothing but the image's layout, so the writer thread (image-thread.ts) that
 * runs it starts in milliseconds; see image.ts for what the rows hold and why.
 */
import type { DatabaseSync } from 'node:sqlite';
import { RID_GAP, recordsTable, SEARCH_RID_BASE, searchTable, sortColumn, tagsTable } from '../../core/image-layout.ts';

/** Column values of consecutive rows, one after another. */
export type FlatRows = (string | number | null)[];

/** Rows of a collection: `records` are (rid, cid, sort keys…, pos, search, json), `tags` are (dim, key, label, rid, sort keys…). */
export interface CollectionTables {
  name: string;
  sortFields: readonly string[];
  records: FlatRows;
  tags: FlatRows;
}

function insertAll(db: DatabaseSync, sql: string, width: number, rows: FlatRows): void {
  const insert = db.prepare(sql);
  for (let i = 0; i < rows.length; i += width) insert.run(...rows.slice(i, i + width));
}

/** A collection's empty tables. */
export function createCollectionTables(db: DatabaseSync, name: string, sortFields: readonly string[]): void {
  const sortColumns = sortFields.map((f) => `, ${sortColumn(f)}`).join('');
  db.exec(
    `CREATE TABLE ${recordsTable(name)} (rid INTEGER PRIMARY KEY, cid TEXT NOT NULL${sortColumns}, pos INTEGER NOT NULL, search TEXT NOT NULL, json TEXT NOT NULL)`,
  );
  db.exec(`CREATE TABLE ${tagsTable(name)} (dim TEXT NOT NULL, key TEXT NOT NULL, label TEXT NOT NULL, rid INTEGER NOT NULL${sortColumns})`);
}

/** Some of a collection's rows, in rid order. */
export function insertCollectionRows(db: DatabaseSync, { name, sortFields, records, tags }: CollectionTables): void {
  const marks = sortFields.map(() => ', ?').join('');
  insertAll(db, `INSERT INTO ${recordsTable(name)} VALUES (?, ?${marks}, ?, ?, ?)`, sortFields.length + 5, records);
  insertAll(db, `INSERT INTO ${tagsTable(name)} VALUES (?, ?, ?, ?${marks})`, sortFields.length + 4, tags);
}

/** The indexes of a collection's tables, built once its rows are in (several times faster than maintaining them row by row). */
export function createCollectionIndexes(db: DatabaseSync, name: string, sortFields: readonly string[]): void {
  db.exec(`CREATE UNIQUE INDEX "${name}:cid" ON ${recordsTable(name)} (cid)`);
  db.exec(`CREATE UNIQUE INDEX "${name}:pos" ON ${recordsTable(name)} (pos)`);
  for (const f of sortFields) {
    db.exec(`CREATE INDEX "${name}:s:${f}" ON ${recordsTable(name)} (${sortColumn(f)})`);
    db.exec(`CREATE INDEX "${name}:tags:s:${f}" ON ${tagsTable(name)} (dim, key, ${sortColumn(f)}, rid)`);
  }
  // The label makes it cover the facet counts (src/core/query.ts `facets`): a dimension's
  // keys, counts and labels read from the index alone, not each tag's row (at 100k, a
  // page one's facets 5x faster; at 1M the counts were 0.4 s of every rebuilt page one).
  db.exec(`CREATE INDEX "${name}:tags:rid" ON ${tagsTable(name)} (dim, key, rid, label)`);
  db.exec(
    `CREATE VIRTUAL TABLE ${searchTable(name)} USING fts5(search, tokenize = 'trigram case_sensitive 1', content = ${recordsTable(name)}, content_rowid = 'pos')`,
  );
  // Filled in rowid order: FTS5's 'rebuild' reads the table in rid order, and each rowid
  // below the last flushes a segment (measured: 875 ms against 163 ms for 15,000 rows).
  // Sorting the table is faster than reading it through the positions' index (419 against
  // 522 ms for 90,000 rows).
  db.exec(`INSERT INTO ${searchTable(name)} (rowid, search) SELECT pos, search FROM ${recordsTable(name)} NOT INDEXED ORDER BY pos`);
}

/** The search table's and its full-text index's names (src/core/search.ts, passed in to keep this module light). */
export interface SearchNames {
  table: string;
  index: string;
}

const STAGE = 'temp."search:stage"';
/** Columns of a staged search row: cid, collection, year, d, head, rest, json. */
export const SEARCH_STAGE_WIDTH = 7;

export function createSearchStage(db: DatabaseSync): void {
  db.exec(
    `CREATE TEMP TABLE "search:stage" (cid TEXT NOT NULL, collection TEXT NOT NULL, year INTEGER, d TEXT NOT NULL, head TEXT NOT NULL, rest TEXT NOT NULL, json TEXT NOT NULL)`,
  );
}

export const stageSearchRows = (db: DatabaseSync, rows: FlatRows) =>
  insertAll(db, `INSERT INTO ${STAGE} VALUES (?, ?, ?, ?, ?, ?, ?)`, SEARCH_STAGE_WIDTH, rows);

/**
 * The search table from the staged rows, numbered in rank order (date key descending, then
 * canonicalId; see search-index.ts), and its indexes. SQLite's BINARY order is JavaScript's
 * string order here: date keys and canonicalIds are ASCII.
 */
export function writeSearchTable(db: DatabaseSync, { table, index }: SearchNames): void {
  db.exec(
    `CREATE TABLE ${table} (rid INTEGER PRIMARY KEY, cid TEXT NOT NULL, collection TEXT NOT NULL, year INTEGER, d TEXT NOT NULL, head TEXT NOT NULL, rest TEXT NOT NULL, json TEXT NOT NULL)`,
  );
  db.exec(
    `INSERT INTO ${table} SELECT ${SEARCH_RID_BASE} + ${RID_GAP} * row_number() OVER (ORDER BY d DESC, cid), cid, collection, year, d, head, rest, json
     FROM ${STAGE} ORDER BY d DESC, cid`,
  );
  db.exec(`DROP TABLE ${STAGE}`);
  db.exec(`CREATE UNIQUE INDEX "search:cid" ON ${table} (cid)`);
  db.exec(`CREATE VIRTUAL TABLE ${index} USING fts5(head, rest, tokenize = 'trigram case_sensitive 1', content = ${table}, content_rowid = 'rid')`);
  db.exec(`INSERT INTO ${index} (${index}) VALUES ('rebuild')`);
}
