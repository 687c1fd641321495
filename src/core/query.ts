/**
 * The query core every surface shares: a validated query in, a page out. A query is a
 * collection, filters (compared on folded keys), an optional substring search, a sort
 * made total by the canonicalId, a page size and an optional keyset cursor. Pages are
 * read with `limit + 1` rows so the next cursor exists only when there is a next page;
 * counts and facets depend only on the filters, so they are remembered per filter set.
 */
import { facetable, type CollectionDeclaration, type SortDirection, type SortKey } from '../collections/define.ts';
import { contentCollections, restCollections } from '../collections/index.ts';
import { binding, decodeCursor, encodeCursor, type Position } from './cursor.ts';
import { ftsPhrase, indexable } from './fts.ts';
import { Image, missingSortKey, recordsTable, searchTable, sortColumn, tagsTable } from './image.ts';
import { LIMITS } from './limits.ts';
import { BoundedCache, OBJECT_BYTES, stringBytes } from './memo.ts';
import { parseQuery, type Filter, type Query } from './params.ts';

/** The collections whose records a canonical ID can name: every REST collection but the composed feed. */
const RECORD_COLLECTIONS = restCollections.filter((c) => contentCollections.includes(c));

const isRange = (filter: Filter) => filter.spec.kind.type === 'since';

export interface FacetValue {
  value: string;
  count: number;
}
export type Facets = Record<string, FacetValue[]>;

/** What a page says besides its items. */
export interface PageSummary {
  totalCount: number;
  next: string | undefined;
  facets: Facets | undefined;
  /** The data's as-of time (`meta.timestamp`): never later than the build, never 1970 (src/core/image.ts). */
  asOf: string;
  /** When the data last changed, where a dated record says (sent as Last-Modified); absent for a collection with none. */
  lastModified?: string;
}

export interface Page extends PageSummary {
  /** Each item's published JSON text, in order. */
  items: string[];
  /** Canonical IDs of `items`, in the same order. */
  canonicalIds: string[];
}

/**
 * A page whose items are UTF-8 parts: their JSON texts as SQLite stores them, commas
 * between them. The JSON list splices them into its envelope as they are, which spares a
 * string per item and the body's re-encoding (measured: 108 µs → 65 µs for a filtered
 * page), and copies them once, into the body: joining them here first copied every
 * answer's items twice (issue 42: 13 KB more per filtered page).
 */
export interface JoinedPage extends PageSummary {
  parts: readonly Uint8Array[];
}

export interface Where {
  sql: string[];
  params: (string | number)[];
}

/** One SQL statement and its parameters. */
interface Statement {
  sql: string;
  params: (string | number)[];
}

/**
 * How a page's rows carry each record's JSON: as text (a string per item), or as its
 * stored UTF-8 bytes (`CAST(json AS BLOB)`), which the joined page copies as they are.
 */
type JsonAs = 'text' | 'bytes';

/** A page row as `runJoined` reads it, an array in the statement's column order: json, cid, k0…kn, rid. */
type BytesRow = [Uint8Array, string, ...(string | number | null)[]];

/** What the next cursor is made of: the page's last row's sort keys and canonicalId. */
interface LastRow {
  keys: readonly (string | number | null)[];
  cid: string;
}

const COMMA = Buffer.from(',');

/**
 * How `q` is answered in an order other than the default one (in the default order the
 * trigram index is walked in page order, see `walk`). The index finds sparse matches fast
 * but leaves them to be sorted; when matches are dense, walking the sort order and testing
 * the folded text (`instr`, the same substring test) reaches a page sooner. Either gives
 * the same rows.
 */
type SearchMode = 'index' | 'scan';
/** A search matching at least this many records and this share of the collection is dense. */
export interface DensityThreshold {
  matches: number;
  share: number;
}
const DENSE: DensityThreshold = { matches: 500, share: 0.02 };

