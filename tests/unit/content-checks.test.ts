/**
 * The content checks an owner meets at build time: every problem of every collection in
 * one list, `path: field: reason` per line, and one fixture per cross-field rule (end not
 * before start, a status the date contradicts, coordinates and their provenance, ids and
 * identities given twice), plus the rules that settle fields: a status left out follows
 * the date, a local time follows the record's zone. "Now" is always passed in, never
 * read from the clock, so these tests mean the same on any day.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { collection } from '../../src/collections/index.ts';
import { compile, ContentError } from '../../src/compile/compile.ts';
import { buildNow } from '../../src/compile/content/now.ts';
import { readConfig } from '../../src/config.ts';
import { parseQuery } from '../../src/core/params.ts';
import { Image } from '../../src/core/image.ts';
import { QueryCore } from '../../src/core/query.ts';
import { allItems } from '../helpers/oracle.ts';

/** The build's present in every test: 2026-11-23T00:00:00Z. */
const NOW = new Date('2026-11-23T00:00:00Z');

function site(files: Record<string, string>): { content: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'checks-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'content', path, '..'), { recursive: true });
    writeFileSync(join(root, 'content', path), text);
  }
  return { content: join(root, 'content'), out: join(root, 'out') };
}

function build(files: Record<string, string>, now = NOW) {
  const { content, out } = site(files);
  compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', now });
  return { image: join(out, 'site.db'), client: join(out, 'client') };
}

/** The problem lines of a build that must fail, without the leading count line. */
function problems(files: Record<string, string>, now = NOW): string[] {
  const { content, out } = site(files);
  try {
    compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', now });
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    const [head, ...lines] = error.message.split('\n');
    assert.equal(head, `${error.problems.length} content problem${error.problems.length === 1 ? '' : 's'}:`);
    // Exactly one `path: field: reason` line per problem, in the order they were found.
    assert.deepEqual(
      lines,
      error.problems.map((p) => `  ${p.origin}: ${p.field}: ${p.reason}`),
    );
    // Paths are shown relative to the working directory; the fixtures' root is left out here.
    const root = `${relative(process.cwd(), join(content, '..'))}/`;
    return lines.map((l) => l.trim().replaceAll(root, ''));
  }
  assert.fail('the build should have failed');
}

/** The one problem a fixture has, asserted to name its path and field. */
function only(files: Record<string, string>, path: string, field: string, now = NOW): string {
  const lines = problems(files, now);
  assert.equal(lines.length, 1, lines.join('\n'));
  const prefix = `content/${path}: ${field}: `;
  assert.ok(lines[0]!.includes(prefix), `${prefix} in ${lines[0]}`);
  return lines[0]!.slice(lines[0]!.indexOf(prefix) + prefix.length);
}

const event = (fields: string) => `---\ntitle: FOSDEM\ntype: conference\ncity: Brussels\ncountry: Belgium\n${fields}\n---\n`;
const concert = (fields: string) => `---\nartist: Nils Frahm\nvenue: Tonhalle\ncity: Zürich\ncountry: Switzerland\n${fields}\n---\n`;
const match = (fields: string) =>
  `---\ntitle: Derby\nsport: Football\nteams: [FC Zürich, GC]\nvenue: Letzigrund\ncity: Zürich\ncountry: Switzerland\nexperience: in-person\n${fields}\n---\n`;
const job = (fields: string) => `- company: Acme\n  title: Engineer\n  kind: job\n${fields.replace(/^/gm, '  ')}\n`;
const run = (fields: string) =>
  `- title: Lake loop\n  sportType: Run\n  startDate: 2026-11-21T09:00:00+01:00\n  distanceMeters: 10000\n${fields.replace(/^/gm, '  ')}\n`;
const place = (fields: string) => `---\nname: Café\ncategory: coffee\ncity: Zürich\ncountry: Switzerland\n${fields}\n---\n`;

