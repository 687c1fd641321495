/** The sync sources by the name `npm run sync -- <source>` and sync.yaml take. */
import type { SourceName } from '../config.ts';
import type { SyncSource } from '../source.ts';
import { github } from './github.ts';
import { goodreads } from './goodreads.ts';
import { letterboxd } from './letterboxd.ts';
import { listenbrainz } from './listenbrainz.ts';
import { mastodon } from './mastodon.ts';
import { strava } from './strava.ts';

export const SYNC_SOURCES: { readonly [N in SourceName]: SyncSource<N> } = { letterboxd, goodreads, listenbrainz, mastodon, github, strava };