/** Filters (and the search) as conditions on the records table. */
function filterWhere(query: Query, filters: readonly Filter[], search: SearchMode, table = ''): Where {
  const name = query.collection.name;
  const where: Where = { sql: [], params: [] };
  for (const filter of filters) {
    if (isRange(filter)) {
      where.sql.push(`${table}${sortColumn(filter.spec.field)} >= ?`);
      where.params.push(filter.key);
    } else {
      where.sql.push(`${table}rid IN (SELECT rid FROM ${tagsTable(name)} WHERE dim = ? AND key IN (${filter.keys.map(() => '?').join(', ')}))`);
      where.params.push(filter.param, ...filter.keys);
    }
  }
  if (query.q) {
    if (search === 'index' && indexable(query.q.key)) {
      where.sql.push(`${table}pos IN (SELECT rowid FROM ${searchTable(name)} WHERE ${searchTable(name)} MATCH ?)`);
      where.params.push(ftsPhrase(query.q.key));
    } else {
      where.sql.push(`instr(${table}search, ?) > 0`);
      where.params.push(query.q.key);
    }
  }
  return where;
}

const op = (direction: SortDirection) => (direction === 'asc' ? '>' : '<');

/** Whether a query pages in its collection's default order, the order of `pos`. */
const inDefaultOrder = (query: Query) =>
  query.sort.length === query.collection.defaultSort.length &&
  query.sort.every((k, i) => k.field === query.collection.defaultSort[i]!.field && k.direction === query.collection.defaultSort[i]!.direction);
const tieDirection = (sort: readonly SortKey[]): SortDirection => sort[sort.length - 1]?.direction ?? 'asc';

/**
 * Rows strictly after `values` in the order of `columns`, each run in its direction. When
 * every key runs the same way this is one row-value comparison, which SQLite answers with
 * an index seek; mixed directions expand into the lexicographic OR.
 */
export function rowsAfter(columns: readonly string[], directions: readonly SortDirection[], values: readonly (string | number)[]): Where {
  if (directions.every((d) => d === directions[0])) {
    return { sql: [`(${columns.join(', ')}) ${op(directions[0]!)} (${columns.map(() => '?').join(', ')})`], params: [...values] };
  }
  const alternatives: string[] = [];
  const params: (string | number)[] = [];
  for (let i = 0; i < columns.length; i++) {
    const equal = columns.slice(0, i).map((c) => `${c} = ?`);
    alternatives.push(`(${[...equal, `${columns[i]} ${op(directions[i]!)} ?`].join(' AND ')})`);
    params.push(...values.slice(0, i), values[i]!);
  }
  return { sql: [`(${alternatives.join(' OR ')})`], params };
}

/**
 * Rows strictly after the cursor position, in the query's order. `ridBound` is the rid
 * that stands for the cursor's canonicalId (rids follow canonicalId order, see the image
 * writer).
 */
function keysetWhere(query: Query, position: Position, ridBound: number, columns: readonly string[]): Where {
  const directions = [...query.sort.map((k) => k.direction), tieDirection(query.sort)];
  const values = [...position.values.map((v, i) => v ?? missingSortKey(query.collection.sort[query.sort[i]!.field])), ridBound];
  return rowsAfter(columns, directions, values);
}

/** The ORDER BY terms of `columns`, each run in its direction. */
export const orderTerms = (columns: readonly string[], directions: readonly SortDirection[]) =>
  columns.map((c, i) => `${c} ${directions[i]!.toUpperCase()}`).join(', ');

const orderBy = (sort: readonly SortKey[], columns: readonly string[]) => orderTerms(columns, [...sort.map((k) => k.direction), tieDirection(sort)]);

const jsonColumn = (json: JsonAs) => (json === 'bytes' ? 'CAST(r.json AS BLOB) AS json' : 'r.json AS json');

const clause = (where: Where) => (where.sql.length ? `WHERE ${where.sql.join(' AND ')}` : '');
const merge = (...parts: Where[]): Where => ({ sql: parts.flatMap((p) => p.sql), params: parts.flatMap((p) => p.params) });

/** What a cursor must agree with: everything but the page size. */
export function queryBinding(query: Query): string {
  return binding([
    query.collection.name,
    ...query.filters.map((f) => `${f.param}=${f.keys.join('\u0001')}`),
    `q=${query.q?.key ?? ''}`,
    query.sort.map((k) => `${k.field}:${k.direction}`).join(','),
  ]);
}

interface Summary {
  totalCount: number;
  facets?: Facets;
}

