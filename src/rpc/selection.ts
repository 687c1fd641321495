/**
 * `Selection`: an immutable, validated query over one collection (or over search), as a
 * capability. Its state is the REST query string itself — filters, `q`, `sort`, `limit`,
 * `cursor` — parsed by the same `parseQuery`/`parseSearch` REST runs and answered by the
 * same core, so a selection's records, counts and cursors are REST's (cursors are
 * interchangeable both ways). Every method returns a new Selection or a value; a bad
 * filter, sort field, page size or cursor fails where it is given, with INVALID_ARGUMENT
 * naming the RPC argument (REST's parameter, renamed). Each call is charged to the
 * session (src/rpc/session.ts); the page of a selection is read once, however many of
 * `info()`, `records()`, `items()` ask for it. In a batch that pre-serializes its records
 * (src/rpc/preserialized.ts) `records()` and `info()` read it as the records' stored bytes,
 * as REST does; `items()` or `next()` beside them read it once more as text (the image
 * never changes under a session, so both reads say the same).
 */
import { RpcTarget, serialize } from 'capnweb';
import type { CollectionDeclaration } from '../collections/define.ts';
import { decodeCursor } from '../core/cursor.ts';
import { LIMITS } from '../core/limits.ts';
import { parseQuery, type Query } from '../core/params.ts';
import { queryBinding, type JoinedPage, type Page } from '../core/query.ts';
import { parseSearch, searchBinding, type SearchQuery } from '../core/search.ts';
import { exportSelection, type ExportOptions, type ExportResult } from './export.ts';
import { fromPublicError, invalidArgument, RpcError } from './errors.ts';
import type { RpcContext } from './context.ts';
import { itemOf, nativeFields, nativeRecord, SEARCH_HIT_KINDS, searchHit, type Item } from './values.ts';
import { wireFields, wireJoined } from './wire.ts';

/** What a Selection ranges over: one collection, or the cross-collection search. */
export type Source = { kind: 'collection'; collection: CollectionDeclaration } | { kind: 'search'; searchable: readonly string[] };

/** The common REST parameters a filter object may not set: each has its own method. */
const NOT_FILTERS = new Set(['limit', 'cursor', 'sort', 'facets']);

/** The RPC argument a REST parameter stands for, as INVALID_ARGUMENT names it. */
function argumentOf(source: Source, parameter: string | undefined): string {
  if (parameter === 'cursor') return 'pageAfter(cursor)';
  if (parameter === 'limit') return 'first(n)';
  if (parameter === 'sort') return 'orderedBy(keys)';
  if (source.kind === 'search')
    return parameter === 'q' ? 'search.query' : parameter === 'collection' ? 'search.collections' : `matching.${parameter ?? 'filters'}`;
  return `matching.${parameter ?? 'filters'}`;
}

export interface SelectionInfo {
  collection: string;
  totalCount: number;
  pageSize: number;
  endCursor: string | null;
  hasNextPage: boolean;
  dataAsOf: Date;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** A page size as `first(n)` and `pageAfter(cursor, n)` take it: an integer 1..100. */
function pageSize(argument: string, n: unknown): string {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > LIMITS.pageSizeMax) {
    throw invalidArgument(argument, `the page size is an integer from 1 to ${LIMITS.pageSizeMax}.`);
  }
  return String(n);
}

export class Selection extends RpcTarget {
  readonly #context: RpcContext;
  readonly #source: Source;
  readonly #params: URLSearchParams;
  readonly #query: Query | SearchQuery;
  #page: Page | undefined;
  #joined: JoinedPage | undefined;

