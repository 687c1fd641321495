/**
 * `h-event` → events (issue 40): `name`, `start`, `end`, `url`, `content`, and where —
 * a `location` h-card or h-adr (`name` is the venue; `locality`, `country-name`,
 * `latitude`, `longitude`), or, in a form post that cannot nest, `locality` and
 * `country-name` on the event itself. The event's type (conference, festival…) is its
 * first category, lowercased; an event needs one, and a city and a country.
 * Coordinates a client sends for an event are the owner's own (`manual`).
 */
import { dateTimeOf, first, numberOf, objectOf, text, urlOf } from '../mf2.ts';
import { bodyOf, defined, properties, unread, visibilityOf, wordCategories, type PostType } from '../post-type.ts';

const READ = ['name', 'start', 'end', 'url', 'location', 'locality', 'country-name', 'content', 'category', 'description'];

export const events: PostType = {
  type: 'event',
  name: 'Event attended (events)',
  collection: 'events',
  marker: 'h-event',
  matches: (entry) => entry.type.includes('h-event'),
  toFields(entry, { base }) {
    const title = text(entry, 'name');
    const startDate = dateTimeOf(first(entry, 'start')) ?? (base?.startDate as string | undefined);
    const where = objectOf(entry, 'location');
    const city = text(where, 'locality') ?? text(entry, 'locality');
    const country = text(where, 'country-name') ?? text(entry, 'country-name');
    const type = wordCategories(entry)[0]?.toLowerCase() ?? (base?.type as string | undefined);
    const missing = [!title && 'name', !startDate && 'start', !type && 'category (its type)', !city && 'locality', !country && 'country-name'].filter(Boolean);
    if (missing.length) return { ok: false, description: `An event needs ${missing.join(', ')}.` };
    const latitude = numberOf(first(where, 'latitude'));
    const longitude = numberOf(first(where, 'longitude'));
    const located = latitude !== undefined && longitude !== undefined;
    const coordinates = located ? { latitude, longitude } : undefined;
    const sameSpot = base && JSON.stringify(base.coordinates) === JSON.stringify(coordinates);
    return {
      ok: true,
      fields: defined({
        title,
        type,
        startDate,
        endDate: dateTimeOf(first(entry, 'end')) ?? base?.endDate,
        venue: where?.type.includes('h-card') ? text(where, 'name') : base?.venue,
        city,
        country,
        coordinates,
        coordinatesSource: !located ? undefined : sameSpot ? base.coordinatesSource : 'manual',
        url: urlOf(first(entry, 'url'))?.href ?? base?.url,
        notes: bodyOf(entry) ?? text(entry, 'description'),
        visibility: visibilityOf(entry),
      }),
      ignored: unread(entry, READ),
    };
  },
  toProperties(fields) {
    const coordinates = fields.coordinates as { latitude?: number; longitude?: number } | undefined;
    const location = {
      type: [fields.venue ? 'h-card' : 'h-adr'],
      properties: properties({
        name: fields.venue,
        locality: fields.city,
        'country-name': fields.country,
        latitude: coordinates?.latitude,
        longitude: coordinates?.longitude,
      }),
    };
    return {
      type: ['h-event'],
      properties: properties({
        name: fields.title,
        start: fields.startDate,
        end: fields.endDate,
        category: fields.type,
        location,
        url: fields.url,
        content: fields.notes,
        'post-status': fields.visibility === 'private' ? 'draft' : undefined,
      }),
    };
  },
  repeatFields: ['notes'],
  mappedFields: ['title', 'type', 'startDate', 'city', 'country', 'coordinates', 'notes', 'visibility'],
};
