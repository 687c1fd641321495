/**
 * Applying planned changes to the image, in one transaction: each changed
 * record's row, filter values and full-text entry in its collection (composed lists
 * included), its row and full-text entry in the search index, where it came from, and
 * the collection's count, as-of time and provenance. Rows are written by the same
 * functions a full build uses (`recordRow`, `tagRows`, `searchRow`), so an updated image
 * holds the rows a full build of the same content would, in the same order; only the
 * rid numbers may differ, which nothing reads but their order.
 *
 * Rids follow the rows' order (canonicalId in a collection, rank in the search index),
 * and a collection's positions (`pos`, its full-text index's rowid) its default order. A
 * new row takes a number between its neighbours'; where they are adjacent, the few rows up
 * to the next free number move up by one (full builds leave RID_GAP between rows, so that
 * is rare and short).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CollectionDeclaration, SortDirection } from '../../collections/define.ts';
import { collection, collections, contentCollections } from '../../collections/index.ts';
import { RID_GAP, recordsTable, SEARCH_RID_BASE, searchTable, SITE_AS_OF, sortColumn, SOURCES_TABLE, tagsTable } from '../../core/image.ts';
import { orderTerms, rowsAfter } from '../../core/query.ts';
import { SEARCH_INDEX, SEARCH_TABLE } from '../../core/search.ts';
import type { ContentChanges, RecordChange } from './changes.ts';
import { asOfText, lacksProvenance, recordDateKey, recordRow, siteAsOf, sortKeys, tagRows } from '../artifacts/image.ts';
import { buildNow } from '../content/now.ts';
import { byRank, searchRow } from '../artifacts/search-index.ts';

type Fields = Record<string, unknown>;
type Row = Record<string, string | number | null>;

/** A table whose numbers (rids, or positions) follow its rows' order: what allocating one needs of it. */
interface OrderedTable<Key> {
  /** The number a full build gives the row before its first. */
  base: number;
  /** Numbers of the nearest rows before and after a row that is not in the table. */
  neighbours(row: Key): { before?: number; after?: number };
  /** Numbers from `rid` upwards, ascending. */
  ridsFrom(rid: number): Iterable<number>;
  /** Moves the row at `rid` to `rid + 1`, which is free. */
  move(rid: number): void;
}

/** A number for a new row between its neighbours', moving a run of rows up by one when they are adjacent. */
function allocate<Key>(table: OrderedTable<Key>, row: Key): number {
  const { before, after } = table.neighbours(row);
  if (after === undefined) return (before ?? table.base) + RID_GAP;
  if (before === undefined && after - RID_GAP > 0) return after - RID_GAP;
  const low = before ?? 0;
  if (after - low >= 2) return low + Math.floor((after - low) / 2);
  const run: number[] = [];
  for (const rid of table.ridsFrom(after)) {
    if (rid !== after + run.length) break;
    run.push(rid);
  }
  for (const rid of run.reverse()) table.move(rid);
  return after;
}

class Statements {
  private readonly cache = new Map<string, StatementSync>();
  private readonly db: DatabaseSync;
  constructor(db: DatabaseSync) {
    this.db = db;
  }
  get(sql: string): StatementSync {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}

/** A record's entry in its collection's full-text index, by position: added, or dropped (an external-content index is told the text it indexed). */
const indexText = (sql: Statements, fts: string, pos: number, search: string) => sql.get(`INSERT INTO ${fts} (rowid, search) VALUES (?, ?)`).run(pos, search);
const unindexText = (sql: Statements, fts: string, pos: number, search: string) =>
  sql.get(`INSERT INTO ${fts} (${fts}, rowid, search) VALUES ('delete', ?, ?)`).run(pos, search);

/**
 * A collection's positions: its rows numbered in its default order (the order a full build
 * numbers them in, see src/compile/artifacts/image-tables.ts), which its full-text index uses as rowids.
 */
class Positions implements OrderedTable<{ keys: (string | number)[]; rid: number }> {
  readonly base = 0;
  private readonly sql: Statements;
  private readonly table: string;
  private readonly fts: string;
  private readonly columns: string[];
  /** The default order's directions, the rid's (the tie) last. */
  private readonly directions: SortDirection[];
  /** Where each default sort key sits among a row's sort keys (declaration order). */
  private readonly at: number[];

