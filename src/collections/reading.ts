/** Reading: links read and saved, with the domain they came from. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, httpUrl, isoDateOrDateTime, longText, names, shortText } from './fields.ts';

export default define({
  name: 'reading',
  title: 'Reading',
  description: 'Articles and links read and saved.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    url: httpUrl,
    author: shortText.optional(),
    savedAt: isoDateOrDateTime,
    readAt: isoDateOrDateTime.optional(),
    tags: names.default([]),
    excerpt: z.string().max(2000).optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['url'],
  bodyField: 'notes',
  derive: (r) => ({ domain: new URL(String(r.url)).hostname.replace(/^www\./, '') }),
  derived: ['domain'],
  filters: { domain: text('domain', 'Site domain, without www.') },
  search: ['title', 'author', 'excerpt', 'domain'],
  sort: { savedAt: 'date', title: 'text' },
  defaultSort: [{ field: 'savedAt', direction: 'desc' }],
  dateField: 'savedAt',
});
