/**
 * `checkin` → places (issue 40). OwnYourSwarm posts the venue as an h-card: `name`, `url`
 * (its Foursquare page first), `latitude`, `longitude`, `street-address`, `locality`,
 * `country-name`; the entry's `published` is the visit. Coordinates keep their source,
 * as every located record here must: a venue's position is its directory's geocode
 * (`geocoded:foursquare` for a Foursquare venue, else the host of its page), and
 * coordinates with no venue page are the owner's own (`manual`). A place needs its city,
 * country and coordinates, and a category: a category the post names among the
 * collection's (food, coffee, bars…), else `other` — never guessed from the venue's name.
 */
import { PLACE_CATEGORIES } from '../../collections/places.ts';
import { dayOf, first, numberOf, objectOf, text, urlOf } from '../mf2.ts';
import { bodyOf, defined, properties, ratingOf, unread, visibilityOf, wordCategories, type PostType } from '../post-type.ts';

const READ = ['checkin', 'location', 'rating', 'content', 'category', 'syndication'];

/** Where a venue's coordinates came from, from its page's host (`geocoded:<provider>`, src/collections/fields.ts). */
function sourceOf(links: URL[]): string {
  const host = links[0]?.hostname.replace(/^www\./, '').toLowerCase();
  if (!host) return 'manual';
  if (/(^|\.)(foursquare|swarmapp)\.com$/.test(host)) return 'geocoded:foursquare';
  const provider = host.replace(/[^a-z0-9._-]/g, '').slice(0, 41);
  return /^[a-z0-9]/.test(provider) ? `geocoded:${provider}` : 'manual';
}

export const places: PostType = {
  type: 'checkin',
  name: 'Check-in at a venue (places)',
  collection: 'places',
  marker: 'checkin',
  matches: (entry) => entry.properties.checkin !== undefined,
  toFields(entry, { now, base }) {
    const card = objectOf(entry, 'checkin');
    if (!card) return { ok: false, description: 'checkin needs the venue as an h-card (name, locality, country-name, latitude, longitude).' };
    const where = objectOf(entry, 'location');
    const name = text(card, 'name');
    const city = text(card, 'locality') ?? text(where, 'locality');
    const country = text(card, 'country-name') ?? text(where, 'country-name');
    const latitude = numberOf(first(card, 'latitude') ?? first(where, 'latitude'));
    const longitude = numberOf(first(card, 'longitude') ?? first(where, 'longitude'));
    const missing = [
      !name && 'name',
      !city && 'locality',
      !country && 'country-name',
      latitude === undefined && 'latitude',
      longitude === undefined && 'longitude',
    ].filter(Boolean);
    if (missing.length)
      return { ok: false, description: `The checkin h-card needs ${missing.join(', ')}: a place is kept with its city, country and coordinates.` };
    const rating = ratingOf(entry);
    if ('problem' in rating) return { ok: false, description: rating.problem };
    const links = (card.properties.url ?? []).map(urlOf).filter((u): u is URL => u !== undefined);
    const coordinates = { latitude: latitude!, longitude: longitude! };
    const sameSpot = base && JSON.stringify(base.coordinates) === JSON.stringify(coordinates);
    const website = links.find((u) => !/(^|\.)(foursquare|swarmapp)\.com$/.test(u.hostname))?.href;
    const category = wordCategories(entry)
      .map((c) => c.toLowerCase())
      .find((c) => (PLACE_CATEGORIES as readonly string[]).includes(c));
    return {
      ok: true,
      fields: defined({
        name,
        category: category ?? base?.category ?? 'other',
        city,
        country,
        address: text(card, 'street-address') ?? base?.address,
        coordinates,
        coordinatesSource: sameSpot ? base.coordinatesSource : sourceOf(links),
        coordinatesLicense: sameSpot ? base.coordinatesLicense : undefined,
        website: website ?? base?.website,
        rating: rating.rating,
        visitedAt: dayOf(first(entry, 'published')) ?? (base ? base.visitedAt : now.slice(0, 10)),
        notes: bodyOf(entry),
        visibility: visibilityOf(entry),
      }),
      ignored: unread(entry, READ),
    };
  },
  toProperties(fields) {
    const coordinates = fields.coordinates as { latitude?: number; longitude?: number } | undefined;
    const card = {
      type: ['h-card'],
      properties: properties({
        name: fields.name,
        url: fields.website,
        'street-address': fields.address,
        locality: fields.city,
        'country-name': fields.country,
        latitude: coordinates?.latitude,
        longitude: coordinates?.longitude,
      }),
    };
    return {
      type: ['h-entry'],
      properties: properties({
        checkin: card,
        published: fields.visitedAt,
        category: fields.category,
        rating: fields.rating,
        content: fields.notes,
        'post-status': fields.visibility === 'private' ? 'draft' : undefined,
      }),
    };
  },
  repeatFields: ['visitedAt', 'rating'],
  mappedFields: ['name', 'category', 'city', 'country', 'coordinates', 'visitedAt', 'rating', 'notes', 'visibility'],
};
