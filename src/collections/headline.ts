/**
 * What the cross-collection lists (feed items, search hits) say about a record of any
 * collection: a one-line title, the link to it, and the date of what happened. One
 * table per concern, keyed by collection name; a test checks every content collection
 * has an entry, so a new collection cannot be left out of the feed by accident.
 */
import type { SourceRecord } from './define.ts';
import { recordUrl } from '../urls.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Whitespace that `clip` would change: any but a single space between words. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;

/** The text on one line, at most `max` code points (the last an ellipsis when cut). */
const clip = (text: string, max = 100) => {
  // Most titles are one line already: tested, not rewritten (a list page clips one per row).
  const line = LOOSE_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
  // A line of at most `max` UTF-16 units has at most `max` code points: most lines stop here.
  if (line.length <= max) return line;
  // Counted as the string iterator counts code points (a lone surrogate is one), without an array of them.
  let end = 0;
  let cut = 0;
  for (let points = 0; points < max; points++) {
    if (end >= line.length) return line;
    if (points === max - 1) cut = end;
    const unit = line.charCodeAt(end);
    end += unit >= 0xd800 && unit <= 0xdbff && end + 1 < line.length && (line.charCodeAt(end + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return end >= line.length ? line : `${line.slice(0, cut)}…`;
};

/** A record's one-line title. */
export function headline(collection: string, r: SourceRecord): string {
  switch (collection) {
    case 'music':
      return r.type === 'artist' ? String(r.title) : `${r.artist} — ${r.title}`;
    case 'concerts':
      return str(r.title) ? `${r.artist}: ${r.title}` : String(r.artist);
    case 'tweets':
      return clip(String(r.text));
    case 'work':
      return `${r.title}, ${r.company}`;
    case 'places':
      return String(r.name);
    default:
      return clip(String(r.title ?? r.name ?? r.canonicalId), 300);
  }
}

/** Where a record is read: the piece itself for writing and blog posts, else its detail page. */
export function linkOf(collection: string, r: SourceRecord, siteUrl: string): string {
  if ((collection === 'blog' || collection === 'writing') && str(r.url)) return String(r.url);
  return `${siteUrl}${recordUrl(collection, String(r.canonicalId))}`;
}

/** Events, matches and concerts always publish a status (`statusFromDate` settles one left out): only a completed one happened. */
const done = (status: unknown) => status === 'completed';

/**
 * The date of what happened, per collection (undefined: not something that happened to
 * the owner yet — a planned match, a book still on the shelf). Work history known to the
 * month happened on its first day.
 */
export const HAPPENED: Readonly<Record<string, (r: SourceRecord) => string | undefined>> = {
  activities: (r) => str(r.startDate),
  movies: (r) => str(r.watchedAt) ?? str(r.addedAt),
  places: (r) => str(r.visitedAt),
  events: (r) => (done(r.status) ? str(r.startDate) : undefined),
  'sporting-events': (r) => (done(r.status) && ['attended', 'watched', 'listened'].includes(String(r.experienceStatus)) ? str(r.date) : undefined),
  music: (r) => str(r.addedAt),
  concerts: (r) => (done(r.status) ? str(r.date) : undefined),
  videos: (r) => str(r.watchedAt),
  podcasts: (r) => str(r.listenedAt),
  tweets: (r) => str(r.createdAt),
  code: (r) => str(r.date),
  photos: (r) => str(r.takenAt),
  books: (r) => (r.status === 'finished' ? str(r.finishedAt) : undefined),
  work: (r) => {
    const start = str(r.startDate);
    return start && start.length === 7 ? `${start}-01` : start;
  },
  reading: (r) => str(r.readAt) ?? str(r.savedAt),
  blog: (r) => str(r.publishedAt),
  writing: (r) => str(r.publishedAt),
};