  constructor(sql: Statements, declaration: CollectionDeclaration) {
    this.sql = sql;
    this.table = recordsTable(declaration.name);
    this.fts = searchTable(declaration.name);
    const { defaultSort } = declaration;
    this.columns = [...defaultSort.map((k) => sortColumn(k.field)), 'rid'];
    this.directions = [...defaultSort.map((k) => k.direction), defaultSort[defaultSort.length - 1]?.direction ?? 'asc'];
    this.at = defaultSort.map((k) => Object.keys(declaration.sort).indexOf(k.field));
  }

  /** The nearest rows on either side: the first row after the given one in the default order, and the first after it in the reverse order. */
  neighbours({ keys, rid }: { keys: (string | number)[]; rid: number }): { before?: number; after?: number } {
    const values = [...this.at.map((i) => keys[i]!), rid];
    const nearest = (directions: SortDirection[]) => {
      const where = rowsAfter(this.columns, directions, values);
      const row = this.sql
        .get(`SELECT pos FROM ${this.table} WHERE ${where.sql.join(' AND ')} ORDER BY ${orderTerms(this.columns, directions)} LIMIT 1`)
        .get(...where.params) as { pos: number } | undefined;
      return row?.pos;
    };
    return { before: nearest(this.directions.map((d) => (d === 'asc' ? 'desc' : 'asc'))), after: nearest(this.directions) };
  }

  *ridsFrom(pos: number): Iterable<number> {
    for (const row of this.sql.get(`SELECT pos FROM ${this.table} WHERE pos >= ? ORDER BY pos`).iterate(pos)) yield Number((row as Row).pos);
  }

  move(pos: number): void {
    const { search } = this.sql.get(`SELECT search FROM ${this.table} WHERE pos = ?`).get(pos) as { search: string };
    unindexText(this.sql, this.fts, pos, search);
    this.sql.get(`UPDATE ${this.table} SET pos = ? WHERE pos = ?`).run(pos + 1, pos);
    indexText(this.sql, this.fts, pos + 1, search);
  }
}

/** One collection's records table, its filter values and its full-text index. */
class CollectionTable implements OrderedTable<{ cid: string }> {
  readonly base = 0;
  private readonly sql: Statements;
  private readonly declaration: CollectionDeclaration;
  private readonly name: string;
  private readonly marks: string;
  private readonly positions: Positions;

  constructor(sql: Statements, declaration: CollectionDeclaration) {
    this.sql = sql;
    this.declaration = declaration;
    this.name = declaration.name;
    this.marks = Object.keys(declaration.sort)
      .map(() => ', ?')
      .join('');
    this.positions = new Positions(sql, declaration);
  }

  neighbours({ cid }: { cid: string }): { before?: number; after?: number } {
    const table = recordsTable(this.name);
    const before = this.sql.get(`SELECT rid FROM ${table} WHERE cid < ? ORDER BY cid DESC LIMIT 1`).get(cid) as { rid: number } | undefined;
    const after = this.sql.get(`SELECT rid FROM ${table} WHERE cid > ? ORDER BY cid LIMIT 1`).get(cid) as { rid: number } | undefined;
    return { before: before?.rid, after: after?.rid };
  }

  *ridsFrom(rid: number): Iterable<number> {
    for (const row of this.sql.get(`SELECT rid FROM ${recordsTable(this.name)} WHERE rid >= ? ORDER BY rid`).iterate(rid)) yield Number((row as Row).rid);
  }

