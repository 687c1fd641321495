/** The importers by the name `npm run import -- <source>` takes. */
import type { ImportSource } from '../source.ts';
import { goodreads } from './goodreads.ts';
import { gpxFolder } from './gpx.ts';
import { imdb } from './imdb.ts';
import { letterboxd } from './letterboxd.ts';
import { listenbrainz } from './listenbrainz.ts';
import { mastodon } from './mastodon.ts';
import { photos } from './photos.ts';
import { pocket } from './pocket.ts';
import { strava } from './strava.ts';
import { twitter } from './twitter.ts';

export const SOURCES: Readonly<Record<string, ImportSource>> = {
  letterboxd,
  goodreads,
  imdb,
  strava,
  gpx: gpxFolder,
  twitter,
  mastodon,
  pocket,
  listenbrainz,
  photos,
};