/** What a remembered summary holds: the record, and per facet dimension its name, array and values. */
function summaryBytes(summary: Summary): number {
  let bytes = OBJECT_BYTES;
  for (const [dimension, values] of Object.entries(summary.facets ?? {})) {
    bytes += OBJECT_BYTES + stringBytes(dimension) + 8 * values.length;
    for (const value of values) bytes += OBJECT_BYTES + stringBytes(value.value);
  }
  return bytes;
}

export class QueryCore {
  readonly image: Image;
  private readonly counts = new BoundedCache<Summary>({ bytes: LIMITS.countCacheBytes, entries: LIMITS.countCacheEntries, valueBytes: summaryBytes });

  private readonly dense: DensityThreshold;

  /** `dense` exists for tests, which force each search plan to check that both agree. */
  constructor(image: Image, options: { dense?: DensityThreshold } = {}) {
    this.image = image;
    this.dense = options.dense ?? DENSE;
  }

  run(query: Query): Page {
    const { bound, plan, summary } = this.plan(query, 'text');
    const rows = this.image.statement(plan.sql).all(...plan.params) as Record<string, string | number>[];
    const more = rows.length > query.limit;
    if (more) rows.pop();
    const last = more ? rows[rows.length - 1]! : undefined;
    return {
      items: rows.map((r) => String(r.json)),
      canonicalIds: rows.map((r) => String(r.cid)),
      ...this.summarized(query, bound, summary, last && { keys: query.sort.map((_, i) => last[`k${i}`] ?? null), cid: String(last.cid) }),
    };
  }

  /**
   * The same page as `run`, its items as bytes: the same statement, in the same order
   * (its ORDER BY), reading each record's stored UTF-8 bytes, rows as arrays, commas
   * between them, copied only into the body. Joining in SQLite instead (group_concat over
   * the rows numbered by a window) copied every record twice more, into the window's
   * buffer and the aggregate's sorter: measured 135 → 77 µs a filtered page of 50.
   */
  runJoined(query: Query): JoinedPage {
    const { bound, plan, summary } = this.plan(query, 'bytes');
    const rows = this.image.statement(plan.sql, true).all(...plan.params) as unknown as BytesRow[];
    const more = rows.length > query.limit;
    if (more) rows.pop();
    const parts: Uint8Array[] = [];
    for (const row of rows) {
      if (parts.length > 0) parts.push(COMMA);
      parts.push(row[0]);
    }
    const last = more ? rows[rows.length - 1]! : undefined;
    const keys = query.sort.length;
    return {
      parts,
      ...this.summarized(query, bound, summary, last && { keys: last.slice(2, 2 + keys) as (string | number | null)[], cid: last[1] }),
    };
  }

  /** What `run` and `runJoined` share: the cursor checked, the count, and the statement of the page's rows. */
  private plan(query: Query, json: JsonAs): { bound: string; plan: Statement; summary: Summary } {
    const bound = queryBinding(query);
    const position = query.cursor === undefined ? undefined : decodeCursor(this.image.cursorKey, bound, query.sort.length, query.cursor);
    const summary = this.summary(query, bound);
    const dense = summary.totalCount >= this.dense.matches && summary.totalCount >= this.dense.share * this.image.count(query.collection.name);
    return { bound, plan: this.rows(query, position, dense ? 'scan' : 'index', json), summary };
  }

  /** The page's count, facets and timestamp, and the cursor after `last`, the page's last row when another follows. */
  private summarized(query: Query, bound: string, summary: Summary, last: LastRow | undefined): PageSummary {
    return {
      totalCount: summary.totalCount,
      next: last ? encodeCursor(this.image.cursorKey, bound, { values: last.keys, canonicalId: last.cid }) : undefined,
      facets: query.facets ? summary.facets : undefined,
      asOf: this.image.asOf(query.collection.name),
      lastModified: this.image.lastModified(query.collection.name),
    };
  }

