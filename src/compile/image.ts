/**
 * Writing the image: one SQLite file with, per collection, the records' published JSON,
 * their folded search text, one sort-key column per sortable field with an index, the
 * filter values of every record, and a trigram full-text index for `q`. Indexes are built
 * after the rows are in, inside one transaction, which is several times faster than
 * maintaining them row by row. Nothing time- or machine-dependent is written, so the same
 * records give the same file.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { CollectionDeclaration } from '../collections/define.ts';
import { fold } from '../core/fold.ts';
import { IMAGE_FORMAT, instantKey, recordsTable, RID_GAP, searchTable, sortColumn, sortKey, SOURCES_TABLE, tagsTable } from '../core/image.ts';
import type { PublishedRecord } from './records.ts';
import { SearchStage, type SearchSource } from './search-index.ts';

export interface CollectionRecords {
  collection: CollectionDeclaration;
  records: readonly PublishedRecord[];
}

function searchText(collection: CollectionDeclaration, fields: Record<string, unknown>): string {
  return collection.search
    .flatMap((f) => fields[f] ?? [])
    .map((v) => fold(String(v)))
    .join('\n');
}

/** A record's newest source date (its `updated` or date field) as an instant key; '' when it has none. */
export function recordDateKey(collection: CollectionDeclaration, fields: Record<string, unknown>): string {
  let newest = '';
  for (const value of [fields.updated, fields[collection.dateField]]) {
    if (typeof value === 'string') {
      const key = instantKey(value);
      if (key > newest) newest = key;
    }
  }
  return newest;
}

/** An instant key as an RFC 3339 UTC date-time, the form of as-of times ('' is the epoch). */
export function asOfText(key: string): string {
  if (key === '') return '1970-01-01T00:00:00Z';
  const full = key.length === 10 ? `${key}T00:00:00` : key.length === 7 ? `${key}-01T00:00:00` : key;
  return `${full.slice(0, 19)}Z`;
}

/** The newest source date of a collection as an RFC 3339 UTC date-time; the data's as-of time. */
export function asOf(collection: CollectionDeclaration, records: readonly { fields: Record<string, unknown> }[]): string {
  let newest = '';
  for (const { fields } of records) {
    const key = recordDateKey(collection, fields);
    if (key > newest) newest = key;
  }
  return asOfText(newest);
}

/** A record's row in its collection's table, without its rid: sort keys in declaration order, folded search text, published JSON. */
export interface RecordRow {
  cid: string;
  keys: (string | number)[];
  search: string;
  json: string;
}

export function recordRow(collection: CollectionDeclaration, { canonicalId, fields }: { canonicalId: string; fields: Record<string, unknown> }): RecordRow {
  const keys = Object.keys(collection.sort).map((f) => sortKey(collection.sort[f]!, fields[f]));
  return { cid: canonicalId, keys, search: searchText(collection, fields), json: JSON.stringify(fields) };
}

/** A record's filter values: (dimension, folded key, label), one per distinct value. */
export function tagRows(collection: CollectionDeclaration, fields: Record<string, unknown>): [string, string, string][] {
  const tags: [string, string, string][] = [];
  for (const [param, spec] of Object.entries(collection.filters)) {
    // Range filters compare the sort-key column; they have no values to list.
    if (spec.kind.type === 'since') continue;
    const value = fields[spec.field];
    for (const v of Array.isArray(value) ? new Set(value) : value === undefined ? [] : [value]) tags.push([param, fold(String(v)), String(v)]);
  }
  return tags;
}

/**
 * Rows are numbered in canonicalId order, RID_GAP apart, so ordering ties by rid is
 * ordering them by canonicalId: the total order every surface promises, at the cost of an
 * integer compare; the gaps let the dev loop insert a record without renumbering the rest.
 * Sort-key columns come before the JSON so reading a key never walks the record's bytes.
 * The tags table repeats every sort key beside each filter value, so "filter, then sort"
 * is one index range scan instead of a gather and a sort.
 */
function createCollection(db: DatabaseSync, { collection, records }: CollectionRecords): void {
  const name = collection.name;
  const sortFields = Object.keys(collection.sort);
  const sortColumns = sortFields.map((f) => `, ${sortColumn(f)}`).join('');
  const marks = sortFields.map(() => ', ?').join('');
  db.exec(`CREATE TABLE ${recordsTable(name)} (rid INTEGER PRIMARY KEY, cid TEXT NOT NULL${sortColumns}, search TEXT NOT NULL, json TEXT NOT NULL)`);
  db.exec(`CREATE TABLE ${tagsTable(name)} (dim TEXT NOT NULL, key TEXT NOT NULL, label TEXT NOT NULL, rid INTEGER NOT NULL${sortColumns})`);
  const insertRecord = db.prepare(`INSERT INTO ${recordsTable(name)} VALUES (?, ?${marks}, ?, ?)`);
  const insertTag = db.prepare(`INSERT INTO ${tagsTable(name)} VALUES (?, ?, ?, ?${marks})`);
  const ordered = [...records].sort((a, b) => (a.canonicalId < b.canonicalId ? -1 : 1));
  ordered.forEach((record, index) => {
    const rid = (index + 1) * RID_GAP;
    const row = recordRow(collection, record);
    insertRecord.run(rid, row.cid, ...row.keys, row.search, row.json);
    for (const tag of tagRows(collection, record.fields)) insertTag.run(...tag, rid, ...row.keys);
  });
  createCollectionIndexes(db, collection);
}

