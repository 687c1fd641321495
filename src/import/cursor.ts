/**
 * A source's cursor: how far a sync has read a service (a Mastodon `min_id`, a
 * ListenBrainz `min_ts`, a Strava `after`, a GitHub event ID; a feed that lists only its
 * latest items has none and is polled conditionally). This is the one place a cursor is kept: the ledger's companion
 * (src/import/ledger.ts), but in `STATE_DIR/cursors/<source>.json`, never in the content
 * folder: it is state of the syncing, not of the collection, and a content folder copied
 * elsewhere must not make another machine's sync skip records. What else a sync
 * remembers (validators, a rotated refresh token, its last success and failure) is the
 * polite client's, in src/sync/state.ts, and holds no cursor.
 *
 * One file per source, so sources syncing at once never rewrite each other's; written
 * atomically and durably (src/owner/content-file.ts), so a crash leaves the old cursor or
 * the new.
 *
 * A sync reads `cursorOf(source)` before it asks the service (and hands it to the source
 * as `SyncReadContext.cursor`, so the service is asked only for what is newer), and calls
 * `setCursor(source, value)` only once the batch it read is written: a refused or failed
 * write leaves the cursor where it was, so the next run reads the same records again
 * (matched by source ID, nothing twice).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeContentFile } from '../owner/content-file.ts';

/** A source's name as a file name: the importers' names (`letterboxd`, `strava`), nothing that could leave the folder. */
const SOURCE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const cursorFile = (source: string, stateDir: string) => {
  if (!SOURCE_NAME.test(source)) throw new Error(`not a source name: ${source.slice(0, 70)}`);
  return join(stateDir, 'cursors', `${source}.json`);
};

/** What a cursor file holds: the value, and when it was set. */
interface StoredCursor {
  source: string;
  cursor: string;
  at: string;
}

/**
 * The source's cursor, or undefined before its first sync — and when the file cannot be
 * read: reading from the start costs requests but never duplicates a record (matched by
 * source ID), whereas refusing would stop the source until someone removed the file.
 */
export function cursorOf(source: string, stateDir: string): string | undefined {
  const path = cursorFile(source, stateDir);
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredCursor> | null;
    return typeof stored?.cursor === 'string' ? stored.cursor : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the source's cursor (atomically, durably), once what was read up to it is written. */
export function setCursor(source: string, value: string, stateDir: string): void {
  const path = cursorFile(source, stateDir);
  mkdirSync(join(stateDir, 'cursors'), { recursive: true, mode: 0o700 });
  const stored: StoredCursor = { source, cursor: value, at: new Date().toISOString() };
  writeContentFile(path, `${JSON.stringify(stored, null, 2)}\n`);
}