  private row(where: 'rid' | 'cid', value: string | number): Row | undefined {
    return this.sql.get(`SELECT rid, pos, search, json FROM ${recordsTable(this.name)} WHERE ${where} = ?`).get(value) as Row | undefined;
  }

  private tags(rid: number, fields: Fields, keys: readonly (string | number)[]): void {
    const insertTag = this.sql.get(`INSERT INTO ${tagsTable(this.name)} VALUES (?, ?, ?, ?${this.marks})`);
    for (const tag of tagRows(this.declaration, fields)) insertTag.run(...tag, rid, ...keys);
  }

  private untag(rid: number, fields: Fields): void {
    const drop = this.sql.get(`DELETE FROM ${tagsTable(this.name)} WHERE dim = ? AND key = ? AND rid = ?`);
    for (const [dim, key] of tagRows(this.declaration, fields)) drop.run(dim, key, rid);
  }

  /** A rid move keeps the row's position, so its full-text entry stays; its filter values follow it. */
  move(rid: number): void {
    const row = this.row('rid', rid)!;
    const fields = JSON.parse(String(row.json)) as Fields;
    this.untag(rid, fields);
    this.sql.get(`UPDATE ${recordsTable(this.name)} SET rid = ? WHERE rid = ?`).run(rid + 1, rid);
    this.tags(rid + 1, fields, sortKeys(this.declaration, fields));
  }

  remove(cid: string): void {
    const row = this.row('cid', cid);
    if (!row) throw new Error(`${this.name}: ${cid} is not in the image it was read from`);
    unindexText(this.sql, searchTable(this.name), Number(row.pos), String(row.search));
    this.untag(Number(row.rid), JSON.parse(String(row.json)) as Fields);
    this.sql.get(`DELETE FROM ${recordsTable(this.name)} WHERE rid = ?`).run(row.rid);
  }

  /** Writes the record, at its old rid when it was there (its canonicalId, so its place, is the same), at the position its sort keys take. */
  put(cid: string, fields: Fields, replacing: boolean): void {
    let rid: number;
    if (replacing) {
      rid = Number(this.row('cid', cid)!.rid);
      this.remove(cid);
    } else {
      rid = allocate(this, { cid });
    }
    const row = recordRow(this.declaration, { canonicalId: cid, fields });
    const pos = allocate(this.positions, { keys: row.keys, rid });
    this.sql.get(`INSERT INTO ${recordsTable(this.name)} VALUES (?, ?${this.marks}, ?, ?, ?)`).run(rid, row.cid, ...row.keys, pos, row.search, row.json);
    this.tags(rid, fields, row.keys);
    indexText(this.sql, searchTable(this.name), pos, row.search);
  }
}

/** The search table, ranked by (date key descending, canonicalId), and its full-text index. */
class SearchTable implements OrderedTable<{ cid: string; d: string }> {
  readonly base = SEARCH_RID_BASE;
  private readonly sql: Statements;
  private readonly siteUrl: string;

  constructor(sql: Statements, siteUrl: string) {
    this.sql = sql;
    this.siteUrl = siteUrl;
  }

  /** Rids are in rank order, so the first row ranked after a key is found by bisecting the rid range. */
  neighbours(key: { cid: string; d: string }): { before?: number; after?: number } {
    const range = this.sql.get(`SELECT min(rid) AS lo, max(rid) AS hi FROM ${SEARCH_TABLE}`).get() as { lo: number | null; hi: number | null };
    if (range.lo === null || range.hi === null) return {};
    const first = this.sql.get(`SELECT rid, d, cid FROM ${SEARCH_TABLE} WHERE rid >= ? ORDER BY rid LIMIT 1`);
    const ranksAfter = (rid: number) => {
      const row = first.get(rid) as { d: string; cid: string } | undefined;
      return row === undefined || byRank(row, { d: key.d, cid: key.cid }) > 0;
    };
    let lo = Number(range.lo);
    let hi = Number(range.hi) + 1;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (ranksAfter(mid)) hi = mid;
      else lo = mid + 1;
    }
    const after = first.get(lo) as { rid: number } | undefined;
    const before = this.sql.get(`SELECT rid FROM ${SEARCH_TABLE} WHERE rid < ? ORDER BY rid DESC LIMIT 1`).get(lo) as { rid: number } | undefined;
    return { before: before?.rid, after: after?.rid };
  }

