/** Books: read, reading and abandoned, with rating and the ISBN-13 that identifies the edition. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, isoDate, longText, names, shortText } from './fields.ts';

/** ISBN-13 checksum: weights 1,3,1,3… over 13 digits sum to a multiple of ten. */
function validIsbn13(isbn: string): boolean {
  if (!/^97[89]\d{10}$/.test(isbn)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(isbn[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

export default define({
  name: 'books',
  title: 'Books',
  description: 'Books read, being read, and given up on.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    author: shortText,
    coAuthors: names.default([]),
    // Unquoted in YAML an ISBN reads as a number; thirteen digits are exact in a double.
    isbn: z
      .union([z.string(), z.number().int().nonnegative()])
      .transform((s) => String(s).replace(/[-\s]/g, ''))
      .refine(validIsbn13, 'expected a valid ISBN-13')
      .optional(),
    // Goodreads' own book id: what matches a re-import when the edition has no ISBN (issue 30).
    goodreadsId: z
      .string()
      .regex(/^\d{1,20}$/, 'expected the numeric Goodreads book id as a quoted string')
      .optional(),
    publishedYear: z.number().int().min(-3000).max(2100).optional(),
    pages: z.number().int().min(1).max(100_000).optional(),
    genres: names.default([]),
    status: z.enum(['to-read', 'reading', 'finished', 'abandoned']),
    startedAt: isoDate.optional(),
    finishedAt: isoDate.optional(),
    rating: z.number().min(0).max(5).multipleOf(0.5).optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['title', 'author'],
  bodyField: 'notes',
  filters: { author: text('author', 'Author') },
  search: ['title', 'author', 'coAuthors'],
  recommend: {
    fields: { genres: 'genre', author: 'author', title: 'title' },
    namedBy: ['read', 'reading', 'book', 'books'],
    hintedBy: ['novel', 'novels'],
  },
  sort: { finishedAt: 'date', title: 'text', author: 'text', rating: 'number' },
  defaultSort: [{ field: 'finishedAt', direction: 'desc' }],
  dateField: 'finishedAt',
});
