/**
 * What one import holds while it runs, kept on disk rather than in memory, so that its
 * memory does not grow with the export (issue 30, item 7): a private temporary SQLite
 * database (node:sqlite, opened on the empty name: SQLite deletes it when it is closed,
 * and keeps no more than its page cache in memory). It holds
 *
 * - `candidate`: the records read from the export, one per source ID (a later row of the
 *   same record replaces an earlier one's fields but keeps its place), then those without one;
 * - `existing`: every record already in the owner's files — its source ID, identity, file,
 *   place in the file, and the hashes of its text (not the text itself);
 * - `ledger`: the importer's ledger (src/import/ledger.ts), one row per source ID;
 * - `seen`: the canonicalIds checked so far (src/compile/content/records.ts `SeenIds`);
 * - the plan: new items per file, replaced items, report lines, attachments.
 *
 * Rows come back in the order they went in (`seq`). Where an order of text shapes a file,
 * SQLite sorts by the text in UTF-16 (`jsOrder`), which is how JavaScript compares
 * strings; its own text order is UTF-8's, which differs past U+FFFF.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SeenIds } from '../compile/content/records.ts';
import type { Candidate } from './source.ts';

/** A record in the owner's files. */
export interface ExistingRecord {
  /** The file, relative to the collection's folder. */
  file: string;
  /** Its index in a YAML list file; null for a one-record file. */
  entry: number | null;
  /** The hashes of its item's text, when the list's item could be cut out (src/import/yaml-file.ts). */
  hashes?: ItemHashes;
  /** Its fields, when the import keeps them (for a source that builds on its previous records). */
  fields?: Record<string, unknown>;
}

/** An item's text as two hashes (src/import/yaml-file.ts `itemHashes`): of the whole item, and of its own lines, which is its revision. */
export interface ItemHashes {
  whole: string;
  revision: string;
}

const SCHEMA = `
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -16384;
CREATE TABLE candidate (seq INTEGER PRIMARY KEY, source_id TEXT UNIQUE, data TEXT NOT NULL);
CREATE TABLE existing (seq INTEGER PRIMARY KEY, source_id TEXT, identity TEXT, file TEXT NOT NULL, entry INTEGER, whole TEXT, revision TEXT, fields TEXT);
CREATE INDEX existing_source_id ON existing (source_id, seq);
CREATE INDEX existing_identity ON existing (identity, seq);
CREATE TABLE ledger (source_id TEXT PRIMARY KEY, array_index INTEGER, sort_key BLOB NOT NULL, value TEXT NOT NULL);
CREATE TABLE seen (canonical_id TEXT PRIMARY KEY, origin TEXT NOT NULL, id TEXT);
CREATE TABLE insert_item (seq INTEGER PRIMARY KEY, file TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX insert_item_file ON insert_item (file, seq);
CREATE TABLE replace_item (seq INTEGER PRIMARY KEY, file TEXT NOT NULL, entry INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX replace_item_at ON replace_item (file, entry, seq);
CREATE TABLE line (seq INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE attachment (path TEXT PRIMARY KEY, sort_key BLOB NOT NULL, bytes BLOB NOT NULL);
`;

/**
 * Candidates and fields are kept as JSON, with what JSON cannot say tagged: bytes (a
 * photo), dates, numbers that are not finite or are -0, and undefined in a list. (Not
 * node:v8's serializer: each of its buffers is memory outside the JavaScript heap that
 * the collector does not hurry to free, and a hundred thousand of them kept several
 * hundred megabytes resident.)
 */
const TAG = '\u0000import';
/** Whether `value` holds anything JSON cannot say (then it is tagged). */
function needsTags(value: unknown, inList = false): boolean {
  if (value === undefined) return inList;
  if (typeof value === 'number') return !Number.isFinite(value) || Object.is(value, -0);
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Uint8Array || value instanceof Date) return true;
  if (Array.isArray(value)) return value.some((v) => needsTags(v, true));
  return Object.values(value).some((v) => needsTags(v));
}

