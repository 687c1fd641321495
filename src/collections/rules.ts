/**
 * The cross-field rules a declaration lists in `rules`: what a schema alone cannot say
 * because it needs two fields at once or the build's present. Each is a small function
 * of the record (and `now`), shared by every collection that needs it, so one concern has
 * one implementation. A problem names the field to change and says what to do.
 */
import type { RecordRule, SourceRecord } from './define.ts';
import { instantKey } from '../core/image.ts';
import { firstInstant, withZoneOffset } from '../core/zone.ts';

const str = (record: SourceRecord, field: string) => (typeof record[field] === 'string' ? (record[field] as string) : undefined);
const code = (s: string) => `\`${s}\``;
const list = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
/** The build's present as the problems show it: to the minute, in UTC. */
const shown = (now: number) => `${new Date(now).toISOString().slice(0, 16)}Z`;

/**
 * Local date-times (no `Z`, no offset) of `fields` are read in the zone the record names
 * in `zoneField` and published with that zone's offset then (`2024-05-01T20:00` in
 * Europe/Zurich → `2024-05-01T20:00+02:00`): the wall clock the owner wrote, now naming
 * one instant, so sorting, `since`, the feeds and every surface agree on it. Records
 * without a zone keep their local times, which count as UTC.
 */
export function localTimesIn(zoneField: string, fields: readonly string[]): RecordRule {
  return {
    fields: [zoneField, ...fields],
    description: `local date-times in ${list(fields.map(code))} are read in ${code(zoneField)} and published with its offset`,
    apply(record) {
      const zone = str(record, zoneField);
      if (zone === undefined) return {};
      const settled: SourceRecord = {};
      for (const field of fields) {
        const value = str(record, field);
        if (value !== undefined && withZoneOffset(value, zone) !== value) settled[field] = withZoneOffset(value, zone);
      }
      return { settled };
    },
  };
}

/**
 * Orders two dates or date-times at the precision they share: a month or a date against
 * a date-time compares the calendar date; two date-times compare as instants (a local
 * time counting as UTC, as sorting does).
 */
function compareTimes(a: string, b: string): number {
  const [x, y] =
    a.length > 10 && b.length > 10
      ? [instantKey(a), instantKey(b)]
      : [a.slice(0, Math.min(a.length, b.length, 10)), b.slice(0, Math.min(a.length, b.length, 10))];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `endField`, when given, is not before `startField`. */
export function endNotBefore(startField: string, endField: string): RecordRule {
  return {
    fields: [startField, endField],
    description: `${code(endField)} is not before ${code(startField)}`,
    apply(record) {
      const start = str(record, startField);
      const end = str(record, endField);
      if (start === undefined || end === undefined || compareTimes(end, start) >= 0) return {};
      return { problems: [{ field: endField, reason: `ends before it starts: ${end} is before ${startField} ${start} (swapped, or a typo in either?)` }] };
    },
  };
}

/** The number in `field` is at most the one in `boundField`, when both are given. */
export function atMost(field: string, boundField: string, why: string): RecordRule {
  return {
    fields: [field, boundField],
    description: `${code(field)} is at most ${code(boundField)}`,
    apply(record) {
      const value = record[field];
      const bound = record[boundField];
      if (typeof value !== 'number' || typeof bound !== 'number' || value <= bound) return {};
      return { problems: [{ field, reason: `${value} is more than ${boundField} ${bound}: ${why}` }] };
    },
  };
}

interface DatedStatus {
  /** The status field. */
  field: string;
  /** The field of the date it is about, and the field naming the record's zone (a date alone starts at its midnight there). */
  date: string;
  zone?: string;
}

/** Whether the record's date is after the build's present. */
const ahead = (record: SourceRecord, { date, zone }: DatedStatus, now: number) => {
  const value = str(record, date);
  const at = value === undefined ? undefined : firstInstant(value, zone && str(record, zone));
  return at !== undefined && at > now;
};

/**
 * Values of `field` that say something has happened (attended, completed) cannot stand
 * while its date is after the build's present. Only that direction is checked: a date
 * that has passed while the record still says `scheduled` or `planned` is stale, not
 * contradictory, and a build must not start failing because time went by.
 */
export function happenedOnlyOnceDue(options: DatedStatus & { values: readonly string[]; instead: string }): RecordRule {
  const { field, date, zone, values, instead } = options;
  return {
    fields: [field, date, ...(zone ? [zone] : [])],
    description: `${code(field)} is not ${list(values)} while ${code(date)} is after the build date`,
    apply(record, { now }) {
      const value = str(record, field);
      if (value === undefined || !values.includes(value) || !ahead(record, options, now)) return {};
      return {
        problems: [
          { field, reason: `${value}, but ${date} ${str(record, date)} is after the build date (${shown(now)}): set ${instead} until it has happened` },
        ],
      };
    },
  };
}

/**
 * A status the owner may leave out, settled from the date: `upcoming` while the date is
 * after the build's present, `happened` once it has come. A `happened` status the owner
 * wrote for a date still ahead is a problem (see `happenedOnlyOnceDue`).
 */
export function statusFromDate(options: DatedStatus & { happened: string; upcoming: string }): RecordRule {
  const { field, date, happened, upcoming } = options;
  const check = happenedOnlyOnceDue({ ...options, values: [happened], instead: `${upcoming} (or leave ${field} out)` });
  return {
    fields: check.fields,
    description: `${code(field)} left out is ${upcoming} while ${code(date)} is after the build date, else ${happened}; ${check.description}`,
    apply(record, context) {
      if (context.given(field)) return check.apply(record, context);
      return { settled: { [field]: ahead(record, options, context.now) ? upcoming : happened } };
    },
  };
}

/** Where a position came from only means something beside the position. */
export function provenanceWithCoordinates(): RecordRule {
  const provenance = ['coordinatesSource', 'coordinatesLicense'];
  return {
    fields: ['coordinates', ...provenance],
    description: `${provenance.map(code).join(' and ')} need \`coordinates\``,
    apply(record) {
      if (record.coordinates !== undefined) return {};
      const problems = provenance
        .filter((field) => record[field] !== undefined)
        .map((field) => ({ field, reason: 'says where the coordinates came from, but the record has no coordinates (check their spelling and indentation)' }));
      return { problems };
    },
  };
}

/**
 * `field` is required of every record that is published: a private record (one the owner
 * keeps to finish later, such as an imported photo still waiting for its alt text) may
 * leave it out, since private records never leave the owner's files.
 */
export function requiredUnlessPrivate(field: string, why: string): RecordRule {
  return {
    fields: [field, 'visibility'],
    description: `${code(field)} is required unless the record is \`visibility: private\``,
    requiredWhenPublished: [field],
    apply(record) {
      if (record[field] !== undefined || record.visibility === 'private') return {};
      return { problems: [{ field, reason: `required field is missing: ${why} (a record marked visibility: private may wait for it)` }] };
    },
  };
}
