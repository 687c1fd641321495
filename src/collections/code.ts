/** Code: releases, pull requests, repositories and commits worth showing. */
import { z } from 'zod';
import { define, knownText, text, yearFilter } from './define.ts';
import { bookkeeping, httpUrl, isoDateTime, longText, shortText, yearOf } from './fields.ts';

export const CODE_KINDS = ['repository', 'release', 'pull-request', 'commit', 'issue'] as const;

export default define({
  name: 'code',
  title: 'Code',
  description: 'Repositories, releases and pull requests.',
  rest: true,
  schema: z.strictObject({
    kind: z.enum(CODE_KINDS),
    repo: z.string().regex(/^[A-Za-z0-9_.-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/, 'expected owner/name'),
    title: shortText,
    url: httpUrl,
    date: isoDateTime,
    language: shortText.optional(),
    additions: z.number().int().min(0).optional(),
    deletions: z.number().int().min(0).optional(),
    stars: z.number().int().min(0).optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['url'],
  bodyField: 'notes',
  derive: (r) => ({ year: yearOf(r.date) }),
  derived: ['year'],
  filters: {
    kind: knownText('kind', CODE_KINDS, 'Kind of contribution'),
    repo: text('repo', 'Repository, owner/name'),
    year: yearFilter(),
  },
  search: ['title', 'repo'],
  sort: { date: 'date', repo: 'text', title: 'text' },
  defaultSort: [{ field: 'date', direction: 'desc' }],
  dateField: 'date',
});
