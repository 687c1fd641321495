/**
 * Letterboxd: the member's RSS feed, `GET /<user>/rss/` (the site answers 301 without the
 * last slash). Each diary entry (`guid` `letterboxd-watch-N` or `letterboxd-review-N`)
 * is one film, mapped by the Letterboxd importer's own mapping (`mapFilm`): title and year
 * from `letterboxd:filmTitle` and `letterboxd:filmYear`, the watch date, the member's
 * rating, `tmdb:movieId`, and the review from the `description` (its poster paragraph and
 * a bare "Watched on …" dropped). The film's link (`/film/<slug>/`, the member and a
 * rewatch's `/1/` taken off) is the record's `letterboxdUri`, so a rewatch updates the one
 * record. List entries (`letterboxd-list-N`) carry no film and are left out. The feed holds
 * only the latest entries, so it has no cursor: a repeat poll is conditional (`ETag`,
 * `Last-Modified`), and deletions cannot be told (no `--prune`). Not kept: the like, the
 * rewatch flag and tags (the movies schema has no field for them).
 */
import { filmLink, mapFilm } from '../../import/sources/letterboxd.ts';
import { htmlText } from '../../import/sources/mastodon.ts';
import { letterboxd as importer } from '../../import/sources/letterboxd.ts';
import { childText, dayOf, rssItems, xmlOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

const LETTERBOXD = 'https://letterboxd.com';
const TMDB = 'https://themoviedb.org';

/** The review in an entry's description: its text without the poster, or nothing for a bare "Watched on …". */
export function reviewOf(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const text = htmlText(description.replace(/<p>\s*<img[^>]*>\s*<\/p>/gi, '')).trim();
  if (!text || /^Watched on [^\n]*\.$/.test(text)) return undefined;
  return text.replace(/^This review may contain spoilers\.\s*/, '');
}

export const letterboxd: SyncSource<'letterboxd'> = {
  name: 'letterboxd',
  importer,
  defaultBase: LETTERBOXD,
  prunable: false,
  carry: (previous, fields) => ({
    ...fields,
    // First logged stays first logged; a rewatch without a rating or review keeps the earlier ones.
    addedAt:
      typeof previous.addedAt === 'string' && (typeof fields.addedAt !== 'string' || previous.addedAt < fields.addedAt) ? previous.addedAt : fields.addedAt,
    rating: fields.rating ?? previous.rating,
    review: fields.review ?? previous.review,
  }),
  async read({ config, base, client }) {
    const url = new URL(`${base.pathname.replace(/\/$/, '')}/${encodeURIComponent(config.user)}/rss/`, base);
    const answer = await client.get(url, 'application/rss+xml, application/xml;q=0.9');
    if (answer.notModified) return { items: [], complete: false };
    const entries = rssItems(xmlOf(answer), answer);
    const items: SyncItem[] = [];
    // The feed is newest first; the frame keeps the last item of a record, so it is read oldest first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      const origin = `${config.user}/rss item ${i + 1}`;
      const guid = childText(entry, 'guid') ?? '';
      if (/^letterboxd-list-/.test(guid)) {
        items.push({ origin, mapped: { skip: 'lists' } });
        continue;
      }
      const watched = childText(entry, 'watchedDate', LETTERBOXD);
      const day = watched ?? dayOf(childText(entry, 'pubDate'));
      items.push({
        origin,
        mapped: mapFilm({
          name: childText(entry, 'filmTitle', LETTERBOXD) ?? '',
          year: childText(entry, 'filmYear', LETTERBOXD),
          addedAt: day,
          watchedAt: day,
          rating: childText(entry, 'memberRating', LETTERBOXD),
          uri: filmLink(childText(entry, 'link')),
          review: reviewOf(childText(entry, 'description')),
          tmdbId: childText(entry, 'movieId', TMDB),
        }),
      });
    }
    return { items, complete: false };
  },
};
