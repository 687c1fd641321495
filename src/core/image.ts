/**
 * The image: one SQLite file holding every public record, written by the compiler and
 * opened read-only by the runtime. This module owns its layout (table and column names,
 * kept in image-layout.ts and re-exported here) so the writer and the readers cannot
 * drift, and keeps one prepared statement per SQL text, since the runtime asks the same
 * few shapes of question over and over — within a byte budget, since filters, sort keys
 * and plans combine into many thousands of shapes.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SortType } from '../collections/define.ts';
import { DEFAULT_SITE_AUTHOR, siteProfile, type SiteProfile } from '../collections/profile.ts';
import { fold } from './fold.ts';
import { LIMITS } from './limits.ts';
import { BoundedCache } from './memo.ts';

/** The meta key prefix of a published image file. */
export const MEDIA_KEY = 'media:';

/** A published image file as the build found it (src/compile/content/media.ts): a hash of its bytes (in its variants' names) and its size in pixels. */
export interface MediaFile {
  hash: string;
  width: number;
  height: number;
}

export const IMAGE_FORMAT = '2';

/** The meta key of the site's as-of time: what a collection with no dated record is as of. */
export const SITE_AS_OF = 'asOf:site';

/** A canonical ID: `itm_` and 24 lowercase hexadecimal characters (SPEC §2.2), on every surface. */
export const CANONICAL_ID = /^itm_[0-9a-f]{24}$/;

export { recordsTable, tagsTable, searchTable, sortColumn, SOURCES_TABLE, RID_GAP, SEARCH_RID_BASE } from './image-layout.ts';

/**
 * The stored sort key of a field value. Text orders folded (case- and accent-blind);
 * date-times with an offset order by their UTC instant; a missing value is the smallest
 * of its type (-Infinity or ''), so it sorts first ascending and last descending, and
 * keyset comparisons never meet NULL.
 */
export function sortKey(type: SortType, value: unknown): string | number {
  if (value === undefined || value === null) return missingSortKey(type);
  if (type === 'number') return typeof value === 'number' ? value : missingSortKey(type);
  const text = String(value);
  if (type === 'text') return fold(text);
  return instantKey(text);
}

const ABOVE_SURROGATES = /[\uD800-\uFFFF]/;

/**
 * A stored sort key as a value JavaScript's `<` orders as SQLite orders the column:
 * numbers by value, text by its UTF-8 bytes (BINARY), which is code point order. `<`
 * compares UTF-16 code units instead, which differs only between a surrogate and a code
 * unit of U+E000–U+FFFF, so text holding either has those two ranges swapped.
 */
export function sqliteOrdered(key: string | number): string | number {
  if (typeof key === 'number' || !ABOVE_SURROGATES.test(key)) return key;
  return key.replace(/[\uD800-\uFFFF]/g, (c) => {
    const code = c.charCodeAt(0);
    return String.fromCharCode(code >= 0xe000 ? code - 0x800 : code + 0x2000);
  });
}

export const missingSortKey = (type: SortType | undefined): string | number => (type === 'number' ? -Infinity : '');

const isDigit = (code: number) => code >= 48 && code <= 57;

/** Whether a date-time ends in `Z` or `±HH:MM` (read by character: a trailing regular expression scans the whole text). */
function hasOffset(text: string): boolean {
  const n = text.length;
  if (text.charCodeAt(n - 1) === 90 /* Z */) return true;
  const sign = text.charCodeAt(n - 6);
  return (
    (sign === 43 || sign === 45) &&
    isDigit(text.charCodeAt(n - 5)) &&
    isDigit(text.charCodeAt(n - 4)) &&
    text.charCodeAt(n - 3) === 58 &&
    isDigit(text.charCodeAt(n - 2)) &&
    isDigit(text.charCodeAt(n - 1))
  );
}

/** Two ASCII digits at `i` as a number; NaN when either is not a digit (NaN fails every range check). */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : Number.NaN;
}

/**
 * The instant of a date-time of the plain shape `YYYY-MM-DDTHH:MM[:SS[.f…]](Z|±HH:MM)`,
 * in milliseconds, or undefined for any other text, which `Date.parse` reads instead.
 * Reading it by character is a tenth of the cost of `Date.parse`, which the build called
 * for every dated record several times (a third of a second at 100k records). A property
 * test holds it equal to `Date.parse` (tests/unit/instant-key.test.ts).
 */
