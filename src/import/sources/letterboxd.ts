/**
 * Letterboxd (Settings → Import & Export → Export your data): a ZIP of `watched.csv`,
 * `diary.csv`, `ratings.csv` and `reviews.csv`. One movie record per film (name and
 * year): added when first logged, `watchedAt` the latest diary date (a rewatch moves it,
 * it does not make a second record, since a film is one record), the current rating, the
 * latest review, and the film's Letterboxd link as its source ID. The export has no
 * director, genre or IMDb id, and none is looked up. Tags and the `Rewatch` flag are not
 * kept (the movies schema has no field for them).
 */
import { entriesNamed } from '../archive.ts';
import { readCsv, type Columns } from '../csv.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type Mapped, type ReadContext } from '../source.ts';

type Key = 'date' | 'name' | 'year' | 'uri' | 'rating' | 'watchedDate' | 'review';

const COLUMNS: Columns<Key> = {
  date: { names: ['Date'], required: true },
  name: { names: ['Name'], required: true },
  year: { names: ['Year'], required: true },
  uri: { names: ['Letterboxd URI'], required: true },
  rating: { names: ['Rating'] },
  watchedDate: { names: ['Watched Date'] },
  review: { names: ['Review'] },
};

const FILES = ['watched.csv', 'ratings.csv', 'diary.csv', 'reviews.csv'] as const;

interface Film {
  origin: string;
  name: string;
  year: string | undefined;
  addedAt?: string;
  watchedAt?: string;
  /** From ratings.csv (the current rating), else the latest diary rating. */
  rating?: { value: string; current: boolean; at: string };
  review?: { text: string; at: string };
  uri?: { value: string; rank: number };
}

const minDate = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a <= b ? a : b);
const maxDate = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a >= b ? a : b);

function number(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/**
 * One film as Letterboxd gives it (the export's rows gathered, or one entry of the
 * member's RSS feed, src/sync/sources/letterboxd.ts), as text the way it came.
 */
export interface FilmRaw {
  name: string;
  year: string | undefined;
  addedAt?: string | undefined;
  watchedAt?: string | undefined;
  rating?: string | undefined;
  uri?: string | undefined;
  review?: string | undefined;
  /** The feed's `tmdb:movieId` (the export has none). */
  tmdbId?: string | undefined;
}

/**
 * A Letterboxd link as the film's own: `https://letterboxd.com/alice/film/aftersun/1/`
 * (a member's diary entry or review, as the feed links it and as an app syndicates a
 * post to it) → `https://letterboxd.com/film/aftersun/`; the film's own link as it is;
 * anything else (an export's `https://boxd.it/…` short link, which names no film without
 * asking Letterboxd) undefined. One film, one source ID, however it was linked: a film the
 * owner posted with a syndication link is then the film a later sync reads.
 */
export function filmLink(link: string | undefined): string | undefined {
  const m = link ? /^https:\/\/(?:www\.)?letterboxd\.com\/(?:[^/?#]+\/)?film\/([^/?#]+)(?:[/?#]|$)/.exec(link) : null;
  return m ? `https://letterboxd.com/film/${m[1]}/` : undefined;
}

/** The one mapping of a Letterboxd film onto a movie record, for the export and the feed. */
export function mapFilm(film: FilmRaw): Mapped {
  // A film without a title is left to the schema, which names it with every other problem at once.
  return {
    fields: {
      title: film.name,
      type: 'movie',
      year: number(film.year),
      addedAt: film.addedAt,
      watchedAt: film.watchedAt,
      rating: number(film.rating),
      tmdbId: number(film.tmdbId),
      letterboxdUri: film.uri,
      review: film.review?.replace(/\r\n/g, '\n'),
    },
  };
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const present = FILES.flatMap((name) =>
    entriesNamed(context.input, new RegExp(`^${name.replace('.', '\\.')}$`))
      .slice(0, 1)
      .map((entry) => ({ name, entry })),
  );
  if (present.length === 0) throw new ImportRefused(`${context.input.shown} is not a Letterboxd export: it has none of ${FILES.join(', ')}.`);
  const films = new Map<string, Film>();
  for (const { name, entry } of present) {
    const rank = FILES.indexOf(name);
    for await (const row of readCsv(entry, `a Letterboxd ${name}`, COLUMNS)) {
      const title = row.get('name') ?? '';
      const year = row.get('year');
      const key = `${title}\u0000${year ?? ''}`;
      const film = films.get(key) ?? { origin: `${name} row ${row.row}`, name: title, year };
      films.set(key, film);
      const date = row.get('date');
      const watched = row.get('watchedDate');
      film.addedAt = minDate(film.addedAt, date);
      if (name === 'diary.csv' || name === 'reviews.csv') film.watchedAt = maxDate(film.watchedAt, watched ?? date);
      const uri = row.get('uri');
      // The film's own link (watched.csv, ratings.csv) rather than one diary entry's.
      if (uri && (!film.uri || rank < film.uri.rank)) film.uri = { value: uri, rank };
      const rating = row.get('rating');
      const at = watched ?? date ?? '';
      if (rating !== undefined) {
        const current = name === 'ratings.csv';
        if (!film.rating || (current && !film.rating.current) || (!film.rating.current && at >= film.rating.at)) film.rating = { value: rating, current, at };
      }
      const review = row.get('review');
      if (review !== undefined && (!film.review || at >= film.review.at)) film.review = { text: review, at };
    }
  }
  for (const film of films.values()) {
    const mapped = mapFilm({
      name: film.name,
      year: film.year,
      addedAt: film.addedAt,
      watchedAt: film.watchedAt,
      rating: film.rating?.value,
      uri: film.uri?.value,
      review: film.review?.text,
    });
    if ('fields' in mapped) yield { origin: film.origin, fields: mapped.fields };
    else if ('problem' in mapped) context.problem({ origin: film.origin, ...mapped.problem });
    else context.dropped(mapped.skip);
  }
}

export const letterboxd: ImportSource = {
  name: 'letterboxd',
  collection: 'movies',
  // Read as the film's link, so a record written with another link to the same film (a Micropub post's syndication) matches.
  sourceIdOf: (r) => (typeof r.letterboxdUri === 'string' ? (filmLink(r.letterboxdUri) ?? r.letterboxdUri) : undefined),
  fileOf: (r) => `letterboxd-${yearPart(r.addedAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.addedAt ?? '')}\u0000${String(r.title ?? '')}\u0000${String(r.year ?? '')}`,
  dateOf: (r) => (typeof r.watchedAt === 'string' ? r.watchedAt : typeof r.addedAt === 'string' ? r.addedAt : undefined),
  read,
};
