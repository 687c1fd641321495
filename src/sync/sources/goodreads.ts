/**
 * Goodreads: each configured shelf's RSS feed, `GET /review/list_rss/<userId>?shelf=<shelf>`.
 * Each item is one book, mapped by the Goodreads importer's own mapping (`mapBook`): the
 * shelf as the status (read → finished, currently-reading → reading, to-read), `isbn`
 * (the feed's is the ISBN-10, made the ISBN-13 of the same edition), `book_id`,
 * `user_rating` (0 = unrated), `user_read_at` as the finish day (in the member's own
 * offset), `book/num_pages`, `book_published`, and `user_review` as notes. The feed
 * holds a shelf's latest books only, so it has no cursor: repeat polls are conditional
 * (`ETag`, `Last-Modified`), and deletions cannot be told (no `--prune`). Not kept: the
 * date added, the custom shelves, average ratings, descriptions and covers. A custom
 * shelf is not a status, so its books are reported and skipped.
 */
import { mapBook } from '../../import/sources/goodreads.ts';
import { goodreads as importer } from '../../import/sources/goodreads.ts';
import { childText, children, dayOf, rssItems, xmlOf } from '../parse.ts';
import type { SyncItem, SyncSource } from '../source.ts';

export const goodreads: SyncSource<'goodreads'> = {
  name: 'goodreads',
  importer,
  defaultBase: 'https://www.goodreads.com',
  prunable: false,
  async read({ config, base, client }) {
    const items: SyncItem[] = [];
    for (const shelf of config.shelves) {
      const url = new URL(`${base.pathname.replace(/\/$/, '')}/review/list_rss/${config.userId}`, base);
      url.searchParams.set('shelf', shelf);
      const answer = await client.get(url, 'application/rss+xml, application/xml;q=0.9');
      if (answer.notModified) continue;
      const entries = rssItems(xmlOf(answer), answer);
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]!;
        const book = children(entry, 'book')[0];
        items.push({
          origin: `shelf ${shelf} item ${i + 1}`,
          mapped: mapBook({
            id: childText(entry, 'book_id'),
            title: childText(entry, 'title'),
            author: childText(entry, 'author_name'),
            isbn10: childText(entry, 'isbn'),
            rating: childText(entry, 'user_rating'),
            pages: book ? childText(book, 'num_pages') : undefined,
            year: childText(entry, 'book_published'),
            dateRead: dayOf(childText(entry, 'user_read_at')),
            shelf,
            review: childText(entry, 'user_review'),
          }),
        });
      }
    }
    return { items, complete: false };
  },
};
