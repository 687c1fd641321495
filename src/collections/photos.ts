/** Photos: pictures with when and where they were taken, and where that position came from. */
import { z } from 'zod';
import { define, integer, yearFilter } from './define.ts';
import { bookkeeping, coordinates, coordinatesSource, imageRef, isoDateTime, longText, mapsUrl, shortText, yearOf } from './fields.ts';
import { provenanceWithCoordinates, requiredUnlessPrivate } from './rules.ts';

export default define({
  name: 'photos',
  title: 'Photos',
  description: 'Photographs with capture time and location.',
  rest: true,
  schema: z.strictObject({
    title: shortText,
    src: imageRef,
    // Required of every published photo (the rule below); an imported photo waits for it as a private record.
    alt: z.string().trim().min(1).max(500).optional(),
    takenAt: isoDateTime,
    width: z.number().int().min(1).max(100_000),
    height: z.number().int().min(1).max(100_000),
    camera: shortText.optional(),
    lens: shortText.optional(),
    city: shortText.optional(),
    country: shortText.optional(),
    coordinates: coordinates.optional(),
    coordinatesSource: coordinatesSource.optional(),
    coordinatesLicense: z.string().trim().min(1).max(100).optional(),
    // No default: a photo without a stated licence must not be published as if it had one.
    license: z.string().trim().min(1).max(100).optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['src'],
  bodyField: 'notes',
  rules: [provenanceWithCoordinates(), requiredUnlessPrivate('alt', 'a photo needs alt text describing it')],
  derive: (r) => ({
    year: yearOf(r.takenAt),
    month: typeof r.takenAt === 'string' ? Number(r.takenAt.slice(5, 7)) : undefined,
    mapsUrl: mapsUrl(r.coordinates),
  }),
  derived: ['year', 'month', 'mapsUrl'],
  filters: {
    year: yearFilter(),
    month: integer('month', 1, 12, 'Month, 1–12'),
  },
  search: ['title', 'alt', 'city'],
  sort: { takenAt: 'date', title: 'text' },
  defaultSort: [{ field: 'takenAt', direction: 'desc' }],
  dateField: 'takenAt',
});