function tagged(this: Record<string, unknown>, key: string, json: unknown): unknown {
  const original = this[key];
  if (original instanceof Uint8Array)
    return { [TAG]: 'bytes', value: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') };
  if (original instanceof Date) return { [TAG]: 'date', value: String(original.getTime()) };
  if (typeof original === 'number' && (!Number.isFinite(original) || Object.is(original, -0)))
    return { [TAG]: 'number', value: Object.is(original, -0) ? '-0' : String(original) };
  if (original === undefined && Array.isArray(this)) return { [TAG]: 'undefined' };
  return json;
}

function untagged(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !(TAG in value)) return value;
  const { [TAG]: kind, value: text } = value as Record<string, string>;
  if (kind === 'bytes') return Buffer.from(text!, 'base64');
  if (kind === 'date') return new Date(Number(text));
  if (kind === 'number') return Number(text);
  return undefined;
}

const encode = (value: unknown) => (needsTags(value) ? `T${JSON.stringify(value, tagged)}` : `J${JSON.stringify(value)}`);
const decode = (text: string): unknown => (text.startsWith('T') ? JSON.parse(text.slice(1), untagged) : JSON.parse(text.slice(1)));

/** A JavaScript object orders the keys that are array indexes (`"0"` … `"4294967294"`) first, by number. */
const arrayIndex = (key: string) => (/^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295 ? Number(key) : null);

/** A text as bytes that sort as JavaScript sorts strings (UTF-16 code units, big-endian). */
function jsOrder(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf16le');
  return bytes.swap16();
}

export class ImportStore {
  private readonly db = new DatabaseSync('');
  private readonly statements = new Map<string, StatementSync>();
  private nextSeq = 1;

  constructor() {
    this.db.exec(SCHEMA);
    this.db.exec('BEGIN');
  }

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /** Keeps a candidate; true when its source ID (if any) is new to this import. */
  addCandidate(sourceId: string | undefined, candidate: Candidate): boolean {
    const seq = this.nextSeq++;
    const data = encode(candidate);
    if (sourceId === undefined) {
      this.sql('INSERT INTO candidate (seq, source_id, data) VALUES (?, NULL, ?)').run(seq, data);
      return true;
    }
    const row = this.sql(
      'INSERT INTO candidate (seq, source_id, data) VALUES (?, ?, ?) ON CONFLICT (source_id) DO UPDATE SET data = excluded.data RETURNING seq',
    ).get(seq, sourceId, data);
    return row?.seq === seq;
  }

  /** The candidates: those with a source ID in the order each was first read, then the others in the order read. */
  *candidates(): Generator<Candidate> {
    for (const row of this.sql('SELECT data FROM candidate ORDER BY source_id IS NULL, seq').iterate()) yield decode(row.data as string) as Candidate;
  }

  addExisting(sourceId: string | undefined, identity: string | undefined, record: ExistingRecord): void {
    const { file, entry, hashes, fields } = record;
    this.sql('INSERT INTO existing (source_id, identity, file, entry, whole, revision, fields) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      sourceId ?? null,
      identity ?? null,
      file,
      entry,
      hashes?.whole ?? null,
      hashes?.revision ?? null,
      fields ? encode(fields) : null,
    );
  }

  private existing(row: Record<string, unknown> | undefined, withFields = false): ExistingRecord | undefined {
    if (!row) return undefined;
    return {
      file: row.file as string,
      entry: row.entry as number | null,
      ...(row.whole !== null ? { hashes: { whole: row.whole as string, revision: row.revision as string } } : {}),
      ...(withFields && row.fields !== null ? { fields: decode(row.fields as string) as Record<string, unknown> } : {}),
    };
  }

  /** The first record in the owner's files with this source ID (with its fields, when kept). */
  existingBySourceId(sourceId: string, withFields = false): ExistingRecord | undefined {
    const columns = withFields ? 'file, entry, whole, revision, fields' : 'file, entry, whole, revision';
    return this.existing(this.sql(`SELECT ${columns} FROM existing WHERE source_id = ? ORDER BY seq LIMIT 1`).get(sourceId), withFields);
  }

  /** The last record in the owner's files with this canonicalId. */
  existingByIdentity(canonicalId: string): ExistingRecord | undefined {
    return this.existing(this.sql('SELECT file, entry, whole, revision FROM existing WHERE identity = ? ORDER BY seq DESC LIMIT 1').get(canonicalId));
  }