  /** Validates `params` as REST would; throws INVALID_ARGUMENT naming the argument at fault. */
  constructor(context: RpcContext, source: Source, params: URLSearchParams) {
    super();
    this.#context = context;
    this.#source = source;
    this.#params = params;
    try {
      this.#query = source.kind === 'collection' ? parseQuery(source.collection, params) : parseSearch(source.searchable, params);
      // A cursor is checked where it is given, not only when a page is read.
      const cursor = this.#query.cursor;
      if (cursor !== undefined) {
        const key = context.core.image.cursorKey;
        if (source.kind === 'collection') decodeCursor(key, queryBinding(this.#query as Query), (this.#query as Query).sort.length, cursor);
        else decodeCursor(key, searchBinding(this.#query as SearchQuery), 2, cursor);
      }
    } catch (error) {
      throw fromPublicError(error, (parameter) => argumentOf(source, parameter));
    }
  }

  /** A new selection with `change` applied to a copy of the query string. */
  #with(change: (params: URLSearchParams) => void): Selection {
    const params = new URLSearchParams(this.#params);
    change(params);
    return new Selection(this.#context, this.#source, params);
  }

  /** The validated query of a collection selection, for the server's own use (a static member: never part of the RPC surface). */
  static queryOf(selection: Selection): Query {
    if (selection.#source.kind !== 'collection') throw new RpcError('UNSUPPORTED_FORMAT', 'search results are not a collection selection.');
    return selection.#query as Query;
  }

  /** The collection whose records a selection's page holds; undefined for search hits (a static member: never part of the RPC surface). */
  static collectionOf(selection: Selection): string | undefined {
    return selection.#source.kind === 'collection' ? selection.#source.collection.name : undefined;
  }

  /** Whether a selection belongs to the session of `context` (a static member: never part of the RPC surface). */
  static isOf(selection: Selection, context: RpcContext): boolean {
    return selection.#context.session === context.session;
  }

  get #name(): string {
    return this.#source.kind === 'collection' ? this.#source.collection.name : 'search';
  }

  /** Filters by the REST filter names (q included); merged over the filters already set; starts again from the first page. */
  matching(filters: unknown): Selection {
    this.#context.session.call('matching');
    if (!isPlainObject(filters))
      throw invalidArgument('matching(filters)', 'filters is an object of REST filter names to a string, a number or an array of strings.');
    const entries = Object.entries(filters);
    if (entries.length > LIMITS.rpcBatchOperationsMax) throw invalidArgument('matching(filters)', `at most ${LIMITS.rpcBatchOperationsMax} filters at once.`);
    return this.#with((params) => {
      params.delete('cursor');
      for (const [name, value] of entries) {
        if (NOT_FILTERS.has(name))
          throw invalidArgument(`matching.${name.slice(0, 40)}`, `${name} is not a filter; use first(n), pageAfter(cursor) or orderedBy(keys).`);
        const values = Array.isArray(value) ? value : [value];
        if (
          values.length === 0 ||
          values.length > LIMITS.rpcBatchOperationsMax ||
          !values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
        ) {
          throw invalidArgument(`matching.${name.slice(0, 40)}`, 'a filter value is a string, a finite number, or a non-empty array of strings.');
        }
        params.delete(name);
        for (const v of values) params.append(name, String(v));
      }
    });
  }

  /** Orders by the REST sort fields; starts again from the first page. */
  orderedBy(keys: unknown): Selection {
    this.#context.session.call('orderedBy');
    if (this.#source.kind === 'search')
      throw invalidArgument('orderedBy(keys)', 'search results are ranked (title hits first, then newest); they take no other order.');
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > LIMITS.sortKeysMax) {
      throw invalidArgument('orderedBy(keys)', `keys is an array of 1 to ${LIMITS.sortKeysMax} {field, direction: 'asc' | 'desc'}.`);
    }
    const parts = keys.map((key: unknown) => {
      if (
        !isPlainObject(key) ||
        typeof key.field !== 'string' ||
        (key.direction !== undefined && key.direction !== 'asc' && key.direction !== 'desc') ||
        /[,:]/.test(key.field)
      ) {
        throw invalidArgument('orderedBy(keys)', "each key is {field, direction: 'asc' | 'desc'}.");
      }
      return `${key.field}:${String(key.direction ?? 'asc')}`;
    });
    return this.#with((params) => {
      params.delete('cursor');
      params.set('sort', parts.join(','));
    });
  }

  /** The first page, of `n` items (1..100). */
  first(n: unknown): Selection {
    this.#context.session.call('first');
    const size = pageSize('first(n)', n);
    return this.#with((params) => {
      params.delete('cursor');
      params.set('limit', size);
    });
  }

  /** The page after `cursor` (REST's, or an `endCursor`), of `n` items or this selection's page size. */
  pageAfter(cursor: unknown, n?: unknown): Selection {
    this.#context.session.call('pageAfter');
    if (typeof cursor !== 'string') throw invalidArgument('pageAfter(cursor)', 'cursor is a string: a REST cursor or an endCursor from info().');
    const size = n === undefined ? undefined : pageSize('pageAfter(cursor, n)', n);
    return this.#with((params) => {
      params.set('cursor', cursor);
      if (size !== undefined) params.set('limit', size);
    });
  }

  /** The page after this one: WebSocket sessions only (over HTTP batch, pageAfter on a new session). */
  next(): Selection {
    this.#context.session.call('next');
    this.#context.session.requireWebSocket('next()');
    const page = this.#read('next', 1);
    if (page.next === undefined) throw new RpcError('NOT_FOUND', 'next(): this is the last page; info().hasNextPage says so before asking.');
    const cursor = page.next;
    return this.#with((params) => params.set('cursor', cursor));
  }

  info(): SelectionInfo {
    this.#context.session.call('info');
    this.#context.session.spend('info', 1);
    // A batch that pre-serializes its records reads the page as their bytes (below); either form says the same.
    const page = this.#page ?? this.#joined ?? (this.#context.wire === undefined ? this.#text() : this.#bytes());
    return {
      collection: this.#name,
      totalCount: page.totalCount,
      pageSize: this.#query.limit,
      endCursor: page.next ?? null,
      hasNextPage: page.next !== undefined,
      dataAsOf: new Date(page.asOf),
    };
  }

  /**
   * The REST items of the page, in order, with date fields as Date and URL fields as URL;
   * in a batch that only pulls them, their wire form, held for the answer (src/rpc/preserialized.ts).
   */
  records(): Record<string, unknown>[] {
    this.#context.session.call('records');
    const wire = this.#context.wire;
    if (wire === undefined) return this.#native(this.#read('records', this.#query.limit + 1));
    this.#context.session.spend('records', this.#query.limit + 1);
    const fields = wireFields(this.#source.kind === 'search' ? SEARCH_HIT_KINDS : nativeFields(this.#source.collection));
    return wire.hold(wireJoined(this.#bytes().parts, fields) ?? Buffer.from(serialize(this.#native(this.#text()))));
  }

  /** `records()` as objects, whatever the session, for the server's own use (a static member: never part of the RPC surface). */
  static nativeRecords(selection: Selection): Record<string, unknown>[] {
    selection.#context.session.call('records');
    return selection.#native(selection.#read('records', selection.#query.limit + 1));
  }

  #native(page: Page): Record<string, unknown>[] {
    if (this.#source.kind === 'search') return page.items.map((json) => searchHit(json));
    const c = this.#source.collection;
    return page.items.map((json) => nativeRecord(c, json));
  }

  /** The page as items: {canonicalId, collection, title, url, date}. */
  items(): Item[] {
    this.#context.session.call('items');
    const page = this.#read('items', this.#query.limit + 1);
    return page.items.map((json) => itemOf(this.#name, json, this.#context.siteUrl));
  }

  /** The whole selection (every page), or its first `limit` records, in one format. */
  export(options: unknown): ExportResult {
    this.#context.session.call('export');
    if (!isPlainObject(options))
      throw invalidArgument('export(options)', "options is {format: 'json' | 'csv' | 'geojson' | 'kml' | 'gpx' | 'ics', limit?: number}.");
    if (this.#source.kind !== 'collection')
      throw new RpcError('UNSUPPORTED_FORMAT', 'export(): search results are not exported; export a collection selection.');
    return exportSelection(this.#context, this.#query as Query, options as unknown as ExportOptions);
  }

  /** The page, read once per selection; its work is charged on every read. */
  #read(member: string, units: number): Page {
    this.#context.session.spend(member, units);
    return this.#text();
  }

  /** The page's records as text, read once. */
  #text(): Page {
    try {
      this.#page ??= this.#source.kind === 'collection' ? this.#context.core.run(this.#query as Query) : this.#context.search.run(this.#query as SearchQuery);
    } catch (error) {
      throw fromPublicError(error, (parameter) => argumentOf(this.#source, parameter));
    }
    return this.#page;
  }

  /** The same page, its records' stored bytes joined as REST reads them (the same statement), read once. */
  #bytes(): JoinedPage {
    try {
      this.#joined ??=
        this.#source.kind === 'collection' ? this.#context.core.runJoined(this.#query as Query) : this.#context.search.runJoined(this.#query as SearchQuery);
    } catch (error) {
      throw fromPublicError(error, (parameter) => argumentOf(this.#source, parameter));
    }
    return this.#joined;
  }
}