  *ridsFrom(rid: number): Iterable<number> {
    for (const row of this.sql.get(`SELECT rid FROM ${SEARCH_TABLE} WHERE rid >= ? ORDER BY rid`).iterate(rid)) yield Number((row as Row).rid);
  }

  private row(where: 'rid' | 'cid', value: string | number): Row | undefined {
    return this.sql.get(`SELECT rid, d, head, rest FROM ${SEARCH_TABLE} WHERE ${where} = ?`).get(value) as Row | undefined;
  }

  private unindex(row: Row): void {
    this.sql.get(`INSERT INTO ${SEARCH_INDEX} (${SEARCH_INDEX}, rowid, head, rest) VALUES ('delete', ?, ?, ?)`).run(row.rid, row.head, row.rest);
  }

  move(rid: number): void {
    const row = this.row('rid', rid)!;
    this.unindex(row);
    this.sql.get(`UPDATE ${SEARCH_TABLE} SET rid = ? WHERE rid = ?`).run(rid + 1, rid);
    this.sql.get(`INSERT INTO ${SEARCH_INDEX} (rowid, head, rest) VALUES (?, ?, ?)`).run(rid + 1, row.head, row.rest);
  }

  remove(cid: string): void {
    const row = this.row('cid', cid);
    if (!row) throw new Error(`search: ${cid} is not in the image it was read from`);
    this.unindex(row);
    this.sql.get(`DELETE FROM ${SEARCH_TABLE} WHERE rid = ?`).run(row.rid);
  }

