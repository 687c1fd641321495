/**
 * Date-times with an offset are stored as their UTC instant. The build reads the plain
 * RFC 3339 shape by hand (it is on every dated record's path); every text must give the
 * key `Date.parse` gives it, or fail as it does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { instantKey } from '../../src/core/image.ts';

/** The key as Date.parse reads the text: the definition the fast reading must match. */
function parsedKey(text: string): string {
  if (text.length <= 10) return text;
  const iso = new Date(text).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, -5) : iso.slice(0, -1);
}

const outcome = (f: () => string) => {
  try {
    return f();
  } catch (error) {
    return error instanceof RangeError ? 'RangeError' : String(error);
  }
};

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Numbers mostly in range or one past either end, sometimes anything of their width, sometimes not digits at all. */
const part = (max: number, width = 2) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: max + 1 }).map((n) => pad(n, width)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 10 ** width - 1 }).map((n) => pad(n, width)) },
    { weight: 1, arbitrary: fc.constantFrom('', '1', 'x1', '٣٣', ' 1') },
  );

const dateTime = fc
  .tuple(
    part(9999, 4),
    part(12),
    part(31),
    fc.constantFrom('T', 'T', 'T', 't', ' '),
    part(24),
    part(60),
    fc.option(fc.tuple(part(60), fc.option(fc.stringMatching(/^\.\d{0,9}$/), { nil: undefined })), { nil: undefined }),
    fc.oneof(
      fc.constantFrom('Z', 'z', '', '+', '+1:00', 'UTC'),
      fc.tuple(fc.constantFrom('+', '-'), part(24), fc.constantFrom(':', ''), part(60)).map((t) => t.join('')),
    ),
  )
  .map(([y, mo, d, t, h, mi, sec, zone]) => `${y}-${mo}-${d}${t}${h}:${mi}${sec ? `:${sec[0]}${sec[1] ?? ''}` : ''}${zone}`);

test('a date-time’s key is the UTC instant Date.parse reads, or the same RangeError', () => {
  fc.assert(
    fc.property(fc.oneof(dateTime, fc.string({ maxLength: 30 })), (text) => {
      // instantKey reads only texts that end in an offset; others are local times, kept.
      if (!/(Z|[+-]\d\d:\d\d)$/.test(text)) return;
      assert.equal(
        outcome(() => instantKey(text)),
        outcome(() => parsedKey(text)),
        text,
      );
    }),
    { numRuns: 20_000 },
  );
});

test('the plain shapes give their instant', () => {
  assert.equal(instantKey('2024-05-01T20:00+02:00'), '2024-05-01T18:00:00');
  assert.equal(instantKey('2024-05-01T20:00:30.5Z'), '2024-05-01T20:00:30.500');
  assert.equal(instantKey('2024-05-01T20:00:30.123456-01:30'), '2024-05-01T21:30:30.123');
  assert.equal(instantKey('2024-12-31T23:30:00-01:00'), '2025-01-01T00:30:00');
  assert.equal(instantKey('0099-01-01T00:00:00Z'), '0099-01-01T00:00:00');
});
