/**
 * A source's cursor: how far a sync has read a service (a `since` date, a Mastodon
 * `min_id`, a ListenBrainz `min_ts`, a Strava `after`), kept per source beside the
 * importers' ledger (src/import/ledger.ts) but in `STATE_DIR/cursors/<source>.json`,
 * never in the content folder: it is state of the syncing, not of the collection, and a
 * content folder copied elsewhere must not make another machine's sync skip records.
 * One file per source, so sources syncing at once never rewrite each other's; written
 * atomically (src/owner/content-file.ts), so a crash leaves the old cursor or the new.
 *
 * A sync reads `cursorOf(source)` before it reads the service (and hands it to the
 * source as `ReadContext.since`), and calls `setCursor(source, value)` only once the
 * batch it read is written: a refused or failed write leaves the cursor where it was, so
 * the next run reads the same records again (matched by source ID, nothing twice).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { config } from '../config.ts';
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

/** The source's cursor, or undefined before its first sync (read everything the service offers). */
export function cursorOf(source: string, stateDir: string = config().STATE_DIR): string | undefined {
  const path = cursorFile(source, stateDir);
  if (!existsSync(path)) return undefined;
  const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredCursor>;
  return typeof stored.cursor === 'string' ? stored.cursor : undefined;
}

/** Sets the source's cursor (atomically, durably), once what was read up to it is written. */
export function setCursor(source: string, value: string, stateDir: string = config().STATE_DIR): void {
  const path = cursorFile(source, stateDir);
  mkdirSync(join(stateDir, 'cursors'), { recursive: true, mode: 0o700 });
  const stored: StoredCursor = { source, cursor: value, at: new Date().toISOString() };
  writeContentFile(path, `${JSON.stringify(stored, null, 2)}\n`);
}
