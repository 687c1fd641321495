/** Tweets: posts kept from the owner's timeline and others worth quoting. */
import { z } from 'zod';
import { define, text } from './define.ts';
import { bookkeeping, httpUrl, isoDateTime, shortText } from './fields.ts';

export default define({
  name: 'tweets',
  title: 'Tweets',
  description: 'Posts kept from the timeline.',
  rest: true,
  schema: z.strictObject({
    // Tweet ids exceed 2^53: unquoted in YAML they would lose digits, so they must be quoted.
    tweetId: z
      .string({ error: 'expected the tweet id as a quoted string (it is too long to be exact as a number)' })
      .regex(/^\d{1,20}$/, 'expected the numeric tweet id'),
    // A Twitter handle, or a fediverse one (`@user@host`) for posts imported from Mastodon (issue 30).
    author: z
      .string()
      .regex(
        /^@?(?:[A-Za-z0-9_]{1,15}|[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,28}[A-Za-z0-9_])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/,
        'expected a handle such as @jack or @user@mastodon.social',
      )
      .transform((h) => (h.startsWith('@') ? h : `@${h}`)),
    authorName: shortText,
    text: z.string().min(1).max(4000),
    createdAt: isoDateTime,
    url: httpUrl,
    inReplyTo: httpUrl.optional(),
    likes: z.number().int().min(0).optional(),
    reposts: z.number().int().min(0).optional(),
    ...bookkeeping,
  }),
  identity: ['tweetId'],
  bodyField: 'text',
  filters: { author: text('author', 'Author handle, with or without @') },
  search: ['text', 'authorName', 'author'],
  sort: { createdAt: 'date', likes: 'number' },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  dateField: 'createdAt',
});
