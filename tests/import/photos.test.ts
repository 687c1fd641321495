/**
 * Photos: a folder of JPEGs with EXIF (one with GPS and an offset, one with GPS and no
 * offset, one with a local time only) gives the golden records and copies the images
 * under content/media/photos: takenAt joined with its offset, or in the zone of its GPS
 * position, or left local (no zone guessed); coordinates from EXIF; no alt text made
 * up — each photo is private until the owner describes it, and the report lists them.
 * The photos schema still refuses a public photo without alt.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import photos from '../../src/collections/photos.ts';
import { buildRecords } from '../../src/compile/content/records.ts';
import { FIXTURES, goldenImport, snapshot, writtenText } from './harness.ts';

test('photos: EXIF folder gives the golden records and images; no alt text is invented', () => {
  const { content, run } = goldenImport('photos', join(FIXTURES, 'photos', 'export'));
  assert.match(run.stdout, /3 new/);
  assert.match(run.stdout, /3 photo\(s\) are private until you describe them/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /^  alt:/m);
  assert.match(text, /takenAt: 2024-06-15T20:45:10\+02:00\n/, 'the EXIF offset');
  assert.match(text, /takenAt: 2022-10-01T18:30:00\+01:00\n/, 'the zone of the GPS position (Lisbon, summer time)');
  assert.match(text, /takenAt: 2023-03-02T10:00:00\n/, 'no zone guessed');
  assert.match(text, /coordinates: \{latitude: 47\.37175, longitude: 8\.545833\}\n  coordinatesSource: exif/);
  assert.ok(snapshot(content).has('media/photos/2024/zurich-lake-evening.jpg'));
});

test('photos schema: a public photo without alt is still refused; a private one waits', () => {
  const base = { title: 'x', src: '/photos/x.jpg', takenAt: '2024-01-01T10:00:00Z', width: 10, height: 10 };
  const { problems, records } = buildRecords(
    photos,
    [
      { origin: 'public', data: base },
      { origin: 'private', data: { ...base, src: '/photos/y.jpg', visibility: 'private' } },
    ],
    { siteUrl: 'http://localhost', now: 0 },
  );
  assert.deepEqual(
    problems.map((p) => `${p.origin} ${p.field}`),
    ['public alt'],
  );
  assert.equal(records.length, 0, 'the private one is never published');
});
