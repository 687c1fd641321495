/**
 * The query core every surface shares: a validated query in, a page out. A query is a
 * collection, filters (compared on folded keys), an optional substring search, a sort
 * made total by the canonicalId, a page size and an optional keyset cursor. Pages are
 * read with `limit + 1` rows so the next cursor exists only when there is a next page;
 * counts and facets depend only on the filters, so they are remembered per filter set.
 */
import type { CollectionDeclaration, FilterSpec, SortDirection, SortKey } from '../collections/define.ts';
import { binding, decodeCursor, encodeCursor, type Position } from './cursor.ts';
import { Image, missingSortKey, recordsTable, searchTable, sortColumn, tagsTable } from './image.ts';
import { LIMITS } from './limits.ts';

export interface Filter {
  param: string;
  spec: FilterSpec;
  /** The value as given (trimmed), for links. */
  value: string;
  /** The folded value compared against folded record values. */
  key: string;
}

export interface Query {
  collection: CollectionDeclaration;
  /** In the collection's declared parameter order. */
  filters: readonly Filter[];
  /** The search text as given (trimmed), and folded. */
  q: { value: string; key: string } | undefined;
  sort: readonly SortKey[];
  limit: number;
  cursor: string | undefined;
  facets: boolean;
}

export interface FacetValue {
  value: string;
  count: number;
}
export type Facets = Record<string, FacetValue[]>;

export interface Page {
  /** Each item's published JSON text, in order. */
  items: string[];
  /** Canonical IDs of `items`, in the same order. */
  canonicalIds: string[];
  totalCount: number;
  next: string | undefined;
  facets: Facets | undefined;
  asOf: string;
}

/** Trigram search needs three characters; shorter searches scan the folded text. */
const TRIGRAM = 3;

interface Where {
  sql: string[];
  params: (string | number)[];
}

function filterWhere(query: Query): Where {
  const name = query.collection.name;
  const where: Where = { sql: [], params: [] };
  for (const filter of query.filters) {
    where.sql.push(`rid IN (SELECT rid FROM ${tagsTable(name)} WHERE dim = ? AND key = ?)`);
    where.params.push(filter.param, filter.key);
  }
  if (query.q) {
    if ([...query.q.key].length >= TRIGRAM) {
      where.sql.push(`rid IN (SELECT rowid FROM ${searchTable(name)} WHERE ${searchTable(name)} MATCH ?)`);
      where.params.push(`"${query.q.key.replaceAll('"', '""')}"`);
    } else {
      where.sql.push('instr(search, ?) > 0');
      where.params.push(query.q.key);
    }
  }
  return where;
}


const op = (direction: SortDirection) => (direction === 'asc' ? '>' : '<');

/**
 * Rows strictly after the cursor position in the query's order. When every key runs the
 * same way this is one row-value comparison, which SQLite answers with an index seek.
 */
function keysetWhere(query: Query, position: Position): Where {
  const columns = [...query.sort.map((k) => sortColumn(k.field)), 'cid'];
  const directions = [...query.sort.map((k) => k.direction), tieDirection(query.sort)];
  const values = [...position.values.map((v, i) => v ?? missingSortKey(query.collection.sort[query.sort[i]!.field])), position.canonicalId];
  if (directions.every((d) => d === directions[0])) {
    return { sql: [`(${columns.join(', ')}) ${op(directions[0]!)} (${columns.map(() => '?').join(', ')})`], params: values };
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

const tieDirection = (sort: readonly SortKey[]): SortDirection => sort[sort.length - 1]?.direction ?? 'asc';

function orderBy(sort: readonly SortKey[]): string {
  const keys = sort.map((k) => `${sortColumn(k.field)} ${k.direction.toUpperCase()}`);
  return [...keys, `cid ${tieDirection(sort).toUpperCase()}`].join(', ');
}

const clause = (where: Where) => (where.sql.length ? `WHERE ${where.sql.join(' AND ')}` : '');

/** What a cursor must agree with: everything but the page size. */
export function queryBinding(query: Query): string {
  return binding([
    query.collection.name,
    ...query.filters.map((f) => `${f.param}=${f.key}`),
    `q=${query.q?.key ?? ''}`,
    query.sort.map((k) => `${k.field}:${k.direction}`).join(','),
  ]);
}

export class QueryCore {
  readonly image: Image;
  private readonly counts = new Map<string, { totalCount: number; facets?: Facets }>();

  constructor(image: Image) {
    this.image = image;
  }

  run(query: Query): Page {
    const name = query.collection.name;
    const bound = queryBinding(query);
    const where = filterWhere(query);
    const page: Where = { sql: [...where.sql], params: [...where.params] };
    if (query.cursor !== undefined) {
      const position = decodeCursor(this.image.cursorKey, bound, query.sort.length, query.cursor);
      const keyset = keysetWhere(query, position);
      page.sql.push(...keyset.sql);
      page.params.push(...keyset.params);
    }
    const sortColumns = query.sort.map((k) => sortColumn(k.field));
    const sql = `SELECT json, cid${sortColumns.map((c) => `, ${c}`).join('')} FROM ${recordsTable(name)} ${clause(page)} ORDER BY ${orderBy(query.sort)} LIMIT ?`;
    const rows = this.image.statement(sql).all(...page.params, query.limit + 1) as Record<string, string | number>[];
    const more = rows.length > query.limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    const next =
      more && last
        ? encodeCursor(this.image.cursorKey, bound, {
            values: query.sort.map((k) => last[`s:${k.field}`] ?? null),
            canonicalId: String(last.cid),
          })
        : undefined;
    const summary = this.summary(query, bound, where);
    return {
      items: rows.map((r) => String(r.json)),
      canonicalIds: rows.map((r) => String(r.cid)),
      totalCount: summary.totalCount,
      next,
      facets: query.facets ? summary.facets : undefined,
      asOf: this.image.asOf(name),
    };
  }

  /** Count and facets of the filtered set, remembered per filter set (the image never changes under a running process). */
  private summary(query: Query, bound: string, where: Where): { totalCount: number; facets?: Facets } {
    let entry = this.counts.get(bound);
    if (!entry) {
      const name = query.collection.name;
      const totalCount = where.sql.length
        ? Number((this.image.statement(`SELECT count(*) AS n FROM ${recordsTable(name)} ${clause(where)}`).get(...where.params) as { n: number }).n)
        : this.image.count(name);
      entry = { totalCount };
      if (this.counts.size >= LIMITS.countCacheEntries) this.counts.delete(this.counts.keys().next().value!);
      this.counts.set(bound, entry);
    }
    if (query.facets && !entry.facets) entry.facets = this.facets(query, where);
    return entry;
  }

  private facets(query: Query, where: Where): Facets {
    const name = query.collection.name;
    const within = where.sql.length ? `AND rid IN (SELECT rid FROM ${recordsTable(name)} ${clause(where)})` : '';
    const sql = `SELECT key, min(label) AS label, count(*) AS n FROM ${tagsTable(name)} WHERE dim = ? ${within} GROUP BY key ORDER BY n DESC, key ASC LIMIT ?`;
    const facets: Facets = {};
    for (const param of Object.keys(query.collection.filters)) {
      const rows = this.image.statement(sql).all(param, ...where.params, LIMITS.facetValuesMax) as { label: string; n: number }[];
      facets[param] = rows.map((r) => ({ value: r.label, count: Number(r.n) }));
    }
    return facets;
  }
}
