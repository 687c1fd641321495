/**
 * What an empty collection page tells its owner: how to add the first record — the
 * command that writes one (`npm run new`, src/setup/new.ts), and where the collection has
 * them, the importers (`npm run import`, src/import/sources/) and sync sources (`npm run
 * sync`) that fill it from a service. A table rather than an import of the importers, so
 * pages do not bundle archive readers; tests/unit/first-record.test.ts checks it against
 * the importers' registry.
 */

/** The importers by collection, as `npm run import -- <source>` names them. */
export const IMPORTERS: Readonly<Record<string, readonly string[]>> = {
  movies: ['letterboxd', 'imdb'],
  books: ['goodreads'],
  activities: ['strava', 'gpx'],
  tweets: ['twitter', 'mastodon'],
  reading: ['pocket'],
  music: ['listenbrainz'],
  photos: ['photos'],
};

/** The sync sources by collection, as `npm run sync` follows them (docs/sync.md). */
export const SYNC_SOURCES: Readonly<Record<string, readonly string[]>> = {
  movies: ['letterboxd'],
  books: ['goodreads'],
  music: ['listenbrainz'],
  tweets: ['mastodon'],
  code: ['github'],
  activities: ['strava'],
};

export interface FirstRecordHint {
  /** Writes one record file of the collection. */
  create: string;
  /** Where records of the collection live. */
  folder: string;
  /** `npm run import -- <source> <export>` for each importer of the collection. */
  imports: string[];
  /** `npm run sync` when a sync source fills the collection, with the sources named. */
  sync?: { command: string; sources: readonly string[] };
}

export function firstRecordHint(collection: string): FirstRecordHint {
  const syncs = SYNC_SOURCES[collection];
  return {
    create: `npm run new -- ${collection} "<title>"`,
    folder: `content/${collection}/`,
    imports: (IMPORTERS[collection] ?? []).map((source) => `npm run import -- ${source} <export>`),
    ...(syncs ? { sync: { command: 'npm run sync', sources: syncs } } : {}),
  };
}
