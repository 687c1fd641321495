/** Concerts: shows attended, with venue, coordinates and the flyer. */
import { z } from 'zod';
import { define, text, yearFilter } from './define.ts';
import { bookkeeping, datedStatus, httpUrl, imageRef, isoDateOrDateTime, located, longText, names, shortText, timeZone, yearOf } from './fields.ts';
import { endNotBefore, localTimesIn, provenanceWithCoordinates, statusFromDate } from './rules.ts';

export default define({
  name: 'concerts',
  title: 'Concerts',
  description: 'Live shows, with venue, line-up and flyer.',
  rest: true,
  schema: z.strictObject({
    artist: shortText,
    title: shortText.optional(),
    supportActs: names.default([]),
    tour: shortText.optional(),
    date: isoDateOrDateTime,
    endDate: isoDateOrDateTime.optional(),
    timezone: timeZone.optional(),
    venue: shortText,
    city: shortText,
    country: shortText,
    ...located,
    flyer: imageRef.optional(),
    setlistUrl: httpUrl.optional(),
    status: datedStatus(['scheduled', 'cancelled', 'postponed', 'completed']),
    rating: z.number().min(0).max(5).multipleOf(0.5).optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['artist', 'date'],
  bodyField: 'notes',
  rules: [
    localTimesIn('timezone', ['date', 'endDate']),
    endNotBefore('date', 'endDate'),
    statusFromDate({ field: 'status', date: 'date', zone: 'timezone', happened: 'completed', upcoming: 'scheduled' }),
    provenanceWithCoordinates(),
  ],
  derive: (r) => ({ year: yearOf(r.date) }),
  derived: ['year'],
  filters: {
    year: yearFilter(),
    artist: text('artist', 'Headlining artist'),
    venue: text('venue', 'Venue'),
    city: text('city', 'City'),
  },
  search: ['artist', 'title', 'supportActs', 'venue', 'city', 'tour'],
  recommend: {
    fields: { artist: 'artist', venue: 'venue', city: 'city' },
    decadeField: 'year',
    namedBy: ['concert', 'concerts'],
    hintedBy: ['gig'],
  },
  sort: { date: 'date', artist: 'text', venue: 'text' },
  defaultSort: [{ field: 'date', direction: 'desc' }],
  dateField: 'date',
});
