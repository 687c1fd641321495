/**
 * Search across every content collection at once: `GET /api/search.json?q=…`. The
 * compiler writes one search table (a row per record, numbered in rank order: its
 * collection, year, date key, the folded first searched field `head` and other searched
 * fields `rest`) with a trigram index over both; this module parses search queries and
 * pages through it, reading matches in rid order so a page never sorts the match set.
 * Ranking is deterministic and explainable: hits in a collection's first searched field
 * (its title or name) come first (tier 0), then hits elsewhere (tier 1); within a tier,
 * newer before older, then canonicalId. The keyset cursor carries (tier, date key,
 * canonicalId) and is signed and bound like every other cursor.
 */
import { collection } from '../collections/index.ts';
import { binding, decodeCursor, encodeCursor, type Position } from './cursor.ts';
import { PublicError } from './errors.ts';
import { fold } from './fold.ts';
import { ftsPhrase, indexable } from './fts.ts';
import type { Image } from './image.ts';
import { LIMITS } from './limits.ts';
import { BoundedCache, BoundedMemo } from './memo.ts';
import { refuseControlCharacters, withCursor } from './params.ts';
import type { JoinedPage, Page, PageSummary } from './query.ts';

export const SEARCH_TABLE = '"search"';
export const SEARCH_INDEX = '"search:fts"';
/** Separates the searched fields in the stored `rest` text (folded values never hold it). */
export const FIELD_SEPARATOR = '\u001f';

export interface SearchQuery {
  /** The search text as given (trimmed), and folded. */
  q: { value: string; key: string };
  /** Collections to search (empty: all), sorted, each once. */
  collections: readonly string[];
  year: number | undefined;
  limit: number;
  cursor: string | undefined;
}

/** The parameters search takes; only `collection` repeats. */
export const SEARCH_PARAMETERS = ['q', 'collection', 'year', 'limit', 'cursor'] as const;
const PARAMETERS = SEARCH_PARAMETERS;
const INTEGER = /^[+-]?\d+$/;
const bad = (parameter: string, detail: string) => new PublicError('invalid-query', detail, parameter);

/** A validated search query, or a PublicError naming the first fault. `searchable` lists the collections searched. */
export function parseSearch(searchable: readonly string[], search: URLSearchParams): SearchQuery {
  refuseControlCharacters(search);
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new PublicError(
        'unknown-parameter',
        `search does not take the parameter ${JSON.stringify(name.slice(0, 40))}; it takes ${PARAMETERS.join(', ')}.`,
        name,
      );
    }
    if (seen.has(name) && name !== 'collection') throw bad(name, `${name} is given more than once; give each parameter once (only collection repeats).`);
    seen.add(name);
  }
  const q = (search.get('q') ?? '').trim();
  if (q === '') throw bad('q', 'q is required: the text to search for, at least one character.');
  if ([...q].length > LIMITS.searchCharsMax) throw bad('q', `q is longer than ${LIMITS.searchCharsMax} characters.`);
  const collections = new Set<string>();
  for (const raw of search.getAll('collection')) {
    const name = raw.trim();
    if (!searchable.includes(name)) throw bad('collection', `collection must be one of ${searchable.join(', ')} (repeat the parameter for several).`);
    collections.add(name);
  }
  let year: number | undefined;
  const rawYear = search.get('year');
  if (rawYear !== null) {
    const n = INTEGER.test(rawYear.trim()) ? Number(rawYear.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1000 || n > 9999) throw bad('year', 'year must be an integer from 1000 to 9999.');
    year = n;
  }
  let limit: number = LIMITS.pageSizeDefault;
  const rawLimit = search.get('limit');
  if (rawLimit !== null) {
    const n = rawLimit.trim() === '' ? Number.NaN : Number(rawLimit.trim());
    if (!Number.isFinite(n)) throw bad('limit', `limit must be a number; it is floored and clamped to 1..${LIMITS.pageSizeMax}.`);
    limit = Math.min(LIMITS.pageSizeMax, Math.max(1, Math.floor(n)));
  }
  const cursor = search.get('cursor');
  if (cursor !== null && (cursor === '' || cursor.length > LIMITS.cursorCharsMax)) {
    throw new PublicError(
      'invalid-cursor',
      'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.',
      'cursor',
    );
  }
  return { q: { value: q, key: fold(q) }, collections: [...collections].sort(), year, limit, cursor: cursor ?? undefined };
}

