/** Music: tracks, albums and artists the owner keeps, with the stance the taste profile publishes. */
import { z } from 'zod';
import { define, knownText, text } from './define.ts';
import { bookkeeping, isoDateOrDateTime, longText, names, shortText } from './fields.ts';

export const MUSIC_TYPES = ['track', 'album', 'artist'] as const;
export const STANCES = ['love', 'like', 'neutral', 'dislike'] as const;

export default define({
  name: 'music',
  title: 'Music',
  description: 'Tracks, albums and artists, with how the owner feels about them.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    type: z.enum(MUSIC_TYPES),
    artist: shortText,
    album: shortText.optional(),
    year: z.number().int().min(1000).max(2100).optional(),
    genres: names.default([]),
    stance: z.enum(STANCES).default('like'),
    durationSeconds: z.number().int().min(1).max(100_000).optional(),
    addedAt: isoDateOrDateTime,
    externalIds: z
      .strictObject({
        musicbrainz: z.string().uuid().optional(),
        isrc: z
          .string()
          .regex(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/, 'expected an ISRC such as GBAYE6900520')
          .optional(),
        spotify: z
          .string()
          .regex(/^[0-9A-Za-z]{22}$/)
          .optional(),
      })
      .optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['type', 'artist', 'title', 'album'],
  bodyField: 'notes',
  filters: {
    genre: text('genres', 'Genre'),
    type: knownText('type', MUSIC_TYPES, 'Track, album or artist'),
  },
  search: ['title', 'artist', 'album'],
  recommend: {
    fields: { genres: 'genre', artist: 'artist', title: 'title' },
    decadeField: 'year',
    namedBy: ['listen', 'music', 'song', 'songs', 'album', 'albums', 'track', 'tracks'],
  },
  sort: { addedAt: 'date', title: 'text', artist: 'text', year: 'number' },
  defaultSort: [{ field: 'addedAt', direction: 'desc' }],
  dateField: 'addedAt',
});
