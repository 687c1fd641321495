/**
 * `listen-of` → music (issue 40). Sparkles posts an h-cite: `name` (the song, album or
 * artist), `author` (the artist), `url` (Apple Music or song.link), `published` (the
 * year). The record's type comes from the link (`/album/`, `/artist/`), else it is a
 * track; the entry's `published` is when it was added. A listen of a record kept already
 * changes nothing: a second listen is not a second record, and no field counts listens.
 */
import { dateTimeOf, first, isMf2Object, text, textOf, urlOf } from '../mf2.ts';
import { bodyOf, defined, properties, unread, visibilityOf, wordCategories, type PostType } from '../post-type.ts';

const READ = ['listen-of', 'content', 'category', 'progress'];

export const music: PostType = {
  type: 'listen',
  name: 'Track, album or artist listened to (music)',
  collection: 'music',
  marker: 'listen-of',
  matches: (entry) => entry.properties['listen-of'] !== undefined,
  toFields(entry, { now, base }) {
    const given = first(entry, 'listen-of');
    const cite = isMf2Object(given) ? given : undefined;
    const title = cite ? text(cite, 'name') : urlOf(given) ? undefined : textOf(given);
    const artist = text(cite, 'author') ?? (base?.artist as string | undefined);
    if (!title || !artist) return { ok: false, description: 'listen-of needs an h-cite with name and author (the artist).' };
    const link = urlOf(first(cite, 'url'))?.pathname ?? '';
    const type = base?.type ?? (/\/album\//.test(link) ? 'album' : /\/artist\//.test(link) ? 'artist' : 'track');
    const year = Number(/^\d{4}/.exec(text(cite, 'published') ?? '')?.[0]);
    const genres = wordCategories(entry);
    return {
      ok: true,
      fields: defined({
        title,
        type,
        artist,
        album: base?.album,
        year: Number.isInteger(year) && year > 0 ? year : base?.year,
        addedAt: dateTimeOf(first(entry, 'published')) ?? base?.addedAt ?? now,
        genres: genres.length ? genres : undefined,
        notes: bodyOf(entry),
        visibility: visibilityOf(entry),
      }),
      ignored: unread(entry, READ),
    };
  },
  toProperties(fields) {
    const cite = { type: ['h-cite'], properties: properties({ name: fields.title, author: fields.artist, published: fields.year && String(fields.year) }) };
    return {
      type: ['h-entry'],
      properties: properties({
        'listen-of': cite,
        published: fields.addedAt,
        category: fields.genres,
        content: fields.notes,
        'post-status': fields.visibility === 'private' ? 'draft' : undefined,
      }),
    };
  },
  repeatFields: [],
  mappedFields: ['title', 'artist', 'year', 'addedAt', 'genres', 'notes', 'visibility'],
};