/** The last search's canonical parameters without its cursor, kept as `canonicalSearch` keeps a list's. */
let canonicalBase: { query: SearchQuery | undefined; text: string } = { query: undefined, text: '' };

/** The canonical query string of a search (defaults left out), optionally at another cursor. */
export function searchCanonical(query: SearchQuery, cursor?: string): string {
  if (canonicalBase.query !== query) {
    const params = new URLSearchParams({ q: query.q.value });
    for (const c of query.collections) params.append('collection', c);
    if (query.year !== undefined) params.set('year', String(query.year));
    if (query.limit !== LIMITS.pageSizeDefault) params.set('limit', String(query.limit));
    canonicalBase = { query, text: params.toString() };
  }
  return withCursor(canonicalBase.text, cursor);
}

/** What a search cursor must agree with: everything but the page size. */
export function searchBinding(query: SearchQuery): string {
  return binding(['search', ...query.collections.map((c) => `collection=${c}`), `year=${query.year ?? ''}`, `q=${query.q.key}`]);
}

/** A matched row as `tier` reads it, an array in its statement's column order (no object per row); the hit as its stored UTF-8 bytes. */
type Row = [rid: number, cid: string, d: string, collection: string, rest: string, json: Uint8Array];
const CID = 1;
const D = 2;

const invalid = () =>
  new PublicError(
    'invalid-cursor',
    'The cursor must be a valid opaque value returned by the API for this same query; start again from the first page.',
    'cursor',
  );

export class SearchCore {
  readonly image: Image;
  private readonly counts = new BoundedCache<number>({ bytes: LIMITS.countCacheBytes, entries: LIMITS.countCacheEntries, valueBytes: () => 0 });
  private readonly scanOnly: boolean;

  /** `scan` exists for tests, which force the plan short searches use to check that both agree. */
  constructor(image: Image, options: { scan?: boolean } = {}) {
    this.image = image;
    this.scanOnly = options.scan ?? false;
  }

  run(query: SearchQuery): Page {
    const { rows, hits, summary } = this.page(query);
    return { items: hits.map((parts) => Buffer.concat(parts).toString()), canonicalIds: rows.map((r) => r[CID]), ...summary };
  }

  /**
   * The same page as `run`, its hits as UTF-8 parts with commas between them, as the JSON
   * list splices them: every hit's bytes as stored, copied only into the body (a page of
   * 50: no string per hit, and no re-encoding of the body).
   */
  runJoined(query: SearchQuery): JoinedPage {
    const { hits, summary } = this.page(query);
    const parts: Uint8Array[] = [];
    for (const hit of hits) {
      if (parts.length > 0) parts.push(COMMA);
      for (const part of hit) parts.push(part);
    }
    return { parts, ...summary };
  }

  /** What `run` and `runJoined` share: the page's rows, each hit as parts of bytes, and what the page says besides. */
  private page(query: SearchQuery): { rows: Row[]; hits: Uint8Array[][]; summary: PageSummary } {
    const bound = searchBinding(query);
    const position = query.cursor === undefined ? undefined : decodeCursor(this.image.cursorKey, bound, 2, query.cursor);
    if (position && position.values[0] !== 0 && position.values[0] !== 1) throw invalid();
    const totalCount = this.count(query, bound);
    const want = query.limit + 1;
    const rows: Row[] = [];
    const tiers: number[] = [];
    const after = position ? this.ridAfter(position) : 0;
    for (const tier of [0, 1]) {
      if (position && Number(position.values[0]) > tier) continue;
      const from = position && Number(position.values[0]) === tier ? after : 0;
      for (const row of this.tier(query, tier, from, want - rows.length)) {
        rows.push(row);
        tiers.push(tier);
      }
      if (rows.length >= want) break;
    }
    const more = rows.length > query.limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    const next = more && last ? encodeCursor(this.image.cursorKey, bound, { values: [tiers[rows.length - 1]!, last[D]], canonicalId: last[CID] }) : undefined;
    return {
      rows,
      hits: rows.map((r, i) => hitJson(r, query.q.key, tiers[i]!)),
      summary: { totalCount, next, facets: undefined, asOf: this.image.asOf('search'), lastModified: this.image.lastModified('search') },
    };
  }

