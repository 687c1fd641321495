/** Work: the timeline of jobs, education and side work. `year` matches every year a position spans. */
import { z } from 'zod';
import { define, integer, knownText, text } from './define.ts';
import { bookkeeping, httpUrl, isoMonthOrDate, longText, names, shortText } from './fields.ts';
import { endNotBefore } from './rules.ts';

export const WORK_KINDS = ['job', 'freelance', 'education', 'volunteer', 'side-project'] as const;

/** Every calendar year from start to end inclusive; an open position runs to its last update. */
function yearsSpanned(r: Record<string, unknown>): number[] | undefined {
  const start = Number(String(r.startDate).slice(0, 4));
  const endSource = (r.endDate ?? r.updated ?? r.startDate) as string;
  const end = Math.max(start, Number(String(endSource).slice(0, 4)));
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export default define({
  name: 'work',
  title: 'Work',
  description: 'Positions, education and side work over time.',
  rest: true,
  schema: z.strictObject({
    company: shortText,
    title: shortText,
    kind: z.enum(WORK_KINDS),
    startDate: isoMonthOrDate,
    endDate: isoMonthOrDate.optional(),
    location: shortText.optional(),
    remote: z.boolean().default(false),
    url: httpUrl.optional(),
    summary: z.string().max(2000).optional(),
    highlights: z.array(z.string().min(1).max(500)).max(50).default([]),
    skills: names.default([]),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['company', 'title', 'startDate'],
  bodyField: 'notes',
  rules: [endNotBefore('startDate', 'endDate')],
  derive: (r) => ({ years: yearsSpanned(r) }),
  derived: ['years'],
  filters: {
    year: integer('years', 1000, 9999, 'A year the position was held'),
    kind: knownText('kind', WORK_KINDS, 'Kind of work'),
    company: text('company', 'Company or institution'),
  },
  search: ['company', 'title', 'summary'],
  sort: { startDate: 'date', endDate: 'date', company: 'text' },
  defaultSort: [{ field: 'startDate', direction: 'desc' }],
  dateField: 'startDate',
});
