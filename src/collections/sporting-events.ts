/** Sporting events: matches and races seen in person or followed on a screen. */
import { z } from 'zod';
import { define, knownText, text, yearFilter } from './define.ts';
import { bookkeeping, datedStatus, httpUrl, isoDateOrDateTime, located, longText, names, shortText, timeZone, yearOf } from './fields.ts';
import { endNotBefore, happenedOnlyOnceDue, localTimesIn, provenanceWithCoordinates, statusFromDate } from './rules.ts';

export const EXPERIENCES = ['in-person', 'tv', 'stream', 'radio'] as const;
export const EXPERIENCE_STATUSES = ['planned', 'attended', 'watched', 'listened', 'missed'] as const;

export default define({
  name: 'sporting-events',
  title: 'Sporting events',
  description: 'Matches and races, in the stadium or on a screen.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    sport: shortText,
    league: shortText.optional(),
    teams: names.min(1),
    date: isoDateOrDateTime,
    endDate: isoDateOrDateTime.optional(),
    timezone: timeZone.optional(),
    venue: shortText,
    city: shortText,
    country: shortText,
    ...located,
    experience: z.enum(EXPERIENCES),
    experienceStatus: z.enum(EXPERIENCE_STATUSES),
    status: datedStatus(['scheduled', 'cancelled', 'postponed', 'completed']),
    result: shortText.optional(),
    seat: shortText.optional(),
    url: httpUrl.optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['sport', 'date', 'title'],
  bodyField: 'notes',
  rules: [
    localTimesIn('timezone', ['date', 'endDate']),
    endNotBefore('date', 'endDate'),
    statusFromDate({ field: 'status', date: 'date', zone: 'timezone', happened: 'completed', upcoming: 'scheduled' }),
    happenedOnlyOnceDue({ field: 'experienceStatus', date: 'date', zone: 'timezone', values: ['attended', 'watched', 'listened'], instead: 'planned' }),
    provenanceWithCoordinates(),
  ],
  derive: (r) => ({ year: yearOf(r.date) }),
  derived: ['year'],
  filters: {
    team: text('teams', 'Team (either side)'),
    sport: text('sport', 'Sport'),
    league: text('league', 'League or competition'),
    year: yearFilter(),
    city: text('city', 'City'),
    venue: text('venue', 'Venue'),
    experience: knownText('experience', EXPERIENCES, 'How it was followed'),
    experienceStatus: knownText('experienceStatus', EXPERIENCE_STATUSES, 'Whether it happened for the owner'),
  },
  search: ['title', 'teams', 'venue', 'league'],
  sort: { date: 'date', title: 'text', sport: 'text' },
  defaultSort: [{ field: 'date', direction: 'desc' }],
  dateField: 'date',
});
