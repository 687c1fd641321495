/** Writing: the owner's own published pieces; reached through public SQL as `public.writing`. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, httpUrl, isoDate, longText, names, shortText } from './fields.ts';

export default define({
  name: 'writing',
  title: 'Writing',
  description: 'Essays and posts the owner has published.',
  rest: false,
  schema: z.strictObject({
    title: shortText,
    url: httpUrl,
    publishedAt: isoDate,
    summary: z.string().max(2000).optional(),
    tags: names.default([]),
    wordCount: z.number().int().min(0).max(1_000_000).optional(),
    body: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['url'],
  bodyField: 'body',
  filters: { tag: text('tags', 'Tag') },
  search: ['title', 'summary'],
  sort: { publishedAt: 'date', title: 'text' },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  dateField: 'publishedAt',
});
