/**
 * The calendar feeds, parsed with ical.js: served as text/calendar with the usual
 * headers, one event per record, cancelled ones kept as CANCELLED; and an owner's edit of
 * one concert, rebuilt, raises exactly that event's SEQUENCE and LAST-MODIFIED.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import ICAL from 'ical.js';
import { compile } from '../../src/compile/compile.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const events = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
const prop = (event: ICAL.Component, name: string) => event.getFirstPropertyValue(name);

async function total(collection: string, query = ''): Promise<number> {
  const r = await contractFetch(`${server.base}/api/${collection}.json?limit=1${query}`);
  return ((await r.json()) as { meta: { totalCount: number } }).meta.totalCount;
}

test('each feed is text/calendar, cached like the API, with one event per record', async () => {
  const expected = { '/concerts.ics': await total('concerts'), '/sports.ics': await total('sporting-events') };
  const feeds: Record<string, ICAL.Component[]> = {};
  for (const path of ['/calendar.ics', '/concerts.ics', '/sports.ics']) {
    const r = await contractFetch(server.base + path);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/calendar; charset=utf-8');
    for (const name of ['etag', 'last-modified', 'cache-control', 'content-usage', 'content-signal', 'access-control-allow-origin'])
      assert.ok(r.headers.get(name), `${path} ${name}`);
    assert.equal((await contractFetch(server.base + path, { headers: { 'If-None-Match': r.headers.get('etag')! } })).status, 304);
    feeds[path] = events(await r.text());
  }
  assert.equal(feeds['/concerts.ics']!.length, expected['/concerts.ics']);
  assert.equal(feeds['/sports.ics']!.length, expected['/sports.ics']);
  assert.equal(feeds['/calendar.ics']!.length, expected['/concerts.ics'] + expected['/sports.ics']);
  for (const event of feeds['/calendar.ics']!) {
    assert.match(String(prop(event, 'uid')), /^itm_[0-9a-f]{24}@localhost$/);
    assert.match(String(prop(event, 'url')), /^http:\/\/localhost:4321\/(concerts|sporting-events)\/itm_/);
  }
  const json = (await (await contractFetch(`${server.base}/api/concerts.json?limit=100`)).json()) as { data: { canonicalId: string; status: string }[] };
  const cancelled = json.data.filter((c) => c.status === 'cancelled');
  assert.ok(cancelled.length > 0, 'the demo has a cancelled concert');
  for (const concert of cancelled) {
    const event = feeds['/concerts.ics']!.find((e) => String(prop(e, 'uid')).startsWith(concert.canonicalId))!;
    assert.equal(prop(event, 'status'), 'CANCELLED');
  }
  const sportsDetail = await contractFetch(String(prop(feeds['/sports.ics']![0]!, 'url')).replace('http://localhost:4321', server.base));
  assert.equal(sportsDetail.status, 200, 'event URLs resolve to detail pages');
});

test('an owner revises one concert: only its SEQUENCE and LAST-MODIFIED rise, every UID stays', () => {
  const root = mkdtempSync(join(tmpdir(), 'calendar-'));
  mkdirSync(join(root, 'content/concerts'), { recursive: true });
  const concert = (artist: string, date: string, venue: string, extra = '') =>
    `---\nartist: ${artist}\ndate: ${date}\ntimezone: Europe/Lisbon\nvenue: ${venue}\ncity: Lisbon\ncountry: Portugal\ncoordinates: { latitude: 38.7, longitude: -9.1 }\ncoordinatesSource: manual\n${extra}---\n`;
  writeFileSync(join(root, 'content/concerts/a.md'), concert('Mariza', '2024-06-14T21:30', 'Coliseu dos Recreios'));
  writeFileSync(join(root, 'content/concerts/b.md'), concert('Dead Combo', '2023-03-02T21:00', 'Aula Magna'));
  writeFileSync(join(root, 'content/concerts/c.md'), concert('Ana Moura', '2025-01-20T20:00', 'Campo Pequeno'));
  const build = (name: string) => {
    compile({ contentDir: join(root, 'content'), imagePath: join(root, `${name}.db`), clientDir: join(root, name), secret: 's' });
    return events(readFileSync(join(root, name, 'concerts.ics'), 'utf8'));
  };
  const before = build('one');
  // The owner moves the show to another venue and says when they changed the record.
  writeFileSync(join(root, 'content/concerts/a.md'), concert('Mariza', '2024-06-14T21:30', 'Altice Arena', 'updated: 2024-05-02T10:00:00Z\n'));
  const afterEdit = build('two');
  const uid = (e: ICAL.Component) => String(prop(e, 'uid'));
  assert.deepEqual(afterEdit.map(uid), before.map(uid));
  for (const [i, old] of before.entries()) {
    const now = afterEdit[i]!;
    if (String(prop(old, 'summary')).startsWith('Mariza')) {
      assert.ok(Number(prop(now, 'sequence')) > Number(prop(old, 'sequence')), 'SEQUENCE rose');
      const oldModified = old.hasProperty('last-modified') ? (prop(old, 'last-modified') as ICAL.Time).toUnixTime() : 0;
      assert.ok((prop(now, 'last-modified') as ICAL.Time).toUnixTime() > oldModified, 'LAST-MODIFIED rose');
      assert.match(String(prop(now, 'location')), /Altice Arena/);
    } else {
      assert.equal(now.toString(), old.toString(), 'other events unchanged');
    }
  }
});
