/**
 * Field schemas shared by the collection declarations: dates, URLs, coordinates with
 * their provenance, and the bookkeeping fields every record may carry. Dates stay
 * ISO 8601 strings end to end (the YAML loader never turns them into Date objects),
 * so what the owner wrote is what every surface publishes — save that a local time in
 * a record with a time zone gains the zone's offset (`localTimesIn`, rules.ts).
 */
import { z } from 'zod';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

function realDay(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

/** A calendar date, `YYYY-MM-DD`. */
export const isoDate = z.string().refine((s) => {
  const m = DATE.exec(s);
  return m !== null && realDay(m[1]!, m[2]!, m[3]!);
}, 'expected a date YYYY-MM-DD');

/** A date-time, `YYYY-MM-DDTHH:MM[:SS[.fff]]`, with `Z` or an offset, or local time when none. */
export const isoDateTime = z.string().refine((s) => {
  const m = DATE_TIME.exec(s);
  return m !== null && realDay(m[1]!, m[2]!, m[3]!);
}, 'expected a date-time YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]');

/** Either of the above: a date alone means the time is not known. */
export const isoDateOrDateTime = z.union([isoDate, isoDateTime], { error: 'expected a date YYYY-MM-DD or a date-time' });

/** A month, `YYYY-MM`, or a full date (work history is often known to the month). */
export const isoMonthOrDate = z.string().refine((s) => {
  const m = /^(\d{4})-(0[1-9]|1[0-2])(?:-(\d{2}))?$/.exec(s);
  return m !== null && (m[3] === undefined || realDay(m[1]!, m[2]!, m[3]));
}, 'expected YYYY-MM or YYYY-MM-DD');

export const httpUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'expected an absolute http(s) URL');

/** A site-relative path or an absolute http(s) URL (images may live in the site or elsewhere). */
export const imageRef = z.union([z.string().regex(/^\/[^\s]*$/, 'expected a path starting with /'), httpUrl]);

export const shortText = z.string().trim().min(1).max(300);
export const longText = z.string().max(20_000);
export const names = z.array(shortText).max(50);

export const coordinates = z.strictObject({
  latitude: z.number().min(-90, 'expected degrees from -90 to 90 (north positive)').max(90, 'expected degrees from -90 to 90 (north positive)'),
  longitude: z.number().min(-180, 'expected degrees from -180 to 180 (east positive)').max(180, 'expected degrees from -180 to 180 (east positive)'),
  altitude: z.number().min(-500, 'expected metres from -500 to 9000').max(9000, 'expected metres from -500 to 9000').optional(),
});

/**
 * Where a record's coordinates came from: `manual`, `gps`, `exif`, or `geocoded:<provider>`.
 * Geocoded and third-party positions usually carry a licence (e.g. ODbL-1.0 for OpenStreetMap).
 */
export const coordinatesSource = z
  .string()
  .regex(/^(manual|gps|exif|geocoded:[a-z0-9][a-z0-9._-]{0,40})$/, 'expected manual, gps, exif or geocoded:<provider>');

export const located = {
  coordinates: coordinates.optional(),
  coordinatesSource: coordinatesSource.optional(),
  coordinatesLicense: z.string().trim().min(1).max(100).optional(),
};

/**
 * The status of something that takes place on a date (an event, a match, a concert).
 * The owner may leave it out: the `statusFromDate` rule (rules.ts) then settles it from
 * the date, so `completed` is only what the schema fills in before that rule runs.
 */
export const datedStatus = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .enum(values)
    .prefault('completed' as T[number])
    .meta({ description: 'When the record does not say: scheduled while the date is after the build date, else completed.' });

/** Zone names already checked (building a formatter per record was most of the cost of checking a file of events). */
const knownZones = new Map<string, boolean>();

/** An IANA time zone name, checked against the zones this runtime knows. */
export const timeZone = z.string().refine((tz) => {
  let known = knownZones.get(tz);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size < 10_000) knownZones.set(tz, known);
  }
  return known;
}, 'expected an IANA time zone such as Europe/Paris');

/** Fields every record may carry. Private records never leave the owner's files. */
export const bookkeeping = {
  visibility: z.enum(['public', 'private']).default('public'),
  /** When the record's published content last changed; drives revision metadata. */
  updated: isoDateOrDateTime.optional(),
  revision: z.number().int().min(0).max(1_000_000).optional(),
};

/** The year of an ISO date or date-time string. */
export const yearOf = (value: unknown): number | undefined => (typeof value === 'string' && /^\d{4}/.test(value) ? Number(value.slice(0, 4)) : undefined);

/** An OpenStreetMap link centred on the coordinates, for records that have them. */
export function mapsUrl(c: unknown): string | undefined {
  if (!c || typeof c !== 'object') return undefined;
  const { latitude, longitude } = c as { latitude: number; longitude: number };
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}
