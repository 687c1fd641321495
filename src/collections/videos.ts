/** Videos: talks, documentaries and clips worth keeping. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, httpUrl, isoDate, isoDateOrDateTime, longText, shortText } from './fields.ts';

export default define({
  name: 'videos',
  title: 'Videos',
  description: 'Talks, documentaries and clips worth keeping.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    url: httpUrl,
    channel: shortText,
    platform: z.enum(['youtube', 'vimeo', 'peertube', 'other']).default('youtube'),
    category: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z][a-z -]{1,39}$/, 'expected a lowercase word such as talk'),
    publishedAt: isoDate,
    watchedAt: isoDateOrDateTime.optional(),
    durationSeconds: z.number().int().min(1).max(100_000),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['url'],
  bodyField: 'notes',
  filters: { category: text('category', 'Category, e.g. talk, documentary, music') },
  search: ['title', 'channel'],
  sort: { publishedAt: 'date', watchedAt: 'date', title: 'text', durationSeconds: 'number' },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  dateField: 'publishedAt',
});
