/**
 * schema.org JSON-LD for a record's page, one type per collection (a movie is a Movie or
 * a TVSeries, a concert a MusicEvent, a run an ExerciseAction…), from the record's
 * published fields only. Embedded as a data block (`<script type="application/ld+json">`),
 * which browsers never execute, so the pages' script policy is untouched; `<` is escaped
 * so no record text can close the element.
 */
type Json = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : str(v) ? [String(v)] : []);
const people = (v: unknown) => list(v).map((name) => ({ '@type': 'Person', name }));
const place = (r: Json) =>
  str(r.venue) || str(r.city)
    ? {
        '@type': 'Place',
        name: str(r.venue) ?? str(r.city),
        address: { '@type': 'PostalAddress', addressLocality: str(r.city), addressCountry: str(r.country) },
      }
    : undefined;
const geo = (r: Json) => {
  const c = r.coordinates as { latitude?: number; longitude?: number } | undefined;
  return c && typeof c.latitude === 'number' ? { '@type': 'GeoCoordinates', latitude: c.latitude, longitude: c.longitude } : undefined;
};
const rating = (r: Json) => (typeof r.rating === 'number' ? { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 0 } : undefined);
/** ISO 8601 duration from seconds. */
const duration = (seconds: unknown) => (typeof seconds === 'number' ? `PT${Math.floor(seconds / 60)}M${Math.round(seconds % 60)}S` : undefined);
const eventStatus = (status: unknown) =>
  status === 'cancelled'
    ? 'https://schema.org/EventCancelled'
    : status === 'postponed'
      ? 'https://schema.org/EventPostponed'
      : 'https://schema.org/EventScheduled';

const TYPES: Readonly<Record<string, (r: Json) => Json>> = {
  movies: (r) => ({
    '@type': r.type === 'tv' ? 'TVSeries' : 'Movie',
    name: r.title,
    dateCreated: r.year === undefined ? undefined : String(r.year),
    genre: list(r.genres),
    director: people(r.director),
    actor: people(r.cast),
    duration: typeof r.runtimeMinutes === 'number' ? `PT${r.runtimeMinutes}M` : undefined,
    review: rating(r) ? { '@type': 'Review', reviewRating: rating(r), reviewBody: str(r.review) } : undefined,
  }),
  books: (r) => ({
    '@type': 'Book',
    name: r.title,
    author: people([...list(r.author), ...list(r.coAuthors)]),
    isbn: str(r.isbn),
    numberOfPages: r.pages,
    genre: list(r.genres),
  }),
  places: (r) => ({
    '@type': 'Place',
    name: r.name,
    address: { '@type': 'PostalAddress', streetAddress: str(r.address), addressLocality: str(r.city), addressCountry: str(r.country) },
    geo: geo(r),
    url: str(r.website),
  }),
  concerts: (r) => ({
    '@type': 'MusicEvent',
    name: str(r.title) ?? r.artist,
    performer: { '@type': 'MusicGroup', name: r.artist },
    startDate: r.date,
    endDate: str(r.endDate),
    location: place(r),
    eventStatus: eventStatus(r.status),
  }),
  'sporting-events': (r) => ({
    '@type': 'SportsEvent',
    name: r.title,
    sport: str(r.sport),
    competitor: list(r.teams).map((name) => ({ '@type': 'SportsTeam', name })),
    startDate: r.date,
    endDate: str(r.endDate),
    location: place(r),
    eventStatus: eventStatus(r.status),
  }),
  events: (r) => ({
    '@type': 'Event',
    name: r.title,
    startDate: r.startDate,
    endDate: str(r.endDate),
    location: place(r),
    url: str(r.url),
    eventStatus: eventStatus(r.status),
  }),
  music: (r) =>
    r.type === 'artist'
      ? { '@type': 'MusicGroup', name: r.title, genre: list(r.genres) }
      : {
          '@type': r.type === 'album' ? 'MusicAlbum' : 'MusicRecording',
          name: r.title,
          byArtist: { '@type': 'MusicGroup', name: r.artist },
          genre: list(r.genres),
          duration: duration(r.durationSeconds),
        },
  videos: (r) => ({
    '@type': 'VideoObject',
    name: r.title,
    url: str(r.url),
    uploadDate: str(r.publishedAt),
    duration: duration(r.durationSeconds),
    author: str(r.channel) ? { '@type': 'Person', name: r.channel } : undefined,
  }),
  podcasts: (r) => ({
    '@type': 'PodcastEpisode',
    name: r.title,
    url: str(r.url),
    datePublished: str(r.publishedAt),
    duration: duration(r.durationSeconds),
    partOfSeries: { '@type': 'PodcastSeries', name: r.show },
  }),
  tweets: (r) => ({
    '@type': 'SocialMediaPosting',
    articleBody: r.text,
    url: str(r.url),
    datePublished: r.createdAt,
    author: { '@type': 'Person', name: str(r.authorName) ?? r.author },
  }),
  code: (r) => ({
    '@type': 'SoftwareSourceCode',
    name: r.title,
    codeRepository: str(r.repo),
    programmingLanguage: str(r.language),
    url: str(r.url),
    dateCreated: str(r.date),
  }),
  photos: (r) => ({
    '@type': 'Photograph',
    name: r.title,
    description: r.alt,
    dateCreated: r.takenAt,
    contentLocation: geo(r) ? { '@type': 'Place', geo: geo(r) } : undefined,
    license: str(r.license),
  }),
  work: (r) => ({
    '@type': 'OrganizationRole',
    roleName: r.title,
    startDate: r.startDate,
    endDate: str(r.endDate),
    description: str(r.summary),
    memberOf: { '@type': 'Organization', name: r.company },
  }),
  reading: (r) => ({ '@type': 'Article', name: r.title, url: str(r.url), author: people(r.author) }),
  activities: (r) => ({
    '@type': 'ExerciseAction',
    name: r.title,
    exerciseType: str(r.sportType),
    startTime: r.startDate,
    distance: typeof r.distanceMeters === 'number' ? `${r.distanceMeters} m` : undefined,
  }),
  writing: (r) => ({ '@type': 'Article', name: r.title, url: str(r.url) }),
  blog: (r) => ({
    '@type': 'BlogPosting',
    headline: r.title,
    datePublished: r.publishedAt,
    url: str(r.url),
    description: str(r.summary),
    keywords: list(r.tags),
  }),
};

/** Drops undefined members and empty lists, recursively, so the document says only what the record says. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compact);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      out[k] = compact(v);
    }
    return out;
  }
  return value;
}

/** The JSON-LD document of a record's page at `url`. */
export function recordJsonLd(collection: string, r: Json, url: string): Json {
  const shape = TYPES[collection]?.(r) ?? { '@type': 'Thing', name: r.title ?? r.name };
  return compact({ '@context': 'https://schema.org', ...shape, '@id': url, mainEntityOfPage: url, identifier: r.canonicalId }) as Json;
}

/** The document as the text of a data block: `<` escaped, so no value can end the element. */
export const jsonLdText = (doc: Json) => JSON.stringify(doc).replace(/</g, '\\u003c');
