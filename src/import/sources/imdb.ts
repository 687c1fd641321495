/**
 * IMDb (Your Ratings → ⋮ → Export): a ratings CSV. One movie record per rated film or
 * series, its IMDb id (`Const`) as the source ID: the owner's rating halved onto the
 * site's 0.5–5 scale, the date rated as `addedAt`, and what IMDb states about the title
 * (type, year, release date, runtime, genres, directors). Episodes, video games and music
 * videos are left out (not films or series); IMDb's own average and vote count are not
 * the owner's and are not kept. `Title Type` is read in both spellings the exports use
 * (`Movie`/`movie`, `TV Series`/`tvSeries`).
 */
import { readCsv, type Columns } from '../csv.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type ReadContext } from '../source.ts';

type Key = 'const' | 'rating' | 'dateRated' | 'title' | 'titleType' | 'runtime' | 'year' | 'genres' | 'releaseDate' | 'directors';

const COLUMNS: Columns<Key> = {
  const: { names: ['Const'], required: true },
  rating: { names: ['Your Rating'], required: true },
  dateRated: { names: ['Date Rated'], required: true },
  title: { names: ['Title'], required: true },
  titleType: { names: ['Title Type'], required: true },
  year: { names: ['Year'], required: true },
  runtime: { names: ['Runtime (mins)'] },
  genres: { names: ['Genres'] },
  releaseDate: { names: ['Release Date'] },
  directors: { names: ['Directors'] },
};

/** Title types by their folded spelling (`TV Series` and `tvSeries` both → `tvseries`). */
const TYPES: Record<string, 'movie' | 'tv' | null> = {
  movie: 'movie',
  tvmovie: 'movie',
  short: 'movie',
  tvshort: 'movie',
  video: 'movie',
  tvspecial: 'movie',
  tvseries: 'tv',
  tvminiseries: 'tv',
  tvepisode: null,
  videogame: null,
  musicvideo: null,
  podcastseries: null,
  podcastepisode: null,
};

const list = (cell: string | undefined) =>
  cell
    ? cell
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const int = (cell: string | undefined) => (cell === undefined ? undefined : /^\d+$/.test(cell) ? Number(cell) : cell);

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const csvs = context.input.entries.filter((e) => /\.csv$/i.test(e.name));
  if (csvs.length !== 1) throw new ImportRefused(`${context.input.shown} is not an IMDb ratings export: expected one CSV file, found ${csvs.length}.`);
  const entry = csvs[0]!;
  for await (const row of readCsv(entry, 'an IMDb ratings export', COLUMNS)) {
    const origin = `${entry.name} row ${row.row}`;
    const typeCell = row.get('titleType') ?? '';
    const type = TYPES[typeCell.toLowerCase().replace(/[^a-z]/g, '')];
    if (type === undefined) {
      context.problem({ origin, field: 'Title Type', reason: `unknown title type ${typeCell || '(empty)'}` });
      continue;
    }
    if (type === null) {
      context.dropped(`${typeCell} ratings`);
      continue;
    }
    const rating = row.get('rating');
    yield {
      origin,
      fields: {
        title: row.get('title'),
        type,
        year: int(row.get('year')),
        releaseDate: row.get('releaseDate'),
        addedAt: row.get('dateRated'),
        genres: list(row.get('genres')),
        director: list(row.get('directors')),
        runtimeMinutes: int(row.get('runtime')),
        rating: rating !== undefined && /^\d+$/.test(rating) ? Number(rating) / 2 : rating,
        imdbId: row.get('const'),
      },
    };
  }
}

export const imdb: ImportSource = {
  name: 'imdb',
  collection: 'movies',
  sourceIdOf: (r) => (typeof r.imdbId === 'string' ? r.imdbId : undefined),
  fileOf: (r) => `imdb-${yearPart(r.addedAt)}.yaml`,
  sortKeyOf: (r) => `${String(r.addedAt ?? '')}\u0000${String(r.imdbId ?? '')}`,
  dateOf: (r) => (typeof r.addedAt === 'string' ? r.addedAt : undefined),
  read,
};