  ledgerGet(sourceId: string): unknown {
    const row = this.sql('SELECT value FROM ledger WHERE source_id = ?').get(sourceId);
    return row ? JSON.parse(row.value as string) : undefined;
  }

  ledgerClear(): void {
    this.sql('DELETE FROM ledger').run();
  }

  ledgerSet(sourceId: string, value: unknown): void {
    this.sql(
      'INSERT INTO ledger (source_id, array_index, sort_key, value) VALUES (?, ?, ?, ?) ON CONFLICT (source_id) DO UPDATE SET value = excluded.value',
    ).run(sourceId, arrayIndex(sourceId), jsOrder(sourceId), JSON.stringify(value));
  }

  /**
   * The ledger's rows in the order a JavaScript object of them, built from the sorted
   * keys, gives them: array indexes by number, then the other keys as JavaScript sorts
   * strings (by UTF-16 code units: `sort_key` is the key in UTF-16BE, which SQLite
   * compares byte by byte).
   */
  *ledgerEntries(): Generator<[string, unknown]> {
    for (const row of this.sql('SELECT source_id, value FROM ledger ORDER BY array_index IS NULL, array_index, sort_key').iterate()) {
      yield [row.source_id as string, JSON.parse(row.value as string)];
    }
  }

  readonly seen: SeenIds = {
    get: (canonicalId) => {
      const row = this.sql('SELECT origin, id FROM seen WHERE canonical_id = ?').get(canonicalId);
      return row ? { origin: row.origin as string, id: row.id ?? undefined } : undefined;
    },
    set: (canonicalId, by) =>
      void this.sql('INSERT INTO seen (canonical_id, origin, id) VALUES (?, ?, ?)').run(canonicalId, by.origin, typeof by.id === 'string' ? by.id : null),
  };

  clearSeen(): void {
    this.sql('DELETE FROM seen').run();
  }

  addInsert(file: string, key: string, text: string): void {
    this.sql('INSERT INTO insert_item (file, key, text) VALUES (?, ?, ?)').run(file, key, text);
  }

  /** The new items of a file, in the order they were planned. */
  insertsOf(file: string): { key: string; text: string }[] {
    return this.sql('SELECT key, text FROM insert_item WHERE file = ? ORDER BY seq')
      .all(file)
      .map((r) => ({ key: r.key as string, text: r.text as string }));
  }

  addReplacement(file: string, entry: number, text: string): void {
    this.sql('INSERT INTO replace_item (file, entry, text) VALUES (?, ?, ?)').run(file, entry, text);
  }

  /** The latest text planned for an item, if one was. */
  replacementOf(file: string, entry: number): string | undefined {
    return this.sql('SELECT text FROM replace_item WHERE file = ? AND entry = ? ORDER BY seq DESC LIMIT 1').get(file, entry)?.text as string | undefined;
  }

  /** The replaced items of a file, in the order they were planned. */
  replacementsOf(file: string): { entry: number; text: string }[] {
    return this.sql('SELECT entry, text FROM replace_item WHERE file = ? ORDER BY seq')
      .all(file)
      .map((r) => ({ entry: r.entry as number, text: r.text as string }));
  }

  addLine(text: string): void {
    this.sql('INSERT INTO line (text) VALUES (?)').run(text);
  }

  *lines(): Generator<string> {
    for (const row of this.sql('SELECT text FROM line ORDER BY seq').iterate()) yield row.text as string;
  }

  addAttachment(path: string, bytes: Buffer): void {
    this.sql('INSERT INTO attachment (path, sort_key, bytes) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET bytes = excluded.bytes').run(
      path,
      jsOrder(path),
      bytes,
    );
  }

  /** The attachments' paths, sorted as JavaScript sorts strings. */
  attachmentPaths(): string[] {
    return this.sql('SELECT path FROM attachment ORDER BY sort_key')
      .all()
      .map((r) => r.path as string);
  }

  attachment(path: string): Buffer {
    return Buffer.from(this.sql('SELECT bytes FROM attachment WHERE path = ?').get(path)!.bytes as Uint8Array);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
