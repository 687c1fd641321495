/**
 * What the polite client remembers between runs, one small JSON file per source in
 * `STATE_DIR/sync/<source>.json`, never in the content folder (it is not the owner's
 * data, and a refresh token must never be published): the validators (`ETag`,
 * `Last-Modified`) of the URLs it asked last time, a rotated refresh token (Strava's old
 * one stops working once a new one is issued), and when it last succeeded and how it last
 * failed (the status document's `sync` field). The file is written whole, to a temporary
 * file renamed into place, and readable by its owner only.
 *
 * How far the source was read (its cursor) is not here: it is the ledger's, kept in one
 * place for every reader (src/import/cursor.ts).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface SourceState {
  /** Per URL (its full form), the validators of its last 200. */
  validators?: Record<string, Validators>;
  refreshToken?: string;
  lastSuccess?: string;
  lastFailure?: { at: string; kind: string };
}

const stateFile = (stateDir: string, source: string) => join(stateDir, 'sync', `${source}.json`);

/** The source's state; an empty one when there is none yet or it cannot be read (a sync then reads from the start). */
export function loadState(stateDir: string, source: string): SourceState {
  try {
    const data: unknown = JSON.parse(readFileSync(stateFile(stateDir, source), 'utf8'));
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as SourceState) : {};
  } catch {
    return {};
  }
}

/** Writes the source's state whole (temporary file, then rename), readable by the owner only. */
export function saveState(stateDir: string, source: string, state: SourceState): void {
  const path = stateFile(stateDir, source);
  mkdirSync(join(stateDir, 'sync'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