test('every problem of every collection is listed at once, the rules’ problems among the schema’s', () => {
  const lines = problems({
    'movies/bad.md': `---\ntitle: X\ntype: film\nyear: 1995\ngnere: [a]\n---\n`,
    'books/list.yaml': `- title: Dune\n  author: Frank Herbert\n  status: finished\n  isbn: 9780441172710\n- 42\n`,
    'places/broken.yaml': 'name: [',
    'places/far.md': place('coordinates: { latitude: 91, longitude: 8.5 }\ncoordinatesSource: manual'),
    'events/swapped.md': event('startDate: 2024-02-04\nendDate: 2024-02-03'),
    'events/ahead.md': event('startDate: 2027-02-06\nstatus: completed'),
    'concerts/twice-a.md': concert('date: 2024-05-01T20:00'),
    'concerts/twice-b.md': concert('date: 2024-05-01T20:00'),
    'sporting-events/derby.md': match('date: 2026-12-13T16:30\ntimezone: Europe/Zurich\nexperienceStatus: attended'),
    'work/jobs.yaml': job('startDate: 2020-05\nendDate: 2019-12'),
    'activities/runs.yaml': run('movingTimeSeconds: 3700\nelapsedTimeSeconds: 3600'),
    'photos/p.yaml': `- title: P\n  src: /p.jpg\n  alt: A photo\n  takenAt: 2024-01-01T10:00:00Z\n  width: 10\n  height: 10\n  coordinatesSource: gps\n`,
    // An id problem and a schema problem of one entry are both reported.
    'videos/v.yaml': `- id: "not an id!"\n  title: V\n`,
  });
  for (const expected of [
    /^content\/movies\/bad\.md: type: /,
    /^content\/movies\/bad\.md: addedAt: required field is missing$/,
    /^content\/movies\/bad\.md: gnere: unknown field/,
    /^content\/books\/list\.yaml\[0\]: isbn: expected a valid ISBN-13/,
    /^content\/books\/list\.yaml\[1\]: \(record\): expected a mapping/,
    /^content\/places\/broken\.yaml: \(file\): invalid YAML/,
    /^content\/places\/far\.md: coordinates\.latitude: expected degrees from -90 to 90/,
    /^content\/events\/swapped\.md: endDate: ends before it starts/,
    /^content\/events\/ahead\.md: status: completed, but startDate 2027-02-06 is after the build date/,
    /^content\/concerts\/twice-b\.md: artist\+date: same artist, date as content\/concerts\/twice-a\.md/,
    /^content\/sporting-events\/derby\.md: experienceStatus: attended, but date /,
    /^content\/work\/jobs\.yaml\[0\]: endDate: ends before it starts/,
    /^content\/activities\/runs\.yaml\[0\]: movingTimeSeconds: 3700 is more than elapsedTimeSeconds 3600/,
    /^content\/photos\/p\.yaml\[0\]: coordinatesSource: says where the coordinates came from, but the record has no coordinates/,
    /^content\/videos\/v\.yaml\[0\]: id: expected a slug/,
    /^content\/videos\/v\.yaml\[0\]: url: required field is missing$/,
  ]) {
    assert.ok(
      lines.some((l) => expected.test(l)),
      `${expected} in\n${lines.join('\n')}`,
    );
  }
});