/** The indexes of a collection's tables, built once its rows are in. */
function createCollectionIndexes(db: DatabaseSync, collection: CollectionDeclaration): void {
  const name = collection.name;
  const sortFields = Object.keys(collection.sort);
  db.exec(`CREATE UNIQUE INDEX "${name}:cid" ON ${recordsTable(name)} (cid)`);
  for (const f of sortFields) {
    db.exec(`CREATE INDEX "${name}:s:${f}" ON ${recordsTable(name)} (${sortColumn(f)})`);
    db.exec(`CREATE INDEX "${name}:tags:s:${f}" ON ${tagsTable(name)} (dim, key, ${sortColumn(f)}, rid)`);
  }
  db.exec(`CREATE INDEX "${name}:tags:rid" ON ${tagsTable(name)} (dim, key, rid)`);
  db.exec(`CREATE VIRTUAL TABLE ${searchTable(name)} USING fts5(search, tokenize = 'trigram case_sensitive 1', content = ${recordsTable(name)}, content_rowid = 'rid')`);
  db.exec(`INSERT INTO ${searchTable(name)} (${searchTable(name)}) VALUES ('rebuild')`);
}

/**
 * Where each published content record came from: its file (relative to the content
 * folder) and its place in the file (the index in a YAML sequence, NULL for a file holding
 * one record). Only the compiler reads it: the dev loop, to know which records an edited
 * file held, and to report a duplicate identity at the origin a full build would name.
 */
export interface SourceRow {
  file: string;
  entry: number | null;
  collection: string;
  cid: string;
}

/**
 * Whether a located record's coordinates do not say where they came from (no source, or
 * a geocoded position without its licence). Any one such record turns its collection's
 * geographic formats off: a silently partial export would be worse than none.
 */
export function lacksProvenance(fields: Record<string, unknown>): boolean {
  if (fields.coordinates === undefined) return false;
  const source = fields.coordinatesSource;
  return typeof source !== 'string' || (source.startsWith('geocoded:') && fields.coordinatesLicense === undefined);
}

export const missingProvenance = ({ records }: CollectionRecords): PublishedRecord[] => records.filter(({ fields }) => lacksProvenance(fields));

/**
 * The image, written as the compile streams through the collections: each collection's
 * table (and its indexes) as soon as its records are built, its search rows staged and its
 * sources written beside it, so the compiler never holds every collection at once. Rows
 * are written into a file beside `path`, which becomes the image only when `finish`
 * commits it; `abandon` removes it (a content problem leaves no image behind).
 */
export class ImageWriter {
  private readonly db: DatabaseSync;
  private readonly partial: string;
  private readonly meta: StatementSync;
  private readonly search: SearchStage;
  private readonly insertSource: StatementSync;
  private readonly path: string;
  private searchAsOf = '';

  constructor(path: string, cursorKey: Buffer, siteUrl: string) {
    this.path = path;
    this.partial = `${path}.partial`;
    rmSync(this.partial, { force: true });
    mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(this.partial);
    const db = this.db;
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;');
    db.exec('BEGIN');
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    this.meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    this.meta.run('format', IMAGE_FORMAT);
    this.meta.run('cursorKey', cursorKey.toString('hex'));
    this.meta.run('siteUrl', siteUrl.replace(/\/+$/, ''));
    db.exec(`CREATE TABLE ${SOURCES_TABLE} (file TEXT NOT NULL, entry INTEGER, collection TEXT NOT NULL, cid TEXT NOT NULL)`);
    this.insertSource = db.prepare(`INSERT INTO ${SOURCES_TABLE} VALUES (?, ?, ?, ?)`);
    this.search = new SearchStage(db, siteUrl.replace(/\/+$/, ''));
  }

  /** A collection's table, its indexes and its meta rows, from all of its records. */
  collection(entry: CollectionRecords): void {
    createCollection(this.db, entry);
    this.meta.run(`count:${entry.collection.name}`, String(entry.records.length));
    this.meta.run(`asOf:${entry.collection.name}`, asOf(entry.collection, entry.records));
    this.meta.run(`provenance:${entry.collection.name}`, missingProvenance(entry).length ? 'incomplete' : 'complete');
  }

  /** Records the cross-collection search indexes (a content collection's, as loaded). */
  searched(source: SearchSource): void {
    this.search.add(source);
    const newest = asOf(source.collection, source.records);
    if (newest > this.searchAsOf) this.searchAsOf = newest;
  }

  /** Where published content records came from. */
  sources(rows: readonly SourceRow[]): void {
    for (const row of rows) this.insertSource.run(row.file, row.entry, row.collection, row.cid);
  }

  /** Writes the search index and the sources' indexes, commits, and moves the file to `path`. */
  finish(): void {
    const db = this.db;
    this.meta.run('count:search', String(this.search.write()));
    this.meta.run('asOf:search', this.searchAsOf || '1970-01-01T00:00:00Z');
    db.exec(`CREATE INDEX "sources:file" ON ${SOURCES_TABLE} (file)`);
    db.exec(`CREATE UNIQUE INDEX "sources:cid" ON ${SOURCES_TABLE} (collection, cid)`);
    db.exec('COMMIT');
    db.exec('ANALYZE');
    db.close();
    renameSync(this.partial, this.path);
  }

  /** Drops what was written. */
  abandon(): void {
    if (this.db.isOpen) this.db.close();
    rmSync(this.partial, { force: true });
  }
}

/**
 * `search` lists the records the cross-collection search indexes (the content collections,
 * as loaded); `sources` where each of them came from.
 */
export function writeImage(
  path: string,
  collections: readonly CollectionRecords[],
  cursorKey: Buffer,
  siteUrl: string,
  search: readonly SearchSource[] = [],
  sources: readonly SourceRow[] = [],
): void {
  const writer = new ImageWriter(path, cursorKey, siteUrl);
  try {
    for (const entry of collections) writer.collection(entry);
    for (const source of search) writer.searched(source);
    writer.sources(sources);
    writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
