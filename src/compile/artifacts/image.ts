/**
 * Writing the image: one SQLite file with, per collection, the records' published JSON,
 * their folded search text, one sort-key column per sortable field with an index, the
 * filter values of every record, and a trigram full-text index for `q`. Indexes are built
 * after the rows are in, inside one transaction, which is several times faster than
 * maintaining them row by row. Nothing time- or machine-dependent is written, so the same
 * records give the same file.
 */
import type { SiteProfile } from '../../collections/profile.ts';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { CollectionDeclaration } from '../../collections/define.ts';
import { fold } from '../../core/fold.ts';
import { IMAGE_FORMAT, instantKey, MEDIA_KEY, RID_GAP, SITE_AS_OF, sortKey, sqliteOrdered, SOURCES_TABLE } from '../../core/image.ts';
import type { MediaIndex } from '../../site/media.ts';
import { buildNow } from '../content/now.ts';
import type { PublishedRecord } from '../content/records.ts';
import { SEARCH_INDEX, SEARCH_TABLE } from '../../core/search.ts';
import type { CollectionTables, FlatRows } from './image-tables.ts';
import type { MetaRows, OpenMessage, WriterData, WriterMessage } from './image-thread.ts';
import { searchRow, type SearchSource } from './search-index.ts';

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

/**
 * An instant key as an RFC 3339 UTC date-time, the form of as-of times, never later than
 * `now` (the build's present, ms): a scheduled concert's date is not a time the data
 * changed, and RFC 9110 §8.8.2.1 forbids a Last-Modified later than the answer's Date.
 * '' (no dated record) stays '': there is no reliable source date to send.
 */
export function asOfText(key: string, now: number): string {
  if (key === '') return '';
  const full = key.length === 10 ? `${key}T00:00:00` : key.length === 7 ? `${key}-01T00:00:00` : key;
  const text = `${full.slice(0, 19)}Z`;
  const present = nowText(now);
  return text > present ? present : text;
}

/** The build's present as an as-of time (whole seconds, as HTTP dates have). */
export const nowText = (now: number) => `${new Date(now).toISOString().slice(0, 19)}Z`;

/** The newest source date of a collection, at most `now`; '' when no record is dated. The data's as-of time. */
export function asOf(collection: CollectionDeclaration, records: readonly { fields: Record<string, unknown> }[], now: number): string {
  let newest = '';
  for (const { fields } of records) {
    const key = recordDateKey(collection, fields);
    if (key > newest) newest = key;
  }
  return asOfText(newest, now);
}

/**
 * The site's as-of time, for a list whose collection has no dated record (its
 * `meta.timestamp` says as of when it was empty): the newest of the collections' as-of
 * times, or the build's present when nothing on the site is dated.
 */
export const siteAsOf = (asOfs: Iterable<string>, now: number): string => [...asOfs].reduce((a, b) => (b > a ? b : a), '') || nowText(now);

/** A record's row in its collection's table, without its rid: sort keys in declaration order, folded search text, published JSON. */
export interface RecordRow {
  cid: string;
  keys: (string | number)[];
  search: string;
  json: string;
}

export function recordRow(
  collection: CollectionDeclaration,
  { canonicalId, fields }: { canonicalId: string; fields: Record<string, unknown> },
  keys = sortKeys(collection, fields),
): RecordRow {
  return { cid: canonicalId, keys, search: searchText(collection, fields), json: JSON.stringify(fields) };
}