  /**
   * The rid after which a page resumes: rids number the rows in rank order (date desc,
   * canonicalId), so it is the cursor record's own rid, or — when a rebuild removed or
   * moved that record — the last rid ranked at or before the cursor's (date, canonicalId).
   */
  private ridAfter(position: Position): number {
    const d = String(position.values[1] ?? '');
    const own = this.image.statement(`SELECT rid, d FROM ${SEARCH_TABLE} WHERE cid = ?`).get(position.canonicalId) as { rid: number; d: string } | undefined;
    if (own && own.d === d) return Number(own.rid);
    const before = this.image.statement(`SELECT max(rid) AS rid FROM ${SEARCH_TABLE} WHERE d > ? OR (d = ? AND cid <= ?)`).get(d, d, position.canonicalId) as {
      rid: number | null;
    };
    return Number(before.rid ?? 0);
  }

  /** Up to `limit` rows of one tier after rid `from`, in rank order, read in rid order without sorting. */
  private tier(query: SearchQuery, tier: number, from: number, limit: number): Row[] {
    const key = query.q.key;
    const where: string[] = [];
    const params: (string | number)[] = [];
    let source = `${SEARCH_TABLE} AS s`;
    let rid = 's.rid';
    if (!this.scanOnly && indexable(key)) {
      source = `${SEARCH_INDEX} JOIN ${SEARCH_TABLE} AS s ON s.rid = ${SEARCH_INDEX}.rowid`;
      rid = `${SEARCH_INDEX}.rowid`;
      where.push(`${SEARCH_INDEX} MATCH ?`);
      params.push(`${tier === 0 ? 'head' : 'rest'} : ${ftsPhrase(key)}`);
      if (tier === 1) {
        where.push('instr(s.head, ?) = 0');
        params.push(key);
      }
    } else if (tier === 0) {
      where.push('instr(s.head, ?) > 0');
      params.push(key);
    } else {
      where.push('instr(s.rest, ?) > 0', 'instr(s.head, ?) = 0');
      params.push(key, key);
    }
    where.push(`${rid} > ?`);
    params.push(from);
    this.filters(query, where, params);
    // Only a hit outside the head reads `rest` (to name the field that matched): a tier 0 row leaves it out, no string made of it.
    const rest = tier === 1 ? 's.rest' : "''";
    const sql = `SELECT s.rid AS rid, s.cid AS cid, s.d AS d, s.collection AS collection, ${rest} AS rest, CAST(s.json AS BLOB) AS json FROM ${source} WHERE ${where.join(' AND ')} ORDER BY ${rid} LIMIT ?`;
    return this.image.statement(sql, true).all(...params, limit) as unknown as Row[];
  }

  private filters(query: SearchQuery, where: string[], params: (string | number)[]): void {
    if (query.collections.length) {
      where.push(`s.collection IN (${query.collections.map(() => '?').join(', ')})`);
      params.push(...query.collections);
    }
    if (query.year !== undefined) {
      where.push('s.year = ?');
      params.push(query.year);
    }
  }

  /** Matches in any searched field, remembered per binding (the image never changes under a process). */
  private count(query: SearchQuery, bound: string): number {
    let n = this.counts.get(bound);
    if (n === undefined) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      let source = `${SEARCH_TABLE} AS s`;
      if (indexable(query.q.key)) {
        source = `${SEARCH_INDEX} JOIN ${SEARCH_TABLE} AS s ON s.rid = ${SEARCH_INDEX}.rowid`;
        where.push(`${SEARCH_INDEX} MATCH ?`);
        params.push(ftsPhrase(query.q.key));
      } else {
        where.push('(instr(s.head, ?) > 0 OR instr(s.rest, ?) > 0)');
        params.push(query.q.key, query.q.key);
      }
      this.filters(query, where, params);
      // Without filters the index alone counts, never touching the rows.
      const sql =
        where.length === 1 && source !== `${SEARCH_TABLE} AS s`
          ? `SELECT count(*) AS n FROM ${SEARCH_INDEX} WHERE ${SEARCH_INDEX} MATCH ?`
          : `SELECT count(*) AS n FROM ${source} WHERE ${where.join(' AND ')}`;
      n = Number((this.image.statement(sql).get(...params) as { n: number }).n);
      this.counts.set(bound, n);
    }
    return n;
  }
}

