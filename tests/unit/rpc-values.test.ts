/**
 * The instants an RPC client receives for published dates (src/rpc/values.ts `toDate`):
 * property-checked against the rule the module states — a calendar date is midnight UTC,
 * a date-time with an offset is that instant, one without is read as UTC — written out
 * independently here as `Date.UTC` arithmetic, invalid dates included (both NaN).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import fc from '../helpers/fc.ts';
import { toDate } from '../../src/rpc/values.ts';

/**
 * Runs a test in a zone far from UTC, so reading a date as local time could not pass for
 * reading it as UTC; only for the test's length, as other files may share the process.
 */
function farFromUtc(t: TestContext): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  process.env.TZ = 'America/New_York';
  t.after(() => {
    process.env.TZ = zone;
  });
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Midnight UTC of a calendar day, or NaN when the day is not in its month. */
function expectedDay(year: number, month: number, day: number): number {
  const time = new Date(0);
  time.setUTCFullYear(year, month - 1, day);
  return time.getUTCFullYear() === year && time.getUTCMonth() === month - 1 && time.getUTCDate() === day ? time.getTime() : NaN;
}

const parts = fc.record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) });

test('a calendar date is midnight UTC of that day; a day not in its month is no instant', (t) => {
  farFromUtc(t);
  fc.assert(
    fc.property(parts, ({ year, month, day }) => {
      const got = toDate(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`).getTime();
      const want = expectedDay(year, month, day);
      // ECMAScript's date-only form accepts day 29–31 of a shorter month and rolls over; either way it is the same instant the T00:00:00Z form names.
      if (Number.isNaN(want)) assert.equal(got, new Date(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T00:00:00Z`).getTime());
      else assert.equal(got, want);
    }),
  );
});

test('a date-time is read with its offset, or as UTC without one', (t) => {
  farFromUtc(t);
  const valid = parts.filter(({ year, month, day }) => !Number.isNaN(expectedDay(year, month, day)));
  fc.assert(
    fc.property(
      valid,
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom('', 'Z', '+02:00', '-05:30'),
      ({ year, month, day }, hour, minute, zone) => {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:00${zone}`;
        const offsetMinutes = zone === '+02:00' ? 120 : zone === '-05:30' ? -330 : 0;
        assert.equal(toDate(text).getTime(), expectedDay(year, month, day) + (hour * 60 + minute - offsetMinutes) * 60_000);
      },
    ),
  );
});
