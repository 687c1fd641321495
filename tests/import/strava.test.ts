/**
 * Strava: a bulk export with a German `activities.csv` (localised headers, `Distanz` and
 * `Verstrichene Zeit` repeated, decimal commas) and its GPX, TCX.gz and FIT.gz tracks
 * gives the golden activity records: the start in the zone of the track's first point
 * (Zürich in summer, Berlin in winter, Lisbon in October), UTC for the activity without a
 * track (no zone guessed), the SI distance, coordinates never within the privacy radius of
 * a track's ends, the private note never kept. The same tracks as a folder (`gpx`) give
 * their own golden records. Both re-import without a changed byte; a Strava re-import
 * reads no track whose record cannot change.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { metresBetween } from '../../src/import/track.ts';
import { assertGolden, assertSameFiles, exportZip, FIXTURES, goldenImport, runImport, snapshot, tempDir, writtenText } from './harness.ts';
import { zipFolder } from './zip.ts';

test('strava: the German bulk export gives the golden files; a re-import changes no byte', () => {
  const { content, run } = goldenImport('strava', exportZip('strava'));
  assert.match(run.stdout, /4 new.*left out: 1 private notes/);
  assert.match(run.stdout, /recorded as Workout .*: Klettern/);
  const text = writtenText(content);
  assert.doesNotMatch(text, /Knie|Arzttermin/, 'the private note is dropped');
  assert.match(text, /startDate: 2024-06-15T08:00:00\+02:00\n/);
  assert.match(text, /startDate: 2023-01-08T11:00:00\+01:00\n/);
  assert.match(text, /startDate: 2022-10-01T09:00:00\+01:00\n/);
  assert.match(text, /startDate: 2024-03-15T17:30:00Z\n/, 'no zone guessed without a track');
  assert.match(text, /distanceMeters: 1668\n/, 'the second Distanz column, in metres');
});

test('strava: no coordinate is within the privacy radius of a track’s start or end', () => {
  const { content } = goldenImport('strava', exportZip('strava'));
  const text = writtenText(content);
  const zurichStart = { latitude: 47.37, longitude: 8.54 };
  const zurichEnd = { latitude: 47.385, longitude: 8.54 };
  const at = /coordinates: \{latitude: ([\d.]+), longitude: 8\.54\}/.exec(text)!;
  const point = { latitude: Number(at[1]), longitude: 8.54 };
  assert.ok(metresBetween(point, zurichStart) > 500 && metresBetween(point, zurichEnd) > 500);
  const wide = tempDir('strava-radius');
  assert.equal(runImport(['strava', exportZip('strava'), '--privacy-radius', '5000'], wide).status, 0);
  assert.doesNotMatch(writtenText(wide), /coordinates:/, 'a radius wider than every track leaves no coordinates');
});

test('gpx: a folder of GPX, TCX.gz and FIT.gz tracks gives the golden files; a re-import changes no byte', () => {
  const { content, run } = goldenImport('gpx', join(FIXTURES, 'gpx', 'export'));
  assert.match(run.stdout, /3 new/);
  const text = writtenText(content);
  assert.match(text, /title: Morgenlauf am See\n  sportType: Run\n  startDate: 2024-06-15T08:00:00\+02:00\n/);
  assert.match(text, /title: monsanto\n  sportType: Hike\n/);
});

test('strava: an activities.csv that is neither the English nor the German export is refused', () => {
  const content = tempDir('strava-bad');
  const run = runImport(['strava', join(FIXTURES, 'letterboxd', 'export')], content);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /is not a Strava export: it has no activities\.csv/);
});

test('strava: Activity Date is read in the English form and two German forms, as UTC', async () => {
  const { parseActivityDate } = await import('../../src/import/sources/strava.ts');
  assert.equal(new Date(parseActivityDate('Sep 12, 2018, 3:02:23 PM')!).toISOString(), '2018-09-12T15:02:23.000Z');
  assert.equal(new Date(parseActivityDate('Jan 1, 2026, 12:05:00 AM')!).toISOString(), '2026-01-01T00:05:00.000Z');
  assert.equal(new Date(parseActivityDate('12.09.2018, 15:02:23')!).toISOString(), '2018-09-12T15:02:23.000Z');
  assert.equal(new Date(parseActivityDate('12. Sept. 2018, 15:02:23')!).toISOString(), '2018-09-12T15:02:23.000Z');
  assert.equal(parseActivityDate('yesterday'), undefined);
});

/** The fixture export as a ZIP, after `change` has edited a copy of its folder. */
function changedExport(change: (dir: string) => void): string {
  const dir = join(tempDir('strava-changed'), 'export');
  cpSync(join(FIXTURES, 'strava', 'export'), dir, { recursive: true });
  change(dir);
  const path = join(tempDir('strava-changed-zip'), 'strava.zip');
  writeFileSync(path, zipFolder(dir));
  return path;
}

