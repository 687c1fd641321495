/** The registry of collections, in the order SPEC §1 lists them, then the cross-collection lists. */
import type { CollectionDeclaration } from './define.ts';
import activities from './activities.ts';
import movies from './movies.ts';
import places from './places.ts';
import events from './events.ts';
import sportingEvents from './sporting-events.ts';
import music from './music.ts';
import concerts from './concerts.ts';
import videos from './videos.ts';
import podcasts from './podcasts.ts';
import tweets from './tweets.ts';
import code from './code.ts';
import photos from './photos.ts';
import books from './books.ts';
import work from './work.ts';
import reading from './reading.ts';
import writing from './writing.ts';
import blog from './blog.ts';
import { feedItems } from './feed-items.ts';

/** Collections whose records come from `content/<name>/` (writing also composes in the blog's posts). */
export const contentCollections: readonly CollectionDeclaration[] = [
  activities,
  movies,
  places,
  events,
  sportingEvents,
  music,
  concerts,
  videos,
  podcasts,
  tweets,
  code,
  photos,
  books,
  work,
  reading,
  blog,
  writing,
];

/** Every collection; the feed is composed from all the content collections. */
export const collections: readonly CollectionDeclaration[] = [...contentCollections, feedItems(contentCollections)];

const byName = new Map(collections.map((c) => [c.name, c]));

export function collection(name: string): CollectionDeclaration | undefined {
  return byName.get(name);
}

/** The collections served at `/api/<name>.json`. */
export const restCollections = collections.filter((c) => c.rest);
