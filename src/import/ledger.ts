/**
 * The ledger (`<CONTENT_DIR>/.import/<source>.json`) remembers, per source ID, the file
 * and the revision the importer last wrote, which is how a later `--update` tells its own
 * records from the owner's edits. A record imported with a privacy radius other than the
 * default also carries it (`privacyRadiusMeters`; only for a source that reuses its
 * records, src/import/sources/strava.ts), so that a re-import with another radius reads
 * the record's track again. The build reads only `.md` and `.yaml` files under each
 * collection's folder, so the ledger is never content.
 *
 * A source's cursor (how far a sync has read the service) is the ledger's companion, kept
 * in STATE_DIR rather than here: src/import/cursor.ts (`cursorOf`, `setCursor`).
 *
 * It is read into the import's store and written back from it, a record at a time (never
 * held whole), as `JSON.stringify` writes the object of its sorted keys: the same bytes
 * as ever.
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonObjectMembers, JsonArrayError } from './json-array.ts';
import type { ImportStore } from './store.ts';

export interface LedgerEntry {
  /** The content file, relative to the content folder: `activities/strava-2024.yaml`. */
  file: string;
  revision: string;
  /** The privacy radius the record was imported with, when it was not the default. */
  privacyRadiusMeters?: number;
  /** `sync` when a sync wrote the record (src/sync/run.ts): `--prune` removes only such records. */
  via?: 'sync';
}

export const ledgerFile = (source: string) => `.import/${source}.json`;

/** A ledger as `ledgerText` writes it, up to its records' `{`, and after their `}`. */
const LEDGER_HEAD = /^[ \t\n\r]*\{[ \t\n\r]*"source"[ \t\n\r]*:[ \t\n\r]*"(?:[^"\\\u0000-\u001f]|\\.)*"[ \t\n\r]*,[ \t\n\r]*"records"[ \t\n\r]*:[ \t\n\r]*$/;
const LEDGER_TAIL = /^[ \t\n\r]*\}[ \t\n\r]*$/;

/**
 * The source's ledger into the store (nothing when there is none yet), a record at a
 * time as the file streams in (src/import/json-array.ts). A ledger of any other shape is
 * read whole, as it always was.
 */
export async function loadLedger(contentDir: string, source: string, store: ImportStore): Promise<void> {
  const path = join(contentDir, ledgerFile(source));
  if (!existsSync(path)) return;
  try {
    const head = (text: string, end: boolean) => !end && LEDGER_HEAD.test(text);
    for await (const [key, value] of jsonObjectMembers(createReadStream(path), { head, tail: LEDGER_TAIL })) store.ledgerSet(key, value);
  } catch (error) {
    if (!(error instanceof JsonArrayError)) throw error;
    store.ledgerClear();
    const records = ((JSON.parse(readFileSync(path, 'utf8')) as { records?: Record<string, unknown> }).records ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(records)) store.ledgerSet(key, records[key]);
  }
}

/** A ledger value as the import reads it; undefined when it is not one. */
export function ledgerEntry(value: unknown): LedgerEntry | undefined {
  return typeof value === 'object' && value !== null ? (value as LedgerEntry) : undefined;
}

/** The ledger's text, piece by piece: `JSON.stringify({ source, records }, null, 2)` and a newline. */
export function* ledgerText(source: string, records: Iterable<[string, unknown]>): Generator<string> {
  yield `{\n  "source": ${JSON.stringify(source)},\n  "records": {`;
  let first = true;
  for (const [key, value] of records) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`;
    first = false;
  }
  yield first ? '}\n}\n' : '\n  }\n}\n';
}
