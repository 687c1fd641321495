/**
 * Goodreads (My Books → Import and export → Export Library): `goodreads_library_export.csv`.
 * One book record per row: the ISBN-13 unwrapped from Excel's `="…"` (or made from the
 * ISBN-10, which names the same edition), the exclusive shelf as the status, `My Rating`
 * 0 read as unrated, `Date Read` as the finish date, the review as notes (its `<br/>`
 * line breaks as new lines). Matched by ISBN, else by Goodreads' book id. Never kept:
 * `Private Notes`, the custom shelves, `Date Added`, `Spoiler`, read and owned counts.
 */
import { entriesNamed } from '../archive.ts';
import { readCsv, type Columns } from '../csv.ts';
import { ImportRefused } from '../problems.ts';
import { yearPart, type Candidate, type ImportSource, type Mapped, type ReadContext } from '../source.ts';

type Key =
  | 'id'
  | 'title'
  | 'author'
  | 'additional'
  | 'isbn'
  | 'isbn13'
  | 'rating'
  | 'pages'
  | 'year'
  | 'originalYear'
  | 'dateRead'
  | 'shelf'
  | 'review'
  | 'privateNotes';

const COLUMNS: Columns<Key> = {
  id: { names: ['Book Id'], required: true },
  title: { names: ['Title'], required: true },
  author: { names: ['Author'], required: true },
  additional: { names: ['Additional Authors'] },
  isbn: { names: ['ISBN'] },
  isbn13: { names: ['ISBN13'], required: true },
  rating: { names: ['My Rating'], required: true },
  pages: { names: ['Number of Pages'] },
  year: { names: ['Year Published'] },
  originalYear: { names: ['Original Publication Year'] },
  dateRead: { names: ['Date Read'] },
  shelf: { names: ['Exclusive Shelf'], required: true },
  review: { names: ['My Review'] },
  privateNotes: { names: ['Private Notes'] },
};

const SHELVES: Record<string, string> = {
  read: 'finished',
  'currently-reading': 'reading',
  'to-read': 'to-read',
  'did-not-finish': 'abandoned',
  dnf: 'abandoned',
  abandoned: 'abandoned',
};

/** `="9780…"` (Excel's way of keeping leading zeros) → `9780…`; `=""` → undefined. */
const unwrap = (cell: string | undefined) => cell?.replace(/^="?/, '').replace(/"$/, '').trim() || undefined;

/** The ISBN-13 of an ISBN-10 (978 prefix, new check digit): the same edition, not a guess. */
function isbn13Of(isbn10: string): string | undefined {
  if (!/^\d{9}[\dX]$/.test(isbn10)) return undefined;
  const base = `978${isbn10.slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(base[i]) * (i % 2 === 0 ? 1 : 3);
  return `${base}${(10 - (sum % 10)) % 10}`;
}

const int = (cell: string | undefined) => (cell === undefined ? undefined : /^-?\d+$/.test(cell) ? Number(cell) : cell);
const date = (cell: string | undefined) => cell?.replace(/^(\d{4})\/(\d{2})\/(\d{2})$/, '$1-$2-$3');

/**
 * One book as Goodreads gives it (a row of the library export, or an item of a shelf's
 * RSS feed, src/sync/sources/goodreads.ts), as text the way it came. ISBNs may still be
 * wrapped in Excel's `="…"`; dates are `YYYY/MM/DD` or `YYYY-MM-DD`.
 */
export interface BookRaw {
  id: string | undefined;
  title: string | undefined;
  author: string | undefined;
  additional?: string | undefined;
  isbn10?: string | undefined;
  isbn13?: string | undefined;
  rating: string | undefined;
  pages?: string | undefined;
  year?: string | undefined;
  originalYear?: string | undefined;
  dateRead?: string | undefined;
  /** The exclusive shelf (the export's `Exclusive Shelf`, the feed's shelf). */
  shelf: string;
  review?: string | undefined;
}

/** The one mapping of a Goodreads book onto a books record, for the export and the shelves' feeds. */
export function mapBook(book: BookRaw): Mapped {
  const status = SHELVES[book.shelf];
  if (!status)
    return { problem: { field: 'Exclusive Shelf', reason: `the shelf ${book.shelf || '(empty)'} is not one of ${Object.keys(SHELVES).join(', ')}` } };
  const rating = int(book.rating);
  const isbn10 = unwrap(book.isbn10);
  return {
    fields: {
      title: book.title,
      author: book.author,
      coAuthors: book.additional
        ? book.additional
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean)
        : undefined,
      isbn: unwrap(book.isbn13) ?? (isbn10 ? isbn13Of(isbn10) : undefined),
      goodreadsId: book.id,
      publishedYear: int(book.originalYear ?? book.year),
      pages: int(book.pages),
      status,
      finishedAt: date(book.dateRead),
      rating: rating === 0 ? undefined : rating,
      notes: book.review?.replace(/<br\s*\/?>/gi, '\n'),
    },
  };
}

async function* read(context: ReadContext): AsyncGenerator<Candidate> {
  const entry =
    entriesNamed(context.input, /^goodreads_library_export.*\.csv$/i)[0] ?? (context.input.entries.length === 1 ? context.input.entries[0] : undefined);
  if (!entry) throw new ImportRefused(`${context.input.shown} is not a Goodreads export: it has no goodreads_library_export.csv.`);
  for await (const row of readCsv(entry, 'the Goodreads library export (goodreads_library_export.csv)', COLUMNS)) {
    const origin = `${entry.name} row ${row.row}`;
    const mapped = mapBook({
      id: row.get('id'),
      title: row.get('title'),
      author: row.get('author'),
      additional: row.get('additional'),
      isbn10: row.get('isbn'),
      isbn13: row.get('isbn13'),
      rating: row.get('rating'),
      pages: row.get('pages'),
      year: row.get('year'),
      originalYear: row.get('originalYear'),
      dateRead: row.get('dateRead'),
      shelf: row.get('shelf') ?? '',
      review: row.get('review'),
    });
    if ('problem' in mapped) {
      context.problem({ origin, ...mapped.problem });
      continue;
    }
    // Read only to say how many were left out: private notes never reach a content file.
    if (row.get('privateNotes') !== undefined) context.dropped('private notes');
    if ('skip' in mapped) context.dropped(mapped.skip);
    else yield { origin, fields: mapped.fields };
  }
}

export const goodreads: ImportSource = {
  name: 'goodreads',
  collection: 'books',
  sourceIdOf: (r) =>
    r.isbn !== undefined ? `isbn:${String(r.isbn).replace(/[-\s]/g, '')}` : typeof r.goodreadsId === 'string' ? `goodreads:${r.goodreadsId}` : undefined,
  fileOf: (r) => (typeof r.finishedAt === 'string' ? `goodreads-${yearPart(r.finishedAt)}.yaml` : `goodreads-${String(r.status)}.yaml`),
  sortKeyOf: (r) => `${String(r.finishedAt ?? '')}\u0000${String(r.title ?? '')}\u0000${String(r.goodreadsId ?? '')}`,
  dateOf: (r) => (typeof r.finishedAt === 'string' ? r.finishedAt : undefined),
  read,
};