function plainInstant(text: string): number | undefined {
  const n = text.length;
  if (n < 17 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58) return undefined;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const [month, day, hour, minute] = [twoDigits(text, 5), twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14)];
  let i = 16;
  let second = 0;
  let ms = 0;
  if (text.charCodeAt(i) === 58) {
    second = twoDigits(text, i + 1);
    i += 3;
    if (text.charCodeAt(i) === 46) {
      // Milliseconds: the first three digits of the fraction, the rest dropped, as Date.parse does.
      let digits = 0;
      for (i++; isDigit(text.charCodeAt(i)); i++, digits++) if (digits < 3) ms = ms * 10 + text.charCodeAt(i) - 48;
      if (digits === 0) return undefined;
      ms *= 10 ** Math.max(0, 3 - digits);
    }
  }
  let offset = 0;
  const sign = text.charCodeAt(i);
  if (i === n - 6 && (sign === 43 || sign === 45) && text.charCodeAt(i + 3) === 58) {
    const [hours, minutes] = [twoDigits(text, i + 1), twoDigits(text, i + 4)];
    if (!(hours <= 23 && minutes <= 59)) return undefined;
    offset = (sign === 43 ? 1 : -1) * (hours * 60 + minutes) * 60_000;
  } else if (!(i === n - 1 && sign === 90)) return undefined;
  // Date.UTC reads years 0–99 as 1900–1999; day 31 of a shorter month runs on, as Date.parse's does.
  if (!(year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset;
}

/** `YYYY-MM-DD` stays; a date-time becomes `YYYY-MM-DDTHH:MM:SS(.fff)`, in UTC when it has an offset. */
export function instantKey(text: string): string {
  if (text.length <= 10) return text;
  if (hasOffset(text)) {
    // toISOString always ends in `.sssZ`.
    const iso = new Date(plainInstant(text) ?? Date.parse(text)).toISOString();
    return iso.endsWith('.000Z') ? iso.slice(0, -5) : iso.slice(0, -1);
  }
  return text.length === 16 ? `${text}:00` : text;
}

/**
 * Native bytes a prepared statement holds per character of its SQL (SQLite's compiled
 * program grows with the text). Measured on Node 24: 3,000 statements each of 85, 315 and
 * 754 characters took 27, 26 and 31 bytes of RSS per character (`--expose-gc`).
 */
const STATEMENT_BYTES_PER_CHAR = 32;

export class Image {
  readonly db: DatabaseSync;
  /** An evicted statement is finalized when the collector frees it; one in use stays alive through its caller. */
  private readonly statements: BoundedCache<StatementSync>;
  private readonly metaValues = new Map<string, string>();
  private key: KeyObject | undefined;

  /**
   * Opens the image at `path` read-only, or reads through `options.db`, an open connection
   * (a rebuild reads its own transaction's rows before it commits). An image in WAL mode is
   * one a rebuild under the running server writes to (src/compile/incremental/rebuild.ts): it is
   * read in one read transaction for as long as it is open, so it answers from one
   * snapshot whatever is committed meanwhile. Every image opened by path is read that
   * way: without an open transaction each statement takes and drops SQLite's file lock and
   * rereads the header, about 6 µs of system calls per statement. Its pages are read
   * through a memory map (`imageMapBytes`). `statementCacheBytes` exists for tests, which
   * shrink the budget to watch statements come and go.
   */
  constructor(path: string, options: { db?: DatabaseSync; statementCacheBytes?: number } = {}) {
    const { db } = options;
    this.db = db ?? new DatabaseSync(path, { readOnly: true });
    if (db === undefined) this.db.exec(`PRAGMA mmap_size = ${LIMITS.imageMapBytes}; BEGIN`);
    const bytes = options.statementCacheBytes ?? LIMITS.statementCacheBytes;
    this.statements = new BoundedCache({ bytes, valueBytes: (statement) => STATEMENT_BYTES_PER_CHAR * statement.sourceSQL.length });
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    for (const row of rows) this.metaValues.set(row.key, row.value);
    if (this.metaValues.get('format') !== IMAGE_FORMAT) throw new Error(`${path}: not an image of format ${IMAGE_FORMAT}; rebuild`);
  }

  /**
   * The prepared statement of `sql`. With `arrays`, a statement of its own that returns
   * each row as an array of its columns in their order, with no object and no property
   * names per row (a page of 51 rows: measured 105 → 76 µs).
   */
  statement(sql: string, arrays = false): StatementSync {
    // SQL text never starts with NUL, so the two kinds never share a key.
    const key = arrays ? `\u0000${sql}` : sql;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (arrays) statement.setReturnArrays(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** Bytes accounted to the prepared statements held now. */
  get statementBytes(): number {
    return this.statements.bytes;
  }

  meta(key: string): string | undefined {
    return this.metaValues.get(key);
  }

  /** The HMAC key for cursors, fixed at compile time. */
  get cursorKey(): KeyObject {
    this.key ??= createSecretKey(Buffer.from(this.meta('cursorKey') ?? '', 'hex'));
    return this.key;
  }

  /** Number of public records in a collection. */
  count(collection: string): number {
    return Number(this.meta(`count:${collection}`) ?? 0);
  }

  /** The site's absolute URL, fixed at compile time, for links in formats that need absolute ones. */
  get siteUrl(): string {
    return this.meta('siteUrl') ?? 'http://localhost:4321';
  }

  /** The owner's profile as the build found it (`content/site.yaml`, else `SITE_AUTHOR`); an image without one names the demo owner. */
  get profile(): SiteProfile {
    const text = this.meta('profile');
    return text === undefined ? siteProfile(undefined, DEFAULT_SITE_AUTHOR) : (JSON.parse(text) as SiteProfile);
  }

  /** Whether every located record of a collection says where its coordinates came from. */
  provenanceComplete(collection: string): boolean {
    return this.meta(`provenance:${collection}`) !== 'incomplete';
  }

  /**
   * When a collection's data last changed, as far as its records say: its newest record
   * date (never later than the build), as an RFC 3339 UTC date-time; undefined when no
   * record is dated (an empty collection), so no Last-Modified is sent (SPEC §4.1).
   */
  lastModified(collection: string): string | undefined {
    return this.meta(`asOf:${collection}`) || undefined;
  }

  /** The data's as-of time for a collection (`meta.timestamp`): its last modification, else the site's as-of time (src/compile/artifacts/image.ts `siteAsOf`). */
  asOf(collection: string): string {
    return this.lastModified(collection) ?? this.meta(SITE_AS_OF) ?? '1970-01-01T00:00:00Z';
  }

  /** A published image file by its public path (`/photos/2024/x.jpg`): its hash and size, as the build found it. */
  media(path: string): MediaFile | undefined {
    const text = this.meta(`${MEDIA_KEY}${path}`);
    return text === undefined ? undefined : (JSON.parse(text) as MediaFile);
  }

  close(): void {
    this.db.close();
  }
}
