/** Activities: runs, rides, swims and hikes, as a fitness tracker would export them. */
import { z } from 'zod';
import { define, knownText, yearFilter } from './define.ts';
import { bookkeeping, isoDateTime, located, longText, shortText, yearOf } from './fields.ts';
import { atMost, provenanceWithCoordinates } from './rules.ts';

export const SPORT_TYPES = [
  'Run',
  'TrailRun',
  'Ride',
  'GravelRide',
  'MountainBikeRide',
  'Swim',
  'Hike',
  'Walk',
  'Rowing',
  'NordicSki',
  'AlpineSki',
  'Workout',
] as const;

export default define({
  name: 'activities',
  title: 'Activities',
  description: 'Runs, rides and other recorded activities.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    sportType: z.enum(SPORT_TYPES),
    startDate: isoDateTime,
    distanceMeters: z.number().min(0).max(1_000_000),
    movingTimeSeconds: z.number().int().min(0).max(1_000_000),
    elapsedTimeSeconds: z.number().int().min(0).max(1_000_000).optional(),
    elevationGainMeters: z.number().min(0).max(20_000).optional(),
    averageHeartRate: z.number().min(20).max(250).optional(),
    city: shortText.optional(),
    country: shortText.optional(),
    gear: shortText.optional(),
    stravaId: z
      .string()
      .regex(/^\d{1,20}$/)
      .optional(),
    ...located,
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['startDate', 'sportType'],
  bodyField: 'notes',
  rules: [atMost('movingTimeSeconds', 'elapsedTimeSeconds', 'moving time is the part of the elapsed time spent moving'), provenanceWithCoordinates()],
  derive: (r) => ({ year: yearOf(r.startDate) }),
  derived: ['year'],
  filters: {
    year: yearFilter(),
    sportType: knownText('sportType', SPORT_TYPES, 'Sport type'),
  },
  search: ['title'],
  sort: { startDate: 'date', distanceMeters: 'number', movingTimeSeconds: 'number', title: 'text' },
  defaultSort: [{ field: 'startDate', direction: 'desc' }],
  dateField: 'startDate',
});
