import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { firstInstant, withZoneOffset } from '../../src/core/zone.ts';

const HOUR = 3_600_000;
/** The zone's UTC offset at an instant, as Intl names it (an oracle independent of zone.ts). */
function offset(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(ms);
  const m = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(parts.find((p) => p.type === 'timeZoneName')!.value)!;
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

test('a local time given its zone’s offset names the instant the zone gives it', () => {
  const zones = ['Europe/Zurich', 'Europe/Lisbon', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns'];
  fc.assert(
    fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1990, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 }), (zone, minute) => {
      const ms = minute * 60_000;
      // Wall times repeated or skipped by a change are ambiguous by nature; leave them out.
      fc.pre(offset(zone, ms - 3 * HOUR) === offset(zone, ms + 3 * HOUR));
      const local = new Date(ms + offset(zone, ms)).toISOString().slice(0, 16);
      const resolved = withZoneOffset(local, zone);
      assert.ok(resolved.startsWith(local), resolved);
      assert.equal(Date.parse(resolved), ms, `${local} ${zone}`);
      assert.equal(firstInstant(local, zone), ms);
    }),
    { numRuns: 300 },
  );
});

test('times skipped by spring-forward land after the gap; dates and times with an offset stay as written', () => {
  // 02:30 on 2024-03-31 does not exist in Zürich: read with the offset before the gap, it is 03:30 CEST.
  assert.equal(withZoneOffset('2024-03-31T02:30', 'Europe/Zurich'), '2024-03-31T02:30+01:00');
  assert.equal(withZoneOffset('2024-07-01T20:00:30.5', 'Europe/Zurich'), '2024-07-01T20:00:30.5+02:00');
  for (const kept of ['2024-07-01', '2024-07-01T20:00Z', '2024-07-01T20:00+05:30', '2024-07']) assert.equal(withZoneOffset(kept, 'Europe/Zurich'), kept);
  // Local mean time is not whole minutes (Zürich: +00:34:08 until 1894): RFC 3339 cannot say it, so the time stays local.
  assert.equal(withZoneOffset('1890-01-01T12:00', 'Europe/Zurich'), '1890-01-01T12:00');
  assert.equal(firstInstant('2026-11-23', 'Pacific/Auckland'), Date.parse('2026-11-22T11:00:00Z'));
  assert.equal(firstInstant('2026-11-23'), Date.parse('2026-11-23T00:00:00Z'));
  assert.equal(firstInstant('not a date'), undefined);
});
