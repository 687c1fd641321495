/**
 * Wall clocks and instants in IANA time zones, from the runtime's Intl data (the same
 * data the schemas validate zone names with). Node 24 has no Temporal yet; these few
 * functions are what the compiler (local times resolved in a record's zone) and the
 * calendar writer (TZID times and VTIMEZONEs) need of it.
 */

/** A wall-clock reading: what a clock on the wall of `zone` shows. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The instant the wall time names when read as UTC. */
export const wallUtc = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** en-US with a 24-hour clock formats as `M/D/YYYY, HH:MM:SS`. */
const EN_US = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/** The wall clock of `zone` at instant `ms`. */
export function wallAt(ms: number, zone: string): Wall {
  let format = zoneFormats.get(zone);
  if (!format) {
    const n = 'numeric';
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: n, month: n, day: n, hour: n, minute: n, second: n });
    zoneFormats.set(zone, format);
  }
  // Reading the formatted string is three times faster than formatToParts (the VTIMEZONE
  // scans call this tens of thousands of times); the parts remain the fallback.
  const m = EN_US.exec(format.format(ms));
  if (m) return { year: +m[3]!, month: +m[1]!, day: +m[2]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! };
  const p = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, Number(part.value)]));
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** The UTC offset of `zone` at instant `ms`, in milliseconds. */
export const offsetAt = (ms: number, zone: string) => wallUtc(wallAt(ms, zone)) - Math.floor(ms / 1000) * 1000;

/**
 * The instant a wall time in `zone` names. Two passes settle the offset, as Temporal's
 * 'compatible' disambiguation does: a time skipped by a spring-forward gap is read with
 * the offset before the gap (so it lands after it), a repeated autumn time is the first.
 */
export function zonedUtc(wall: Wall, zone: string): number {
  const guess = wallUtc(wall) - offsetAt(wallUtc(wall), zone);
  return wallUtc(wall) - offsetAt(guess, zone);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * A local date-time (`2024-05-01T20:00`, no `Z` nor offset) with the offset `zone` had
 * then appended (`2024-05-01T20:00+02:00`): the same wall clock, now naming one instant.
 * Anything else (a date, a date-time that has its offset) is returned unchanged, and so
 * is a time whose offset is not whole minutes (local mean time before the 20th century),
 * which RFC 3339 cannot write.
 */
export function withZoneOffset(value: string, zone: string): string {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return value;
  const wall = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +(m[6] ?? 0) };
  const offset = wallUtc(wall) - zonedUtc(wall, zone);
  if (offset % 60_000 !== 0) return value;
  const minutes = Math.abs(offset / 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

const WHEN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * The first instant a date or date-time names: a date's midnight, in `zone` when given
 * (else UTC); a local time read in `zone` (else as UTC, as sorting reads it); a time
 * with its offset exactly. Undefined for anything else.
 */
export function firstInstant(value: string, zone?: string): number | undefined {
  const m = WHEN.exec(value);
  if (!m) return undefined;
  if (m[7] !== undefined) return Date.parse(value);
  const wall = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0) };
  return zone ? zonedUtc(wall, zone) : wallUtc(wall);
}
