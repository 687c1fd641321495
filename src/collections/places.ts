/** Places: restaurants, cafés, bars, parks and hotels worth returning to, with located coordinates. */
import { z } from 'zod';
import { define, oneOf, text } from './define.ts';
import { bookkeeping, coordinates, coordinatesSource, httpUrl, isoDate, longText, mapsUrl, shortText } from './fields.ts';

export const PLACE_CATEGORIES = ['food', 'coffee', 'bars', 'nature', 'entertainment', 'lodging', 'other'] as const;

export default define({
  name: 'places',
  title: 'Places',
  description: 'Places worth going back to, with where their coordinates came from.',
  rest: true,
  schema: z.strictObject({
    name: shortText,
    category: z.enum(PLACE_CATEGORIES),
    city: shortText,
    country: shortText,
    neighborhood: shortText.optional(),
    address: shortText.optional(),
    coordinates,
    coordinatesSource,
    coordinatesLicense: z.string().trim().min(1).max(100).optional(),
    website: httpUrl.optional(),
    rating: z.number().min(0).max(5).multipleOf(0.5).optional(),
    visitedAt: isoDate.optional(),
    notes: longText.optional(),
    ...bookkeeping,
  }),
  identity: ['name', 'city'],
  bodyField: 'notes',
  derive: (r) => ({ mapsUrl: mapsUrl(r.coordinates) }),
  derived: ['mapsUrl'],
  filters: {
    city: text('city', 'City'),
    country: text('country', 'Country'),
    category: oneOf('category', PLACE_CATEGORIES, 'Category'),
    neighborhood: text('neighborhood', 'Neighborhood'),
  },
  search: ['name', 'neighborhood', 'city', 'country', 'address'],
  recommend: {
    fields: { category: 'category', city: 'city', neighborhood: 'neighborhood', country: 'country', name: 'name' },
    namedBy: ['eat', 'place', 'places', 'visit'],
    hintedBy: ['restaurant', 'cafe', 'bar'],
  },
  sort: { name: 'text', city: 'text', visitedAt: 'date', rating: 'number' },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  dateField: 'visitedAt',
});