/** A record's sort keys, in declaration order. */
export const sortKeys = (collection: CollectionDeclaration, fields: Record<string, unknown>) =>
  Object.keys(collection.sort).map((f) => sortKey(collection.sort[f]!, fields[f]));

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
 * A collection's rows. Rows are numbered in canonicalId order, RID_GAP apart, so ordering
 * ties by rid is ordering them by canonicalId: the total order every surface promises, at
 * the cost of an integer compare; the gaps let the dev loop insert a record without
 * renumbering the rest. Positions number them the same way in the default order (the
 * full-text index's rowids; see recordsTable). Sort-key columns come before the JSON so
 * reading a key never walks the record's bytes. The tags table repeats every sort key
 * beside each filter value, so "filter, then sort" is one index range scan instead of a
 * gather and a sort.
 */
export function* collectionTables({ collection, records }: CollectionRecords, chunk: number): Generator<CollectionTables> {
  const ids = records.map((r) => r.canonicalId);
  const at = new Map(ids.map((id, i) => [id, i]));
  // canonicalIds are unique in a collection; the default sort compares them as strings, as `<` does.
  ids.sort();
  const keys = ids.map((id) => sortKeys(collection, records[at.get(id)!]!.fields));
  const positions = defaultPositions(collection, keys);
  const name = collection.name;
  const sortFields = Object.keys(collection.sort);
  for (let start = 0; start < ids.length; start += chunk) {
    const rows: FlatRows = [];
    const tags: FlatRows = [];
    for (let index = start; index < Math.min(ids.length, start + chunk); index++) {
      const record = records[at.get(ids[index]!)!]!;
      const rid = (index + 1) * RID_GAP;
      const row = recordRow(collection, record, keys[index]);
      rows.push(rid, row.cid, ...row.keys, positions[index]!, row.search, row.json);
      for (const tag of tagRows(collection, record.fields)) tags.push(...tag, rid, ...row.keys);
    }
    yield { name, sortFields, records: rows, tags };
  }
}

/**
 * The position of each row (its sort keys given in rid order) in the collection's default
 * order: keys compared as SQLite compares them, ties by rid in the last key's direction,
 * RID_GAP apart.
 */
function defaultPositions(collection: CollectionDeclaration, keys: readonly (string | number)[][]): number[] {
  const fields = Object.keys(collection.sort);
  const columns = collection.defaultSort.map((k) => {
    const at = fields.indexOf(k.field);
    return keys.map((row) => sqliteOrdered(row[at]!));
  });
  const sign = collection.defaultSort.map((k) => (k.direction === 'asc' ? 1 : -1));
  const tie = sign[sign.length - 1] ?? 1;
  const order = keys.map((_, i) => i);
  order.sort((a, b) => {
    for (let k = 0; k < columns.length; k++) {
      const x = columns[k]![a]!;
      const y = columns[k]![b]!;
      if (x !== y) return x < y ? -sign[k]! : sign[k]!;
    }
    return tie * (a - b);
  });
  const positions = new Array<number>(keys.length);
  order.forEach((index, rank) => (positions[index] = (rank + 1) * RID_GAP));
  return positions;
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
 * rows are computed here as soon as its records are built, and handed to a writer thread
 * (image-thread.ts) that inserts them and builds the indexes while this thread reads the
 * next collection; search rows are staged and sources written beside them, so the compiler
 * never holds every collection at once. Rows go into a file beside `path`; `readable`
 * commits the collections so the compile can render pages from them while the thread
 * writes the search table, and the file becomes the image only when `finish` has it whole;
 * `abandon` removes it (a content problem leaves no image behind). Each call returns once
 * the thread is at most `AHEAD` messages behind.
 */
export class ImageWriter {
  private readonly path: string;
  private readonly partial: string;
  private readonly worker: Worker;
  private readonly errors: MessagePort;
  private readonly state: Int32Array;
  private readonly siteUrl: string;
  private posted = 0;
  private searchCount = 0;
  private searchAsOf = '';
  /** Every collection's as-of time, for the site's. */
  private readonly asOfs: string[] = [];
  private readonly now: number;

  /** `media`: the image files published beside the site, recorded for pages to draw them (src/site/media.ts). */
  /** `now`: the build's present (ms), the latest as-of time the image may state. */
  /** `profile`: the owner's profile (src/collections/profile.ts), which pages, feeds and documents read from the image. */
  constructor(path: string, cursorKey: Buffer, siteUrl: string, media: MediaIndex = {}, now: number = buildNow(), profile?: SiteProfile) {
    this.path = path;
    this.now = now;
    this.partial = `${path}.partial`;
    this.siteUrl = siteUrl.replace(/\/+$/, '');
    rmSync(this.partial, { force: true });
    mkdirSync(dirname(path), { recursive: true });
    const shared = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
    this.state = new Int32Array(shared);
    const { port1, port2 } = new MessageChannel();
    this.errors = port1;
    const data: WriterData = {
      partial: this.partial,
      meta: [
        ['format', IMAGE_FORMAT],
        ['cursorKey', cursorKey.toString('hex')],
        ['siteUrl', this.siteUrl],
        ...(profile ? [['profile', JSON.stringify(profile)] as [string, string]] : []),
        ...Object.entries(media).map(([file, entry]): [string, string] => [`${MEDIA_KEY}${file}`, JSON.stringify(entry)]),
      ],
      search: { table: SEARCH_TABLE, index: SEARCH_INDEX },
      sourcesTable: SOURCES_TABLE,
      state: shared,
      errors: port2,
    };
    this.worker = idleThreads.pop() ?? startThread();
    this.worker.postMessage({ op: 'open', data } satisfies OpenMessage, [port2]);
  }

  /** Posts a message, then waits until the thread is at most AHEAD messages behind. */
  private post(message: WriterMessage): void {
    this.postOnly(message);
    this.waitFor(this.posted - AHEAD);
  }

  private postOnly(message: WriterMessage): void {
    this.worker.postMessage(message);
    this.posted++;
  }

  /** Waits until the thread has handled `count` messages; throws what it failed with. */
  private waitFor(count: number): void {
    for (let done = Atomics.load(this.state, 0); done < count; done = Atomics.load(this.state, 0)) {
      if (Atomics.load(this.state, 2) === 0 && Atomics.wait(this.state, 0, done, THREAD_START_MS) === 'timed-out' && Atomics.load(this.state, 2) === 0) {
        throw new Error(`the image writer thread did not start within ${THREAD_START_MS} ms`);
      }
      Atomics.wait(this.state, 0, done);
    }
    if (Atomics.load(this.state, 1) === 1) {
      const message = receiveMessageOnPort(this.errors)?.message;
      void this.worker.terminate();
      throw new Error(`writing the image failed: ${String(message)}`);
    }
  }

  /**
   * The as-of time of the records last searched: a content collection's records are
   * searched, then handed over as the collection, and need it twice. Held until that
   * second use only, so no collection's records outlive their turn.
   */
  private lastAsOf: { records: readonly PublishedRecord[]; collection: CollectionDeclaration; value: string } | undefined;

  private asOf(collection: CollectionDeclaration, records: readonly PublishedRecord[], keep: boolean): string {
    const last = this.lastAsOf;
    this.lastAsOf = undefined;
    const value = last?.records === records && last.collection === collection ? last.value : asOf(collection, records, this.now);
    if (keep) this.lastAsOf = { records, collection, value };
    return value;
  }

  /** A collection's table, its indexes and its meta rows, from all of its records. */
  collection(entry: CollectionRecords): void {
    const name = entry.collection.name;
    const collectionAsOf = this.asOf(entry.collection, entry.records, false);
    this.asOfs.push(collectionAsOf);
    const meta: MetaRows = [
      [`count:${name}`, String(entry.records.length)],
      [`asOf:${name}`, collectionAsOf],
      [`provenance:${name}`, missingProvenance(entry).length ? 'incomplete' : 'complete'],
    ];
    const sortFields = Object.keys(entry.collection.sort);
    this.post({ op: 'table', name, sortFields });
    for (const tables of collectionTables(entry, CHUNK_ROWS)) this.post({ op: 'rows', tables });
    this.post({ op: 'indexes', name, sortFields, meta });
  }

  /** Records the cross-collection search indexes (a content collection's, as loaded). */
  searched(source: SearchSource): void {
    for (let start = 0; start < source.records.length; start += CHUNK_ROWS) {
      const rows: FlatRows = [];
      for (const record of source.records.slice(start, start + CHUNK_ROWS)) rows.push(...searchRow(source.collection, record, this.siteUrl).values);
      this.post({ op: 'search', rows });
    }
    this.searchCount += source.records.length;
    const newest = this.asOf(source.collection, source.records, true);
    if (newest > this.searchAsOf) this.searchAsOf = newest;
  }

  /** Where published content records came from. */
  sources(rows: readonly SourceRow[]): void {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      this.post({ op: 'sources', rows: rows.slice(start, start + CHUNK_ROWS).flatMap((row) => [row.file, row.entry, row.collection, row.cid]) });
    }
  }

  /**
   * Commits the collections and the sources, and returns the path of the file they are in,
   * which the compile may read (to render the pages) while the thread writes the search
   * table: at 100k records the one takes about 1.5 s and the other 1.1 s, which used to
   * follow each other. The reader must close before `finish`.
   */
  readable(): string {
    // As-of times with the collections, so the pages rendered from them read them too.
    this.post({
      op: 'commit',
      meta: [
        ['asOf:search', this.searchAsOf],
        [SITE_AS_OF, siteAsOf(this.asOfs, this.now)],
      ],
    });
    this.waitFor(this.posted);
    const meta: MetaRows = [['count:search', String(this.searchCount)]];
    this.postOnly({ op: 'finish', meta });
    return this.partial;
  }

  /** Waits for the search table, makes the file whole by itself again, and moves it to `path`. */
  finish(): void {
    this.postOnly({ op: 'close' });
    this.waitFor(this.posted);
    this.release();
    renameSync(this.partial, this.path);
  }

  /** Drops what was written. */
  abandon(): void {
    if (Atomics.load(this.state, 1) === 0) {
      this.postOnly({ op: 'abandon' });
      try {
        this.waitFor(this.posted);
      } catch {
        // It failed too: nothing more to drop than the file.
      }
    }
    this.release();
    for (const file of [this.partial, `${this.partial}-wal`, `${this.partial}-shm`]) rmSync(file, { force: true });
  }

  /** Keeps the thread for the next image when it ended this one cleanly and none is kept yet; else ends it. */
  private release(): void {
    this.errors.close();
    if (Atomics.load(this.state, 1) === 0 && idleThreads.length === 0) idleThreads.push(this.worker);
    else void this.worker.terminate();
  }
}

/**
 * A writer thread that ended its image cleanly, kept for the next: starting one (a Node
 * thread, then its modules) took about 70 ms of CPU, once per compile, which a process that
 * compiles many times (the tests, hundreds of compiles) paid each time. Unreferenced, so it
 * never keeps a process alive; idle, it holds about 10 MB of RSS. `astro build` compiles on
 * a thread of its own (compile-thread.ts), and its kept writer ends with it.
 */
const idleThreads: Worker[] = [];

function startThread(): Worker {
  // The thread lives on while the pages render (readable), so its heap adds to the build's
  // peak: with V8's default young generation it held 88 MB (32 MB used), with 4 MB 19 MB,
  // and the 100k build's peak RSS went from 1,025 MB to 975 MB at the same speed.
  const worker = new Worker(new URL('./image-thread.ts', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  worker.unref();
  // One that ended anyway (terminated, or out of memory) is not handed another image.
  worker.once('exit', () => idleThreads.includes(worker) && idleThreads.splice(idleThreads.indexOf(worker), 1));
  return worker;
}

/**
 * How many messages the writer thread may have waiting, and how many records' rows a
 * message carries: enough to keep it busy, few enough that rows in flight stay a few
 * megabytes whatever the size of a collection.
 */
const AHEAD = 4;
const CHUNK_ROWS = 2000;
/** How long the writer thread may take to start before the compile gives up on it. */
const THREAD_START_MS = 60_000;