  /**
   * The statement of a page's rows (limit + 1 of them): each row's json (text or bytes),
   * cid, sort keys k0…kn and rid, in the query's order. A filtered query with a one-field sort walks the
   * tags index of its first filter, already in sort order (testing any dense search on the
   * way); anything else filters the records table and sorts. A search through the trigram
   * index sorts only the matches' keys and reads the JSON of the page's rows alone, which
   * keeps records' bytes out of SQLite's sorter (measured: 461 → 354 µs for a sparse word).
   * The page size is written into the statement, not bound, so SQLite plans knowing it
   * (a bound LIMIT once planned a joined page a third slower, 96 µs against 70 µs). It is a
   * validated integer of 1..pageSizeMax, so it multiplies the statements by that at most.
   */
  private rows(query: Query, position: Position | undefined, search: SearchMode, json: JsonAs): Statement {
    const name = query.collection.name;
    const limit = `LIMIT ${Math.trunc(query.limit) + 1}`;
    if (query.q && indexable(query.q.key) && inDefaultOrder(query)) return this.walk(query, position, limit, json);
    // The walk starts from one tag filter of a single value (several could repeat a record).
    const first = query.filters.find((f) => !isRange(f) && f.keys.length === 1);
    const others = query.filters.filter((f) => f !== first);
    const viaTags = first !== undefined && query.sort.length === 1 && (query.q === undefined || search === 'scan');
    const table = viaTags ? `${tagsTable(name)} AS t JOIN ${recordsTable(name)} AS r ON r.rid = t.rid` : `${recordsTable(name)} AS r`;
    const keyColumns = query.sort.map((k, i) => (viaTags && i === 0 ? 't' : 'r') + `.${sortColumn(k.field)}`);
    const columns = [...keyColumns, viaTags ? 't.rid' : 'r.rid'];
    const where = viaTags
      ? merge({ sql: ['t.dim = ?', 't.key = ?'], params: [first!.param, first!.key] }, filterWhere(query, others, search, 'r.'))
      : filterWhere(query, query.filters, search, 'r.');
    if (position) {
      const keyset = this.after(query, position, columns);
      where.sql.push(...keyset.sql);
      where.params.push(...keyset.params);
    }
    const keys = keyColumns.map((c, i) => `, ${c} AS k${i}`).join('');
    const order = `ORDER BY ${orderBy(query.sort, columns)} ${limit}`;
    const rid = columns[columns.length - 1];
    const select = `SELECT ${jsonColumn(json)}, r.cid AS cid${keys}, ${rid} AS rid FROM`;
    if (query.q && search === 'index' && !viaTags) {
      return {
        sql: `${select} ${recordsTable(name)} AS r WHERE r.rid IN (SELECT ${rid} FROM ${table} ${clause(where)} ${order}) ${order}`,
        params: where.params,
      };
    }
    return { sql: `${select} ${table} ${clause(where)} ${order}`, params: where.params };
  }

  /**
   * A search in the collection's default order: the trigram index's matches in rowid
   * order, which is `pos`, the default order, so the walk stops at the page's last row
   * instead of finding and sorting every match (measured: 465 → 159 µs a page over 32
   * words of 160–3,600 matches). Filters are tested on the way; a cursor becomes the
   * position of the first row after it.
   */
  private walk(query: Query, position: Position | undefined, limit: string, json: JsonAs): Statement {
    const name = query.collection.name;
    const fts = searchTable(name);
    const where = merge(
      { sql: [`f.${fts} MATCH ?`], params: [ftsPhrase(query.q!.key)] },
      filterWhere({ ...query, q: undefined }, query.filters, 'index', 'r.'),
    );
    if (position) {
      const columns = [...query.sort.map((k) => `r.${sortColumn(k.field)}`), 'r.rid'];
      const keyset = this.after(query, position, columns);
      const next = this.image
        .statement(`SELECT r.pos AS pos FROM ${recordsTable(name)} AS r ${clause(keyset)} ORDER BY ${orderBy(query.sort, columns)} LIMIT 1`)
        .get(...keyset.params) as { pos: number } | undefined;
      where.sql.push('f.rowid >= ?');
      where.params.push(next === undefined ? Number.MAX_SAFE_INTEGER : Number(next.pos));
    }
    const keys = query.sort.map((k, i) => `, r.${sortColumn(k.field)} AS k${i}`).join('');
    return {
      sql: `SELECT ${jsonColumn(json)}, r.cid AS cid${keys}, r.rid AS rid FROM ${fts} AS f JOIN ${recordsTable(name)} AS r ON r.pos = f.rowid ${clause(where)} ORDER BY f.rowid ${limit}`,
      params: where.params,
    };
  }