test('strava: a track file that is not XML is refused, naming its row and file, and nothing is written', () => {
  const path = changedExport((dir) => writeFileSync(join(dir, 'activities', '7000000001.gpx'), 'not a track'));
  const content = tempDir('strava-not-xml');
  const run = runImport(['strava', path], content);
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stderr, /row 2: Filename: activities\/7000000001\.gpx: not well-formed XML \(missing root element\)/);
  assert.equal(snapshot(content).size, 0);
});

test('strava: a re-import reads no track whose record is unchanged; another radius, a changed row or the owner’s edit has it read again', () => {
  const content = tempDir('strava-reuse');
  assert.equal(runImport(['strava', exportZip('strava')], content).status, 0);
  const before = snapshot(content);
  // The Zürich run's track made unreadable: while its record cannot change, the track is not read.
  const breakTrack = (dir: string) => writeFileSync(join(dir, 'activities', '7000000001.gpx'), 'not a track');
  const broken = changedExport(breakTrack);
  const again = runImport(['strava', broken, '--update'], content);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, / 0 new, 4 same, 0 changed, 0 in conflict/);
  assertSameFiles(snapshot(content), before);
  const readsTrack = (args: string[], dir: string) => {
    const run = runImport(args, dir);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /row 2: Filename: activities\/7000000001\.gpx: not well-formed XML/);
  };
  readsTrack(['strava', broken, '--update', '--privacy-radius', '800'], content);
  const renamed = changedExport((dir) => {
    breakTrack(dir);
    const csv = join(dir, 'activities.csv');
    writeFileSync(csv, readFileSync(csv, 'utf8').replace('Morgenlauf am See', 'Morgenlauf am Zürichsee'));
  });
  readsTrack(['strava', renamed, '--update'], content);
  const file = join(content, 'activities', 'strava-2024.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('gear: Hoka Clifton 9', 'gear: Hoka Clifton 9 (retired)'));
  readsTrack(['strava', broken, '--update'], content);
  assertSameFiles(snapshot(content), new Map([...before].map(([f, b]) => [f, f === 'activities/strava-2024.yaml' ? readFileSync(file) : b])));
});

test('strava: records imported with another privacy radius say so in the ledger, and a default re-import reads their tracks again', () => {
  const content = tempDir('strava-radius-ledger');
  assert.equal(runImport(['strava', exportZip('strava')], content).status, 0);
  const wide = runImport(['strava', exportZip('strava'), '--update', '--privacy-radius', '700'], content);
  assert.equal(wide.status, 0, wide.stderr);
  assert.match(wide.stdout, / 0 new, 1 same, 3 changed/);
  const ledger = JSON.parse(readFileSync(join(content, '.import', 'strava.json'), 'utf8')) as { records: Record<string, { privacyRadiusMeters?: number }> };
  assert.deepEqual(
    Object.entries(ledger.records)
      .filter(([, r]) => r.privacyRadiusMeters === 700)
      .map(([id]) => id),
    ['7000000001', '7000000002', '7000000003'],
  );
  const back = runImport(['strava', exportZip('strava'), '--update'], content);
  assert.equal(back.status, 0, back.stderr);
  assert.match(back.stdout, / 0 new, 1 same, 3 changed/);
  assertGolden(content, 'strava');
});
