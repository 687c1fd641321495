/**
 * What one importer is: the collection it fills, how a record is matched to the one
 * already in the owner's files (the source's own ID), which content file a record goes
 * into and where in it, and the reading of the export into candidate records. A source
 * maps fields and drops what it must; the frame (src/import/run.ts) does everything else —
 * validation, matching, diffing, writing — the same way for every source.
 */
import type { ExportInput } from './archive.ts';
import type { ImportProblem } from './problems.ts';

/** A record read from the export, its fields as the collection's schema takes them. */
export interface Candidate {
  /** Where it came from in the export, for messages: `diary.csv row 4`. */
  origin: string;
  fields: Record<string, unknown>;
  /** Files the record needs beside it (a photo's image), by path relative to the content folder; written with it. */
  attachments?: { path: string; bytes: Buffer }[];
}

export interface ReadContext {
  input: ExportInput;
  /**
   * Records dated before this (`YYYY-MM-DD`) are not wanted: given before the source
   * reads, so it can skip them as it reads rather than read all and leave most. The frame
   * still leaves out what a source returns older than it. (A sync's cursor, which asks a
   * service only for what is newer, is given to its reader the same way, before it reads:
   * `SyncReadContext.cursor`, from src/import/cursor.ts.)
   */
  since?: string;
  /** Track points this close (metres) to a track's start or end never become coordinates. */
  privacyRadiusMeters: number;
  /** A row that cannot become a record: listed with the others, and nothing is written. */
  problem(problem: ImportProblem): void;
  /** Something the owner should know and act on (a photo needing alt text). */
  notice(message: string): void;
  /** Something left out on purpose (a private post), counted in the report. */
  dropped(what: string): void;
  /** For a source that `reusesRecords`: the record it last wrote for a source ID, when that record is unchanged since. */
  previous?(sourceId: string): PreviousRecord | undefined;
}

/**
 * A record as this importer last wrote it, still in the owner's files exactly so: the
 * ledger names its file and revision (the owner has not edited it since) and the privacy
 * radius it was imported with is this import's. A source may build a candidate from it
 * instead of reading what is costly to read (a Strava track), and keep that candidate
 * only when it is `sameAs` this record.
 */
export interface PreviousRecord {
  fields: Record<string, unknown>;
  /** Whether a record with `fields` is written byte for byte as this one is (the import counts it the same). */
  sameAs(fields: Record<string, unknown>): boolean;
}

export interface ImportSource {
  name: string;
  collection: string;
  /** The source's own ID of a record (as written in a content file), if it has one. */
  sourceIdOf(fields: Record<string, unknown>): string | undefined;
  /** The content file, relative to the collection's folder, that a new record goes into. */
  fileOf(fields: Record<string, unknown>): string;
  /** The record's place in its file (ascending). */
  sortKeyOf(fields: Record<string, unknown>): string;
  /** The record's date, for `--since`. */
  dateOf(fields: Record<string, unknown>): string | undefined;
  /** Whether `read` asks for `previous` records (the frame then keeps their fields while it runs). */
  reusesRecords?: boolean;
  read(context: ReadContext): AsyncIterable<Candidate>;
}

/** The year of an ISO date, for file names (`letterboxd-2024.yaml`). */
export const yearPart = (value: unknown) => (typeof value === 'string' && /^\d{4}/.test(value) ? value.slice(0, 4) : 'undated');

/**
 * One service's mapping of one raw item (an export's row, a feed's item, an API's
 * object) onto the collection's fields: the record, or an item left out on purpose
 * (counted by what it is: `skip: 'boosts'`), or an item that cannot become a record (a
 * problem naming the raw field). Each service has one, shared by the reader of its
 * archive (src/import/sources/*) and the reader of its feed or API (src/sync/sources/*).
 */
export type Mapped = { fields: Record<string, unknown> } | { skip: string } | { problem: { field: string; reason: string } };
