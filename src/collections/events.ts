/** Events: conferences, festivals, exhibitions and talks attended. */
import { z } from 'zod';
import { define, text, yearFilter } from './define.ts';
import { bookkeeping, datedStatus, httpUrl, isoDateOrDateTime, located, longText, shortText, timeZone, yearOf } from './fields.ts';
import { endNotBefore, localTimesIn, provenanceWithCoordinates, statusFromDate } from './rules.ts';

export default define({
  name: 'events',
  title: 'Events',
  description: 'Conferences, festivals, exhibitions and talks.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    type: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z][a-z -]{1,39}$/, 'expected a lowercase word such as conference'),
    startDate: isoDateOrDateTime,
    endDate: isoDateOrDateTime.optional(),
    timezone: timeZone.optional(),
    venue: shortText.optional(),
    city: shortText,
    country: shortText,
    ...located,
    url: httpUrl.optional(),
    status: datedStatus(['scheduled', 'completed', 'cancelled', 'postponed']),
    role: z.enum(['attendee', 'speaker', 'organizer', 'volunteer']).default('attendee'),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['title', 'startDate'],
  bodyField: 'notes',
  rules: [
    localTimesIn('timezone', ['startDate', 'endDate']),
    endNotBefore('startDate', 'endDate'),
    statusFromDate({ field: 'status', date: 'startDate', zone: 'timezone', happened: 'completed', upcoming: 'scheduled' }),
    provenanceWithCoordinates(),
  ],
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