test('end not before start: events, concerts, sporting events and work, at the precision both share', () => {
  assert.match(
    only({ 'events/e.md': event('startDate: 2024-02-04\nendDate: 2024-02-03') }, 'events/e.md', 'endDate'),
    /ends before it starts: 2024-02-03 is before startDate 2024-02-04/,
  );
  assert.match(
    only({ 'concerts/c.md': concert('date: 2024-05-01T20:00Z\nendDate: 2024-05-01T19:00Z') }, 'concerts/c.md', 'endDate'),
    /2024-05-01T19:00Z is before date 2024-05-01T20:00Z/,
  );
  assert.match(
    only({ 'sporting-events/m.md': match('date: 2024-05-01\nendDate: 2024-04-30\nexperienceStatus: attended') }, 'sporting-events/m.md', 'endDate'),
    /ends before it starts/,
  );
  assert.match(only({ 'work/w.yaml': job('startDate: 2020-05\nendDate: 2020-04-30') }, 'work/w.yaml[0]', 'endDate'), /2020-04-30 is before startDate 2020-05/);
  // Same day or month at the shared precision, and an end read in the same zone as the start, are fine.
  build({
    'events/e.md': event('startDate: 2024-02-04T09:00\nendDate: 2024-02-04\ntimezone: Europe/Brussels'),
    'work/w.yaml': job('startDate: 2020-05\nendDate: 2020-05-01'),
    'concerts/c.md': concert('date: 2024-05-01T22:00Z\nendDate: 2024-05-02T00:30\ntimezone: Europe/Zurich'),
  });
  // A local end is read in the record's zone: 23:30 in Zürich is 21:30Z, before a 22:00Z start.
  assert.match(
    only({ 'concerts/c.md': concert('date: 2024-05-01T22:00Z\nendDate: 2024-05-01T23:30\ntimezone: Europe/Zurich') }, 'concerts/c.md', 'endDate'),
    /2024-05-01T23:30\+02:00 is before date 2024-05-01T22:00Z/,
  );
});

test('a status the date contradicts: nothing after the build date is completed, attended or watched', () => {
  const ahead = only({ 'events/e.md': event('startDate: 2027-02-06\nstatus: completed') }, 'events/e.md', 'status');
  assert.equal(
    ahead,
    'completed, but startDate 2027-02-06 is after the build date (2026-11-23T00:00Z): set scheduled (or leave status out) until it has happened',
  );
  assert.match(
    only({ 'concerts/c.md': concert('date: 2026-11-23T20:00\ntimezone: Europe/Zurich\nstatus: completed') }, 'concerts/c.md', 'status'),
    /after the build date/,
  );
  assert.match(
    only(
      { 'sporting-events/m.md': match('date: 2026-12-13T16:30\ntimezone: Europe/Zurich\nexperienceStatus: watched\nstatus: scheduled') },
      'sporting-events/m.md',
      'experienceStatus',
    ),
    /^watched, but date 2026-12-13T16:30\+01:00 is after the build date \(2026-11-23T00:00Z\): set planned until it has happened$/,
  );
  // A date that has come (today's date, in the record's zone) is not ahead; a stale `scheduled` is no problem.
  build({
    'events/today.md': event('startDate: 2026-11-23\nstatus: completed'),
    'events/stale.md': event('startDate: 2025-02-01\nstatus: scheduled').replace('FOSDEM', 'FOSDEM 2025'),
    'sporting-events/m.md': match('date: 2026-12-13T16:30\ntimezone: Europe/Zurich\nexperienceStatus: planned'),
  });
  // Midnight of 2026-11-23 in Auckland is still 22 November in UTC: with the zone, the day has begun.
  build({ 'events/nz.md': event('startDate: 2026-11-23\ntimezone: Pacific/Auckland\nstatus: completed') }, new Date('2026-11-22T12:00:00Z'));
  problems({ 'events/utc.md': event('startDate: 2026-11-23\nstatus: completed') }, new Date('2026-11-22T12:00:00Z'));
});

