/**
 * `watch-of` → movies (issue 40). Sparkles posts a film as an h-entry whose `watch-of` is
 * an h-cite: `name` (the title), `published` (the film's year), `uid` (`imdb:tt…`,
 * `tmdb:…`), `url`; beside it the entry's `published` (the watch date), `rating` (0–5 in
 * halves), `rewatch`, `progress` and `content` (the review). A film is `type: movie`
 * unless its link says TV (themoviedb.org/tv/…) or the record already says otherwise;
 * a `progress: want` post is refused, since this collection keeps films watched.
 */
import { dateTimeOf, first, isMf2Object, text, textOf, texts, urlOf, type Mf2Object } from '../mf2.ts';
import { bodyOf, defined, properties, ratingOf, unread, visibilityOf, wordCategories, type PostType } from '../post-type.ts';

const READ = ['watch-of', 'rating', 'rewatch', 'progress', 'content', 'category', 'syndication'];

/** IMDb, TMDB and Letterboxd identities of the film, from its `uid`s and links. */
function identities(cite: Mf2Object | undefined, links: URL[]) {
  const ids: { imdbId?: string; tmdbId?: number; letterboxdUri?: string; tv?: boolean } = {};
  for (const uid of texts(cite, 'uid')) {
    const imdb = /^imdb:(tt\d{7,10})$/i.exec(uid);
    const tmdb = /^tmdb:(?:(movie|tv)\/)?(\d{1,10})$/i.exec(uid);
    if (imdb) ids.imdbId = imdb[1]!.toLowerCase();
    if (tmdb) [ids.tmdbId, ids.tv] = [Number(tmdb[2]), tmdb[1]?.toLowerCase() === 'tv'];
  }
  for (const url of links) {
    const imdb = /^\/title\/(tt\d{7,10})\/?$/.exec(url.pathname);
    const tmdb = /^\/(movie|tv)\/(\d{1,10})(?:-[^/]*)?\/?$/.exec(url.pathname);
    if (/(^|\.)imdb\.com$/.test(url.hostname) && imdb) ids.imdbId ??= imdb[1];
    if (/(^|\.)themoviedb\.org$/.test(url.hostname) && tmdb) [ids.tmdbId, ids.tv] = [ids.tmdbId ?? Number(tmdb[2]), tmdb[1] === 'tv'];
    if (/^(letterboxd\.com|boxd\.it)$/.test(url.hostname) && url.protocol === 'https:') ids.letterboxdUri ??= url.href;
  }
  return ids;
}

export const movies: PostType = {
  type: 'watch',
  name: 'Film or series watched (movies)',
  collection: 'movies',
  marker: 'watch-of',
  matches: (entry) => entry.properties['watch-of'] !== undefined,
  toFields(entry, { now, base }) {
    const given = first(entry, 'watch-of');
    const cite = isMf2Object(given) ? given : undefined;
    const title = cite ? text(cite, 'name') : urlOf(given) ? undefined : textOf(given);
    if (!title) return { ok: false, description: 'watch-of needs the film’s name: send it as an h-cite with name (and published, the film’s year).' };
    if (text(entry, 'progress')?.toLowerCase() === 'want')
      return { ok: false, description: 'The movies collection keeps films watched; a want-to-watch post (progress: want) has no record here.' };
    const year = Number(/^\d{4}/.exec(text(cite, 'published') ?? '')?.[0] ?? base?.year);
    if (!Number.isInteger(year) || year === 0)
      return { ok: false, description: 'watch-of needs the film’s year: send published (YYYY) in the watch-of h-cite.' };
    const rating = ratingOf(entry);
    if ('problem' in rating) return { ok: false, description: rating.problem };
    const links = [...(cite?.properties.url ?? []), given, ...(entry.properties.syndication ?? [])].map(urlOf).filter((u): u is URL => u !== undefined);
    const { tv, ...ids } = identities(cite, links);
    const published = dateTimeOf(first(entry, 'published'));
    const watchedAt = published ?? (base ? base.watchedAt : now);
    const genres = wordCategories(entry);
    return {
      ok: true,
      fields: defined({
        title,
        type: base?.type ?? (tv ? 'tv' : 'movie'),
        year,
        addedAt: base?.addedAt ?? watchedAt,
        watchedAt,
        ...ids,
        rating: rating.rating,
        review: bodyOf(entry),
        genres: genres.length ? genres : undefined,
        visibility: visibilityOf(entry),
      }),
      ignored: unread(entry, READ),
    };
  },
  toProperties(fields) {
    const uid = [fields.imdbId && `imdb:${String(fields.imdbId)}`, fields.tmdbId && `tmdb:${String(fields.tmdbId)}`].filter(Boolean);
    const cite = { type: ['h-cite'], properties: properties({ name: fields.title, published: String(fields.year), uid, url: fields.letterboxdUri }) };
    return {
      type: ['h-entry'],
      properties: properties({
        'watch-of': cite,
        published: fields.watchedAt,
        rating: fields.rating,
        content: fields.review,
        category: fields.genres,
        'post-status': fields.visibility === 'private' ? 'draft' : undefined,
      }),
    };
  },
  repeatFields: ['watchedAt', 'rating'],
  mappedFields: ['title', 'year', 'watchedAt', 'imdbId', 'tmdbId', 'letterboxdUri', 'rating', 'review', 'genres', 'visibility'],
};
