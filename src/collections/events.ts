/** Events: conferences, festivals, exhibitions and talks attended. */
import { z } from 'zod';
import { define, text, yearFilter } from './define.ts';
import { bookkeeping, httpUrl, isoDateOrDateTime, located, longText, shortText, timeZone, yearOf } from './fields.ts';

export default define({
  name: 'events',
  title: 'Events',
  description: 'Conferences, festivals, exhibitions and talks.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    type: z.string().trim().toLowerCase().regex(/^[a-z][a-z -]{1,39}$/, 'expected a lowercase word such as conference'),
    startDate: isoDateOrDateTime,
    endDate: isoDateOrDateTime.optional(),
    timezone: timeZone.optional(),
    venue: shortText.optional(),
    city: shortText,
    country: shortText,
    ...located,
    url: httpUrl.optional(),
    status: z.enum(['scheduled', 'completed', 'cancelled', 'postponed']).default('completed'),
    role: z.enum(['attendee', 'speaker', 'organizer', 'volunteer']).default('attendee'),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['title', 'startDate'],
  bodyField: 'notes',
  derive: (r) => ({ year: yearOf(r.startDate) }),
  derived: ['year'],
  filters: {
    type: text('type', 'Event type, e.g. conference, festival, exhibition'),
    city: text('city', 'City'),
    year: yearFilter(),
  },
  search: ['title', 'venue', 'city'],
  sort: { startDate: 'date', title: 'text' },
  defaultSort: [{ field: 'startDate', direction: 'desc' }],
  dateField: 'startDate',
});