test('a status left out follows the date: an upcoming event is scheduled, and the feed of what happened leaves it out', () => {
  const files = {
    'events/past.md': event('startDate: 2024-02-03\nendDate: 2024-02-04').replace('FOSDEM', 'FOSDEM 2024'),
    'events/ahead.md': event('startDate: 2026-12-27\nendDate: 2026-12-30\ntimezone: Europe/Berlin').replace('FOSDEM', '40C3'),
    'concerts/c.md': concert('date: 2027-02-18T19:30\ntimezone: Europe/Zurich'),
    'sporting-events/m.md': match('date: 2026-12-13T16:30\ntimezone: Europe/Zurich\nexperienceStatus: planned'),
  };
  const { image } = build(files);
  const status = (name: string) => Object.fromEntries(allItems(image, name).map((i) => [String(i.title ?? i.artist), i.status]));
  assert.deepEqual(status('events'), { 'FOSDEM 2024': 'completed', '40C3': 'scheduled' });
  assert.deepEqual(status('concerts'), { 'Nils Frahm': 'scheduled' });
  assert.deepEqual(status('sporting-events'), { Derby: 'scheduled' });
  assert.deepEqual(
    allItems(image, 'feed-items').map((i) => i.title),
    ['FOSDEM 2024'],
  );
  // Once the build date passes the start, the same files say completed, and the event is news.
  const later = build(files, new Date('2026-12-28T00:00:00Z')).image;
  assert.equal(allItems(later, 'events').find((i) => i.title === '40C3')!.status, 'completed');
  assert.ok(allItems(later, 'feed-items').some((i) => i.title === '40C3'));
});

test('coordinates in range, and provenance only beside coordinates', () => {
  assert.match(
    only({ 'places/p.md': place('coordinates: { latitude: 47.3, longitude: 188.5 }\ncoordinatesSource: manual') }, 'places/p.md', 'coordinates.longitude'),
    /expected degrees from -180 to 180/,
  );
  assert.match(
    only(
      { 'events/e.md': event('startDate: 2024-02-03\ncoordinates: { latitude: -90.5, longitude: 4.3 }\ncoordinatesSource: manual') },
      'events/e.md',
      'coordinates.latitude',
    ),
    /expected degrees from -90 to 90/,
  );
  assert.match(
    only({ 'activities/a.yaml': run('movingTimeSeconds: 3000\ncoordinatesSource: gps') }, 'activities/a.yaml[0]', 'coordinatesSource'),
    /no coordinates \(check their spelling and indentation\)/,
  );
});

test('missing provenance stays a warning that switches the geographic formats off, not a build failure', () => {
  const { content, out } = site({ 'events/e.md': event('startDate: 2024-02-03\ncoordinates: { latitude: 50.8, longitude: 4.3 }') });
  const result = compile({ contentDir: content, imagePath: join(out, 'site.db'), clientDir: join(out, 'client'), secret: 's', now: NOW });
  assert.equal(result.warnings.length, 1);
  assert.match(result.warnings[0]!, /content\/events\/e\.md: coordinatesSource: coordinates without a source/);
});

test('ids given twice in a collection, identities given twice, and a canonicalId in two collections: one problem naming both paths', () => {
  const heat = (id: string, title = 'Heat') => `---\n${id}title: ${title}\ntype: movie\nyear: 1995\naddedAt: 2024-01-03\n---\n`;
  assert.equal(
    only({ 'movies/a.md': heat('id: heat\n'), 'movies/b.md': heat('id: heat\n', 'Heat (1995)') }, 'movies/b.md', 'id'),
    'heat is also the id of content/movies/a.md; ids are unique in a collection, give one of them another id',
  );
  assert.equal(
    only({ 'movies/a.md': heat(''), 'movies/b.md': heat('', 'HEAT') }, 'movies/b.md', 'type+title+year'),
    'same type, title, year as content/movies/a.md, so both would be one record: remove the copy, or give one of them an id',
  );
  // Two entries of one file are two paths too.
  assert.match(
    only(
      { 'books/b.yaml': `- title: Dune\n  author: Frank Herbert\n  status: to-read\n- title: dune\n  author: frank herbert\n  status: to-read\n` },
      'books/b.yaml[1]',
      'title+author',
    ),
    /as content\/books\/b\.yaml\[0\]/,
  );
  // The same explicit canonicalId in two collections would collide in the feed (it used to fail inside SQLite).
  const id = 'id: itm_00112233445566778899aabb\n';
  assert.equal(
    only({ 'movies/heat.md': heat(id), 'books/b.yaml': `- ${id}  title: Dune\n  author: Frank Herbert\n  status: to-read\n` }, 'books/b.yaml[0]', 'id'),
    'itm_00112233445566778899aabb is already the canonicalId of content/movies/heat.md; canonicalIds are unique across the site, give this record another id',
  );
});