/** The hit as published: the stored parts, and the searched field that matched (the first, else the first other one holding the text). */
function hitJson([, , , name, rest, json]: Row, key: string, tier: number): Uint8Array[] {
  const fields = collection(name)?.search ?? [];
  const at = tier === 0 ? -1 : rest.split(FIELD_SEPARATOR).findIndex((text) => text.includes(key));
  return withField(json, fields[at + 1] ?? fields[0] ?? '');
}

const COMMA = Buffer.from(',');
const CANONICAL_ID_MEMBER = Buffer.from('{"canonicalId":"itm_');
const COLLECTION_MEMBER = Buffer.from('","collection":"');
const TITLE_MEMBER = Buffer.from('","title":"');
const FIELD_MEMBER = Buffer.from('"field":');

/**
 * `,"field":"<name>"` as bytes, made once per field name: the names are the declarations'
 * searched fields, a few dozen, and a page made one Buffer per hit (50 a page). Bounded all
 * the same, as every map the runtime keeps is.
 */
/** More names than every declaration searches together. */
const FIELD_MEMBERS_MAX = 256;
const fieldMembers = new BoundedMemo<Buffer>(FIELD_MEMBERS_MAX, (field) => Buffer.from(`,"field":${JSON.stringify(field)}`));

const isHex = (byte: number) => (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102);
const isNameByte = (byte: number) => (byte >= 97 && byte <= 122) || byte === 45;

/**
 * The byte just past the stored hit's title string, where its next member or its end
 * follows, when the hit begins as the image writer writes it
 * (src/compile/artifacts/search-index.ts): `{"canonicalId":"itm_<24 hex>","collection":"<name>","title":"…"`;
 * -1 otherwise. In UTF-8 a quote and a backslash are never part of another character.
 */
function titleEnd(json: Buffer): number {
  if (!json.subarray(0, CANONICAL_ID_MEMBER.length).equals(CANONICAL_ID_MEMBER)) return -1;
  let i = CANONICAL_ID_MEMBER.length;
  for (const end = i + 24; i < end; i++) if (!isHex(json[i] ?? 0)) return -1;
  if (!json.subarray(i, i + COLLECTION_MEMBER.length).equals(COLLECTION_MEMBER)) return -1;
  i += COLLECTION_MEMBER.length;
  const name = i;
  while (isNameByte(json[i] ?? 0)) i++;
  if (i === name || json[name] === 45 || !json.subarray(i, i + TITLE_MEMBER.length).equals(TITLE_MEMBER)) return -1;
  // Inside a JSON string a quote is escaped, and a backslash escapes the one character after it.
  for (i += TITLE_MEMBER.length; i < json.length; i++) {
    if (json[i] === 92) i++;
    else if (json[i] === 34) return json[i + 1] === 44 || json[i + 1] === 125 ? i + 1 : -1;
  }
  return -1;
}

/**
 * `{canonicalId, collection, title, field, ...rest}` of the stored hit, as parts of bytes:
 * the field spliced in after the title, the stored bytes kept as they are, which is what
 * parsing the hit and serializing it again gives (the writer serialized it with
 * JSON.stringify), without either (a page of 50 hits: a parse and a stringify each, most
 * of the search's own work). A hit not shaped as the writer writes it, or already naming
 * a field, is parsed and serialized; a property test holds both equal
 * (tests/core/search-hit.test.ts).
 */
export function withField(stored: Uint8Array, field: string): Uint8Array[] {
  const json = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const end = json.includes(FIELD_MEMBER) ? -1 : titleEnd(json);
  if (end !== -1) return [json.subarray(0, end), fieldMembers.get(field), json.subarray(end)];
  const { canonicalId, collection: name, title, ...rest } = JSON.parse(json.toString()) as Record<string, unknown>;
  return [Buffer.from(JSON.stringify({ canonicalId, collection: name, title, field, ...rest }))];
}