  /** Writes a record's search row: at its old rid when its rank is unchanged, else where its new rank falls. */
  put(declaration: CollectionDeclaration, cid: string, fields: Fields, replacing: boolean): void {
    const row = searchRow(declaration, { canonicalId: cid, fields }, this.siteUrl);
    let rid: number | undefined;
    if (replacing) {
      const old = this.row('cid', cid)!;
      if (old.d === row.d) rid = Number(old.rid);
      this.remove(cid);
    }
    rid ??= allocate(this, row);
    const [, , , , head, rest] = row.values;
    this.sql.get(`INSERT INTO ${SEARCH_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(rid, ...row.values);
    this.sql.get(`INSERT INTO ${SEARCH_INDEX} (rowid, head, rest) VALUES (?, ?, ?)`).run(rid, head!, rest!);
  }
}

/** Removals first (they free rids), then changes in place, then additions. */
function ordered(changes: ReadonlyMap<string, RecordChange>): RecordChange[] {
  const rank = (c: RecordChange) => (c.after === undefined ? 0 : c.before !== undefined ? 1 : 2);
  return [...changes.values()].sort((a, b) => rank(a) - rank(b) || (a.cid < b.cid ? -1 : a.cid > b.cid ? 1 : 0));
}

/** The newest date of every record of a collection, read from the updated table, at most `now`. */
function scanAsOf(sql: Statements, declaration: CollectionDeclaration, now: number): string {
  let newest = '';
  for (const row of sql.get(`SELECT json FROM ${recordsTable(declaration.name)}`).iterate()) {
    const key = recordDateKey(declaration, JSON.parse(String((row as Row).json)) as Fields);
    if (key > newest) newest = key;
  }
  return asOfText(newest, now);
}

/**
 * The collection's as-of time after its changes: the newest of the old one and the new
 * records', unless the newest record left. As-of times are capped at the build's present,
 * so a record capped earlier stays at the cap it got until a change scans the collection again.
 */
function asOfAfter(sql: Statements, declaration: CollectionDeclaration, current: string, changes: readonly RecordChange[], now: number): string {
  let newest = '';
  for (const { after } of changes) {
    const text = after ? asOfText(recordDateKey(declaration, after), now) : newest;
    if (text > newest) newest = text;
  }
  if (newest >= current) return newest;
  const newestLeft = changes.some((c) => c.before !== undefined && asOfText(recordDateKey(declaration, c.before), now) >= current);
  return newestLeft ? scanAsOf(sql, declaration, now) : current;
}

/** Whether the collection's geographic formats stay on: no located record without provenance. */
function provenanceAfter(sql: Statements, declaration: CollectionDeclaration, current: string, changes: readonly RecordChange[]): string {
  if (changes.some((c) => c.after !== undefined && lacksProvenance(c.after))) return 'incomplete';
  if (current === 'complete' || !changes.some((c) => c.before !== undefined && lacksProvenance(c.before))) return current;
  for (const row of sql.get(`SELECT json FROM ${recordsTable(declaration.name)} WHERE instr(json, '"coordinates":') > 0`).iterate()) {
    if (lacksProvenance(JSON.parse(String((row as Row).json)) as Fields)) return 'incomplete';
  }
  return 'complete';
}

/** Applies `changes` through `db`, a connection to the image inside a write transaction its caller commits or rolls back. */
export function updateImage(db: DatabaseSync, changes: ContentChanges, siteUrl: string, now: number = buildNow()): void {
  const sql = new Statements(db);
  const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  const setMeta = (key: string, value: string) => {
    if (meta.get(key) !== value) sql.get('UPDATE meta SET value = ? WHERE key = ?').run(value, key);
    meta.set(key, value);
  };
  for (const [name, recordChanges] of changes.records) {
    if (recordChanges.size === 0) continue;
    const declaration = collection(name)!;
    const table = new CollectionTable(sql, declaration);
    const list = ordered(recordChanges);
    for (const change of list) {
      if (change.after === undefined) table.remove(change.cid);
      else table.put(change.cid, change.after, change.before !== undefined);
    }
    const delta = list.filter((c) => c.before === undefined).length - list.filter((c) => c.after === undefined).length;
    setMeta(`count:${name}`, String(Number(meta.get(`count:${name}`) ?? 0) + delta));
    setMeta(`asOf:${name}`, asOfAfter(sql, declaration, meta.get(`asOf:${name}`) ?? '', list, now));
    setMeta(`provenance:${name}`, provenanceAfter(sql, declaration, meta.get(`provenance:${name}`) ?? 'complete', list));
  }
  const search = new SearchTable(sql, siteUrl);
  let searchDelta = 0;
  for (const [name, searchChanges] of changes.searched) {
    const declaration = collection(name)!;
    for (const change of ordered(searchChanges)) {
      if (change.after === undefined) search.remove(change.cid);
      else search.put(declaration, change.cid, change.after, change.before !== undefined);
      searchDelta += change.before === undefined ? 1 : change.after === undefined ? -1 : 0;
    }
  }
  setMeta('count:search', String(Number(meta.get('count:search') ?? 0) + searchDelta));
  // Composed records carry their source's dates, so the newest content collection is the index's as-of time.
  setMeta(
    'asOf:search',
    contentCollections
      .map((c) => meta.get(`asOf:${c.name}`) ?? '')
      .sort()
      .at(-1) ?? '',
  );
  setMeta(
    SITE_AS_OF,
    siteAsOf(
      collections.map((c) => meta.get(`asOf:${c.name}`) ?? ''),
      now,
    ),
  );
  const dropSources = sql.get(`DELETE FROM ${SOURCES_TABLE} WHERE file = ?`);
  for (const file of changes.files) dropSources.run(file);
  const addSource = sql.get(`INSERT INTO ${SOURCES_TABLE} VALUES (?, ?, ?, ?)`);
  for (const row of changes.sources) addSource.run(row.file, row.entry, row.collection, row.cid);
}
