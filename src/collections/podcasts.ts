/** Podcasts: episodes listened to, by show. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, httpUrl, isoDate, isoDateOrDateTime, longText, names, shortText } from './fields.ts';

export default define({
  name: 'podcasts',
  title: 'Podcasts',
  description: 'Podcast episodes listened to.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    show: shortText,
    episode: z.number().int().min(0).max(100_000).optional(),
    url: httpUrl,
    publishedAt: isoDate,
    listenedAt: isoDateOrDateTime.optional(),
    durationSeconds: z.number().int().min(1).max(100_000),
    hosts: names.default([]),
    guests: names.default([]),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['url'],
  bodyField: 'notes',
  filters: { show: text('show', 'Show') },
  search: ['title', 'show', 'guests'],
  sort: { publishedAt: 'date', listenedAt: 'date', title: 'text', show: 'text' },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  dateField: 'publishedAt',
});