test('a local time is read in the record’s zone: published with its offset, sorted and bounded by that instant; the canonicalId does not move', () => {
  const files = {
    // 20:00 in Lisbon (19:00Z) is after 19:30 in Zürich (18:30Z), though its digits come first in an unzoned reading.
    'concerts/lisbon.md': concert('date: 2024-05-01T20:00\ntimezone: Europe/Lisbon').replace('Nils Frahm', 'Mariza'),
    'concerts/zurich.md': concert('date: 2024-05-01T19:30\ntimezone: Europe/Zurich'),
    // No zone: the local time stays as written and counts as UTC, as before.
    'concerts/floating.md': concert('date: 2024-05-01T18:45').replace('Nils Frahm', 'Floating Points'),
  };
  const { image } = build(files);
  const concerts = allItems(image, 'concerts');
  const dateOf = (artist: string) => concerts.find((c) => c.artist === artist)!.date;
  assert.equal(dateOf('Mariza'), '2024-05-01T20:00+01:00');
  assert.equal(dateOf('Nils Frahm'), '2024-05-01T19:30+02:00');
  assert.equal(dateOf('Floating Points'), '2024-05-01T18:45');
  const opened = new Image(image);
  const core = new QueryCore(opened);
  const order = (c: string, params: Record<string, string>) =>
    core.run(parseQuery(collection(c)!, new URLSearchParams(params))).items.map((json) => JSON.parse(json) as Record<string, unknown>);
  assert.deepEqual(
    order('concerts', { sort: 'date:asc' }).map((c) => c.artist),
    ['Nils Frahm', 'Floating Points', 'Mariza'],
  );
  // `since` compares the same instants: 19:00Z onwards is Lisbon only.
  assert.deepEqual(
    order('feed-items', { since: '2024-05-01T19:00:00Z' }).map((i) => i.title),
    ['Mariza'],
  );
  opened.close();
  // The JSON Feed now says the instant the owner meant.
  const feed = JSON.parse(readFileSync(join(image, '..', 'client', 'feed.json'), 'utf8')) as { items: { title: string; date_published: string }[] };
  assert.equal(feed.items.find((i) => i.title === 'Mariza')!.date_published, '2024-05-01T20:00:00+01:00');
  // The ID comes from what the owner wrote: adding the zone later keeps it.
  const unzoned = allItems(build({ 'concerts/zurich.md': concert('date: 2024-05-01T19:30') }).image, 'concerts');
  assert.equal(unzoned[0]!.canonicalId, concerts.find((c) => c.artist === 'Nils Frahm')!.canonicalId);
});

test('the same content and the same build date give byte-identical output; SOURCE_DATE_EPOCH is the build date', () => {
  const files = { 'events/ahead.md': event('startDate: 2026-12-27'), 'concerts/c.md': concert('date: 2027-02-18T19:30\ntimezone: Europe/Zurich') };
  const first = build(files);
  const second = build(files);
  assert.ok(readFileSync(first.image).equals(readFileSync(second.image)));
  assert.equal(readFileSync(join(first.client, 'api/events.json'), 'utf8'), readFileSync(join(second.client, 'api/events.json'), 'utf8'));
  assert.equal(
    buildNow(readConfig({ SOURCE_DATE_EPOCH: '1795392000' }), () => 0),
    NOW.getTime(),
  );
  assert.equal(
    buildNow(readConfig({}), () => 42),
    42,
    'without it, the clock',
  );
  assert.equal(
    buildNow(readConfig({ SOURCE_DATE_EPOCH: '' }), () => 42),
    42,
  );
  assert.throws(() => readConfig({ SOURCE_DATE_EPOCH: '2026-11-23' }), /SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01T00:00:00Z/);
  assert.throws(() => readConfig({ SOURCE_DATE_EPOCH: '-1' }), /SOURCE_DATE_EPOCH/);
});
