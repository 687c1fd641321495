/**
 * `read-of` → books (issue 40). indiebookclub posts an h-cite (`name`, `author`, `uid:
 * isbn:…`) with `read-status` (to-read, reading, finished); Sparkles posts `progress`
 * (want, started, finished, stopped) and a `rating`. The status comes from either; the
 * post's date is when the book was finished (or given up), or when reading started.
 * A post without a status is refused: this collection says where each book stands.
 */
import { dayOf, first, isMf2Object, text, textOf, texts, urlOf } from '../mf2.ts';
import { bodyOf, defined, properties, ratingOf, unread, visibilityOf, wordCategories, type PostType } from '../post-type.ts';

const READ = ['read-of', 'read-status', 'progress', 'rating', 'content', 'category'];

/** `read-status` (indiebookclub) and `progress` (Sparkles) onto the collection's statuses. */
const STATUS: Readonly<Record<string, string>> = {
  'to-read': 'to-read',
  reading: 'reading',
  finished: 'finished',
  want: 'to-read',
  started: 'reading',
  stopped: 'abandoned',
  abandoned: 'abandoned',
};

export const books: PostType = {
  type: 'read',
  name: 'Book read, being read or to read (books)',
  collection: 'books',
  marker: 'read-of',
  matches: (entry) => entry.properties['read-of'] !== undefined,
  toFields(entry, { now, base, repeat }) {
    const given = first(entry, 'read-of');
    const cite = isMf2Object(given) ? given : undefined;
    const title = cite ? text(cite, 'name') : urlOf(given) ? undefined : textOf(given);
    if (!title) return { ok: false, description: 'read-of needs the book’s name: send it as an h-cite with name and author.' };
    const author = text(cite, 'author') ?? (base?.author as string | undefined);
    if (!author) return { ok: false, description: 'read-of needs the book’s author: send author in the read-of h-cite.' };
    const said = (text(entry, 'read-status') ?? text(entry, 'progress'))?.toLowerCase();
    let status = said === undefined ? (base?.status as string | undefined) : STATUS[said];
    // A want-to-read post of a book already read or being read says nothing new about it: its status stays.
    if (repeat && status === 'to-read' && base?.status !== undefined) status = base.status as string;
    if (!status)
      return {
        ok: false,
        description: 'A read post needs read-status (to-read, reading, finished) or progress (want, started, finished, stopped).',
      };
    const rating = ratingOf(entry);
    if ('problem' in rating) return { ok: false, description: rating.problem };
    const ids: { isbn?: string; goodreadsId?: string } = {};
    for (const uid of texts(cite, 'uid')) {
      const isbn = /^isbn:([\d-\s]{10,17}X?)$/i.exec(uid);
      if (isbn) ids.isbn = isbn[1]!.replace(/[-\s]/g, '');
    }
    for (const url of (cite?.properties.url ?? []).map(urlOf)) {
      const goodreads = url && /(^|\.)goodreads\.com$/.test(url.hostname) ? /^\/book\/show\/(\d{1,20})/.exec(url.pathname) : null;
      if (goodreads) ids.goodreadsId ??= goodreads[1];
    }
    // The day the post speaks of: a new post without a date speaks of today.
    const day = dayOf(first(entry, 'published')) ?? (base ? undefined : now.slice(0, 10));
    const dates: { startedAt?: unknown; finishedAt?: unknown } = { startedAt: base?.startedAt, finishedAt: base?.finishedAt };
    if (day && status === 'reading') dates.startedAt = day;
    if (day && (status === 'finished' || status === 'abandoned')) dates.finishedAt = day;
    const genres = wordCategories(entry);
    return {
      ok: true,
      fields: defined({
        title,
        author,
        ...ids,
        status,
        ...dates,
        rating: rating.rating,
        notes: bodyOf(entry),
        genres: genres.length ? genres : undefined,
        visibility: visibilityOf(entry),
      }),
      ignored: unread(entry, READ),
    };
  },
  toProperties(fields) {
    const cite = {
      type: ['h-cite'],
      properties: properties({ name: fields.title, author: fields.author, uid: fields.isbn ? `isbn:${String(fields.isbn)}` : undefined }),
    };
    return {
      type: ['h-entry'],
      properties: properties({
        'read-of': cite,
        'read-status': fields.status === 'abandoned' ? undefined : fields.status,
        progress: fields.status === 'abandoned' ? 'stopped' : undefined,
        published: fields.status === 'reading' ? fields.startedAt : fields.finishedAt,
        rating: fields.rating,
        content: fields.notes,
        category: fields.genres,
        'post-status': fields.visibility === 'private' ? 'draft' : undefined,
      }),
    };
  },
  repeatFields: ['status', 'startedAt', 'finishedAt', 'rating'],
  mappedFields: ['title', 'author', 'isbn', 'status', 'startedAt', 'finishedAt', 'rating', 'notes', 'genres', 'visibility'],
};
