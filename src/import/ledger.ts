/**
 * The ledger (`<CONTENT_DIR>/.import/<source>.json`) remembers, per source ID, the file
 * and the revision the importer last wrote, which is how a later `--update` tells its own
 * records from the owner's edits. The build reads only `.md`
 * and `.yaml` files under each collection's folder, so the ledger is never content.
 *
 * It is read into the import's store and written back from it, a record at a time, as
 * `JSON.stringify` writes the object of its sorted keys: the same bytes as ever.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportStore } from './store.ts';

export interface LedgerEntry {
  /** The content file, relative to the content folder: `activities/strava-2024.yaml`. */
  file: string;
  revision: string;
}

export const ledgerFile = (source: string) => `.import/${source}.json`;

/** The source's ledger into the store (nothing when there is none yet). */
export function loadLedger(contentDir: string, source: string, store: ImportStore): void {
  const path = join(contentDir, ledgerFile(source));
  if (!existsSync(path)) return;
  const records = ((JSON.parse(readFileSync(path, 'utf8')) as { records?: Record<string, unknown> }).records ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(records)) store.ledgerSet(key, records[key]);
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
