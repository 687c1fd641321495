/** Movies & TV: films and series watched, with the `recommended` mark the taste summary reads. */
import { z } from 'zod';
import { define, oneOf, text, yearFilter } from './define.ts';
import { bookkeeping, isoDate, isoDateOrDateTime, longText, names, shortText } from './fields.ts';

export default define({
  name: 'movies',
  title: 'Movies & TV',
  description: 'Films and television series watched, rated and recommended.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    type: z.enum(['movie', 'tv']),
    year: z.number().int().min(1870).max(2100),
    releaseDate: isoDate.optional(),
    addedAt: isoDateOrDateTime,
    watchedAt: isoDateOrDateTime.optional(),
    genres: names.default([]),
    director: names.default([]),
    cast: names.default([]),
    runtimeMinutes: z.number().int().min(1).max(10_000).optional(),
    seasons: z.number().int().min(1).max(100).optional(),
    rating: z.number().min(0).max(5).multipleOf(0.5).optional(),
    recommended: z.boolean().default(false),
    imdbId: z
      .string()
      .regex(/^tt\d{7,10}$/)
      .optional(),
    tmdbId: z.number().int().positive().optional(),
    // The film's (or diary entry's) Letterboxd link: the only ID a Letterboxd export carries (issue 30).
    letterboxdUri: z
      .string()
      .regex(/^https:\/\/(?:letterboxd\.com|boxd\.it)\/[^\s]+$/, 'expected a https://letterboxd.com/… or https://boxd.it/… link')
      .optional(),
    review: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['type', 'title', 'year'],
  bodyField: 'review',
  filters: {
    type: oneOf('type', ['movie', 'tv'], 'movie or tv'),
    year: yearFilter(),
    genre: text('genres', 'Genre (any of the record’s genres)'),
    director: text('director', 'Director (any of the record’s directors)'),
    actor: text('cast', 'Cast member'),
  },
  search: ['title'],
  recommend: {
    fields: { genres: 'genre', director: 'director', cast: 'cast', title: 'title', type: 'type' },
    decadeField: 'year',
    namedBy: ['watch', 'film', 'films', 'movie', 'movies', 'series', 'tv', 'show', 'shows'],
  },
  sort: { releaseDate: 'date', year: 'number', addedAt: 'date', title: 'text' },
  defaultSort: [{ field: 'addedAt', direction: 'desc' }],
  dateField: 'addedAt',
});