  /** Rows after the cursor `position` in the query's order, over `columns` (the sort keys' and the rid's). */
  private after(query: Query, position: Position, columns: readonly string[]): Where {
    const tie = tieDirection(query.sort) === 'asc' ? '<=' : '<';
    // The last rid at or before the cursor's canonicalId, by an index seek on cid (rids follow cid order).
    const found = this.image
      .statement(`SELECT rid FROM ${recordsTable(query.collection.name)} WHERE cid ${tie} ? ORDER BY cid DESC LIMIT 1`)
      .get(position.canonicalId) as { rid: number } | undefined;
    const last = Number(found?.rid ?? 0);
    // Descending ties continue below the first rid whose cid is not smaller: bound + 1, exclusive.
    const ridBound = tie === '<' ? last + 1 : last;
    return keysetWhere(query, position, ridBound, columns);
  }

  /** One record's published JSON text by canonicalId, or undefined. */
  get(collection: CollectionDeclaration, canonicalId: string): string | undefined {
    const row = this.image.statement(`SELECT json FROM ${recordsTable(collection.name)} WHERE cid = ?`).get(canonicalId) as { json: string } | undefined;
    return row?.json;
  }

  /**
   * The record a canonical ID names, whichever collection holds it: canonicalIds are
   * unique across the content collections (the build refuses a shared one), so the first
   * found is the only one. The composed lists (feed items) keep their records' IDs and
   * are not searched.
   */
  lookup(canonicalId: string): { collection: CollectionDeclaration; json: string } | undefined {
    for (const collection of RECORD_COLLECTIONS) {
      const json = this.get(collection, canonicalId);
      if (json !== undefined) return { collection, json };
    }
    return undefined;
  }

  /** Every record of a query's filtered set, in its order: page after page through the same path as any client. */
  *all(query: Query): Generator<string> {
    let page = this.run({ ...query, cursor: undefined, limit: LIMITS.pageSizeMax });
    for (;;) {
      yield* page.items;
      if (page.next === undefined) return;
      page = this.run({ ...query, cursor: page.next, limit: LIMITS.pageSizeMax });
    }
  }

  /** Every published record of a collection, parsed, in its default order (for documents built from whole collections). */
  records(collection: CollectionDeclaration): Record<string, unknown>[] {
    return [...this.all(parseQuery(collection, new URLSearchParams()))].map((json) => JSON.parse(json) as Record<string, unknown>);
  }

  /** Count and facets of the filtered set, remembered per filter set (the image never changes under a running process). */
  private summary(query: Query, bound: string): Summary {
    let entry = this.counts.get(bound);
    // The filters' SQL only when a count or facets are computed, not for every answer that finds them remembered.
    if (entry && (!query.facets || entry.facets)) return entry;
    const where = filterWhere(query, query.filters, 'index');
    if (!entry) {
      const name = query.collection.name;
      const totalCount = where.sql.length
        ? Number((this.image.statement(`SELECT count(*) AS n FROM ${recordsTable(name)} ${clause(where)}`).get(...where.params) as { n: number }).n)
        : this.image.count(name);
      entry = { totalCount };
      this.counts.set(bound, entry);
    }
    if (query.facets && !entry.facets) {
      entry = { ...entry, facets: this.facets(query, where) };
      // Remembered again, so the facets are charged.
      this.counts.set(bound, entry);
    }
    return entry;
  }

  private facets(query: Query, where: Where): Facets {
    const name = query.collection.name;
    const within = where.sql.length ? `AND rid IN (SELECT rid FROM ${recordsTable(name)} ${clause(where)})` : '';
    const sql = `SELECT key, min(label) AS label, count(*) AS n FROM ${tagsTable(name)} WHERE dim = ? ${within} GROUP BY key ORDER BY n DESC, key ASC LIMIT ?`;
    const facets: Facets = {};
    for (const param of facetable(query.collection)) {
      const rows = this.image.statement(sql).all(param, ...where.params, LIMITS.facetValuesMax) as { label: string; n: number }[];
      facets[param] = rows.map((r) => ({ value: r.label, count: Number(r.n) }));
    }
    return facets;
  }
}
