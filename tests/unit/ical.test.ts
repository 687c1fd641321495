import assert from 'node:assert/strict';
import { test } from 'node:test';
import ICAL from 'ical.js';
import fc from '../helpers/fc.ts';
import { renderCalendar, type CalendarItem, type CalendarOptions } from '../../src/formats/ical.ts';

const SITE = 'https://collections.example.org';

const radiohead: CalendarItem = {
  collection: 'concerts',
  fields: {
    canonicalId: 'itm_0a1b2c3d4e5f60718293a4b5',
    artist: 'Radiohead',
    title: 'A Moon Shaped Pool — London',
    supportActs: ['Junun', 'Shye Ben Tzur'],
    tour: 'A Moon Shaped Pool Tour',
    date: '2023-06-14T20:00',
    timezone: 'Europe/London',
    venue: 'The O₂ Arena',
    city: 'London',
    country: 'United Kingdom',
    coordinates: { latitude: 51.503, longitude: 0.0032 },
    flyer: '/flyers/radiohead-o2-2023.jpg',
    status: 'completed',
    rating: 5,
    notes: 'Second night. Everything In Its Right Place closed the main set; the whole arena sang the loop back.',
    updated: '2024-02-03T09:15:00Z',
    year: 2023,
  },
};
const deadCombo: CalendarItem = {
  collection: 'concerts',
  fields: {
    canonicalId: 'itm_1f2e3d4c5b6a798897a6b5c4',
    artist: 'Dead Combo',
    supportActs: [],
    date: '2016-04-23',
    venue: 'Centro Cultural de Belém',
    city: 'Lisbon',
    country: 'Portugal',
    flyer: 'https://images.example.net/flyers/dead-combo.png',
    status: 'cancelled',
    year: 2016,
  },
};
const mariza: CalendarItem = {
  collection: 'concerts',
  fields: {
    canonicalId: 'itm_2a2a2a2a2a2a2a2a2a2a2a2a',
    artist: 'Mariza',
    supportActs: [],
    date: '2019-11-02T21:00+01:00',
    endDate: '2019-11-02T23:30+01:00',
    venue: 'Coliseu dos Recreios',
    city: 'Lisbon',
    country: 'Portugal',
    coordinates: { latitude: 38.7153, longitude: -9.14 },
    status: 'postponed',
    revision: 2,
    updated: '2019-10-01',
    year: 2019,
  },
};
const floating: CalendarItem = {
  collection: 'concerts',
  fields: {
    canonicalId: 'itm_3b3b3b3b3b3b3b3b3b3b3b3b',
    artist: 'Nils Frahm',
    supportActs: [],
    date: '2018-03-03T19:30',
    venue: 'Tonhalle',
    city: 'Zürich',
    country: 'Switzerland',
    status: 'completed',
    notes: `${'The piano was detuned on purpose and the hall did not mind. '.repeat(20)}THE-END-OF-THE-NOTES`,
    year: 2018,
  },
};
const derby: CalendarItem = {
  collection: 'sporting-events',
  fields: {
    canonicalId: 'itm_4c4c4c4c4c4c4c4c4c4c4c4c',
    title: 'Benfica v Sporting CP',
    sport: 'Football',
    league: 'Primeira Liga',
    teams: ['Benfica', 'Sporting CP'],
    date: '2017-04-22',
    venue: 'Estádio da Luz',
    city: 'Lisbon',
    country: 'Portugal',
    coordinates: { latitude: 38.7527, longitude: -9.1847 },
    experience: 'in-person',
    experienceStatus: 'attended',
    status: 'completed',
    result: '1–1',
    seat: 'Piso 3, Porta 18',
    year: 2017,
  },
};
const superBowl: CalendarItem = {
  collection: 'sporting-events',
  fields: {
    canonicalId: 'itm_5d5d5d5d5d5d5d5d5d5d5d5d',
    title: 'Super Bowl LVIII',
    sport: 'American football',
    league: 'NFL',
    teams: ['San Francisco 49ers', 'Kansas City Chiefs'],
    date: '2024-02-11T15:30',
    endDate: '2024-02-11T19:45',
    timezone: 'America/Los_Angeles',
    venue: 'Allegiant Stadium',
    city: 'Las Vegas',
    country: 'United States',
    experience: 'tv',
    experienceStatus: 'watched',
    status: 'completed',
    year: 2024,
  },
};
const matchNoEnd: CalendarItem = {
  collection: 'sporting-events',
  fields: {
    canonicalId: 'itm_6e6e6e6e6e6e6e6e6e6e6e6e',
    title: 'FC Zürich v Young Boys',
    sport: 'Football',
    league: 'Super League',
    teams: ['FC Zürich', 'BSC Young Boys'],
    date: '2024-08-04T16:30',
    timezone: 'Europe/Zurich',
    venue: 'Letzigrund',
    city: 'Zürich',
    country: 'Switzerland',
    experience: 'in-person',
    experienceStatus: 'planned',
    status: 'cancelled',
    year: 2024,
  },
};
const wimbledon: CalendarItem = {
  collection: 'sporting-events',
  fields: {
    canonicalId: 'itm_7f7f7f7f7f7f7f7f7f7f7f7f',
    title: 'Wimbledon 2022',
    sport: 'Tennis',
    teams: ['Ladies’ and Gentlemen’s singles'],
    date: '2022-06-27',
    endDate: '2022-07-10',
    venue: 'All England Lawn Tennis Club',
    city: 'London',
    country: 'United Kingdom',
    experience: 'stream',
    experienceStatus: 'watched',
    status: 'completed',
    year: 2022,
  },
};
const newYear: CalendarItem = {
  collection: 'concerts',
  fields: {
    canonicalId: 'itm_8a8a8a8a8a8a8a8a8a8a8a8a',
    artist: 'Fat Freddy’s Drop',
    supportActs: [],
    date: '2024-01-01T09:00',
    timezone: 'Pacific/Auckland',
    venue: 'Gibbston Valley',
    city: 'Queenstown',
    country: 'New Zealand',
    status: 'completed',
    year: 2024,
  },
};

const ITEMS = [radiohead, deadCombo, mariza, floating, derby, superBowl, matchNoEnd, wimbledon, newYear];
const options = (items: readonly CalendarItem[] = ITEMS): CalendarOptions => ({
  name: 'Concerts & sport, live',
  description: 'Shows and matches from one person’s collections.',
  siteUrl: SITE,
  items,
});

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = new Map<string, ICAL.Component>();
  for (const vevent of calendar.getAllSubcomponents('vevent')) events.set(String(vevent.getFirstPropertyValue('uid')), vevent);
  return { calendar, events };
}
const uid = (item: CalendarItem) => `${String(item.fields.canonicalId)}@collections.example.org`;
function eventOf(text: string, item: CalendarItem): ICAL.Component {
  const vevent = parse(text).events.get(uid(item));
  assert.ok(vevent, `no VEVENT for ${uid(item)}`);
  return vevent;
}
const value = (vevent: ICAL.Component, name: string) => vevent.getFirstPropertyValue(name);
const time = (vevent: ICAL.Component, name: string) => vevent.getFirstPropertyValue(name) as ICAL.Time;
/** The raw text of each VEVENT, keyed by UID, to compare events byte for byte. */
function rawEvents(text: string): Map<string, string> {
  const blocks = text
    .split('BEGIN:VEVENT\r\n')
    .slice(1)
    .map((b) => b.slice(0, b.indexOf('END:VEVENT\r\n')));
  return new Map(blocks.map((b) => [/^UID:(.*)\r\n/m.exec(b)![1]!, b]));
}

const text = renderCalendar(options());

test('one VEVENT per item, each with a stable domain-qualified UID', () => {
  const { events } = parse(text);
  assert.equal(events.size, ITEMS.length);
  for (const item of ITEMS) assert.ok(events.has(uid(item)), uid(item));
  assert.equal(new ICAL.Event(eventOf(text, radiohead)).uid, 'itm_0a1b2c3d4e5f60718293a4b5@collections.example.org');
});

test('the calendar carries its name, description, refresh interval, product and method', () => {
  const { calendar } = parse(text);
  // ical.js knows neither RFC 7986 NAME nor X-WR-*, so it leaves their TEXT escapes (§3.3.11) in place.
  const unescape = (v: unknown) => String(v).replaceAll(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
  assert.equal(unescape(value(calendar, 'x-wr-calname')), 'Concerts & sport, live');
  assert.equal(unescape(value(calendar, 'name')), 'Concerts & sport, live');
  assert.match(text, /\r\nNAME:Concerts & sport\\, live\r\n/);
  assert.equal(value(calendar, 'x-wr-caldesc'), 'Shows and matches from one person’s collections.');
  assert.equal(String(value(calendar, 'refresh-interval')), 'PT12H');
  assert.equal(calendar.getFirstProperty('refresh-interval')!.type, 'duration');
  assert.equal(String(value(calendar, 'x-published-ttl')), 'PT12H');
  assert.equal(value(calendar, 'prodid'), '-//collections//calendar feed 1//EN');
  assert.equal(value(calendar, 'method'), 'PUBLISH');
  assert.equal(value(calendar, 'version'), '2.0');
});

test('status maps cancelled to CANCELLED, postponed to TENTATIVE, anything else to CONFIRMED', () => {
  assert.equal(value(eventOf(text, deadCombo), 'status'), 'CANCELLED');
  assert.equal(value(eventOf(text, matchNoEnd), 'status'), 'CANCELLED');
  assert.equal(value(eventOf(text, mariza), 'status'), 'TENTATIVE');
  assert.equal(value(eventOf(text, radiohead), 'status'), 'CONFIRMED');
  assert.equal(value(eventOf(text, superBowl), 'status'), 'CONFIRMED');
});

test('SEQUENCE is minutes from 2000 to updated plus the revision; LAST-MODIFIED is updated', () => {
  const concert = eventOf(text, radiohead);
  assert.equal(value(concert, 'sequence'), (Date.parse('2024-02-03T09:15:00Z') - Date.parse('2000-01-01T00:00:00Z')) / 60_000);
  assert.equal(time(concert, 'last-modified').toJSDate().toISOString(), '2024-02-03T09:15:00.000Z');
  assert.equal(time(concert, 'dtstamp').toJSDate().toISOString(), '2024-02-03T09:15:00.000Z');

  const revised = eventOf(text, mariza);
  assert.equal(value(revised, 'sequence'), (Date.parse('2019-10-01T00:00:00Z') - Date.parse('2000-01-01T00:00:00Z')) / 60_000 + 2);
  // A date-only updated means midnight UTC.
  assert.equal(time(revised, 'last-modified').toJSDate().toISOString(), '2019-10-01T00:00:00.000Z');

  const plain = eventOf(text, derby);
  assert.equal(value(plain, 'sequence'), 0);
  assert.equal(plain.hasProperty('last-modified'), false);
  // Without updated, the stamp is the record's own date, never the build time.
  assert.equal(time(plain, 'dtstamp').toJSDate().toISOString(), '2017-04-22T00:00:00.000Z');
});

test('summary, location, URL, categories and description come from the record', () => {
  const concert = eventOf(text, radiohead);
  assert.equal(value(concert, 'summary'), 'Radiohead — A Moon Shaped Pool — London');
  assert.equal(value(concert, 'location'), 'The O₂ Arena, London, United Kingdom');
  assert.equal(value(concert, 'url'), `${SITE}/concerts/itm_0a1b2c3d4e5f60718293a4b5`);
  assert.deepEqual(concert.getFirstProperty('categories')!.getValues(), ['Concert', 'A Moon Shaped Pool Tour']);
  const about = String(value(concert, 'description'));
  assert.match(about, /Support: Junun, Shye Ben Tzur/);
  assert.match(about, /Everything In Its Right Place/);

  assert.equal(value(eventOf(text, deadCombo), 'summary'), 'Dead Combo');
  assert.deepEqual(eventOf(text, deadCombo).getFirstProperty('categories')!.getValues(), ['Concert']);

  const match = eventOf(text, derby);
  assert.equal(value(match, 'summary'), 'Benfica v Sporting CP');
  assert.equal(value(match, 'url'), `${SITE}/sporting-events/itm_4c4c4c4c4c4c4c4c4c4c4c4c`);
  assert.deepEqual(match.getFirstProperty('categories')!.getValues(), ['Sport', 'Football', 'Primeira Liga']);
  const matchAbout = String(value(match, 'description'));
  for (const part of ['Teams: Benfica vs Sporting CP', 'League: Primeira Liga', 'Result: 1–1', 'Seat: Piso 3, Porta 18'])
    assert.ok(matchAbout.includes(part), part);
  assert.deepEqual(eventOf(text, wimbledon).getFirstProperty('categories')!.getValues(), ['Sport', 'Tennis']);
});

test('long notes are cut to about 500 characters', () => {
  const about = String(value(eventOf(text, floating), 'description'));
  assert.ok(!about.includes('THE-END-OF-THE-NOTES'));
  assert.match(about, /The piano was detuned on purpose/);
  assert.ok(about.length < 500 + 200, `description of ${about.length} characters`);
});

test('coordinates give GEO and an Apple structured location; no coordinates, neither', () => {
  const match = eventOf(text, derby);
  assert.deepEqual(value(match, 'geo'), [38.7527, -9.1847]);
  const structured = match.getFirstProperty('x-apple-structured-location')!;
  assert.equal(structured.getParameter('x-title'), 'Estádio da Luz, Lisbon, Portugal');
  assert.equal(String(structured.getFirstValue()), 'geo:38.7527,-9.1847');
  const none = eventOf(text, deadCombo);
  assert.equal(none.hasProperty('geo'), false);
  assert.equal(none.hasProperty('x-apple-structured-location'), false);
  assert.equal(value(none, 'location'), 'Centro Cultural de Belém, Lisbon, Portugal');
});

test('a concert flyer becomes an RFC 7986 IMAGE; site paths resolve against the site URL', () => {
  const image = eventOf(text, radiohead).getFirstProperty('image')!;
  assert.equal(image.getFirstValue(), `${SITE}/flyers/radiohead-o2-2023.jpg`);
  assert.equal(image.type, 'uri');
  assert.equal(image.getParameter('display'), 'BADGE');
  assert.equal(eventOf(text, deadCombo).getFirstPropertyValue('image'), 'https://images.example.net/flyers/dead-combo.png');
  assert.equal(eventOf(text, mariza).hasProperty('image'), false);
});

test('a local time with a zone is a TZID time with a matching VTIMEZONE, at the right instant', () => {
  const { calendar } = parse(text);
  const concert = eventOf(text, radiohead);
  assert.equal(concert.getFirstProperty('dtstart')!.getParameter('tzid'), 'Europe/London');
  const zones = calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
  assert.deepEqual(new Set(zones), new Set(['Europe/London', 'America/Los_Angeles', 'Europe/Zurich', 'Pacific/Auckland']));
  assert.equal(zones.length, 4);
  const start = new ICAL.Event(concert).startDate;
  assert.equal(start.toString(), '2023-06-14T20:00:00');
  assert.equal(start.zone!.tzid, 'Europe/London');
  assert.equal(start.toJSDate().toISOString(), '2023-06-14T19:00:00.000Z');
  // East of UTC on New Year's morning: the zone's first observance must already be in force.
  assert.equal(new ICAL.Event(eventOf(text, newYear)).startDate.toJSDate().toISOString(), '2023-12-31T20:00:00.000Z');
  // Every property of the calendar precedes its first component (RFC 5545 §3.4).
  assert.ok(text.indexOf('X-PUBLISHED-TTL') < text.indexOf('BEGIN:VTIMEZONE'));
});

test('a zoned sporting event keeps the end it was given, in the same zone', () => {
  const game = new ICAL.Event(eventOf(text, superBowl));
  assert.equal(eventOf(text, superBowl).getFirstProperty('dtend')!.getParameter('tzid'), 'America/Los_Angeles');
  assert.equal(game.startDate.toJSDate().toISOString(), '2024-02-11T23:30:00.000Z');
  assert.equal(game.endDate.toJSDate().toISOString(), '2024-02-12T03:45:00.000Z');
});

test('a sporting event without endDate has no DTEND, timed or all-day', () => {
  assert.equal(eventOf(text, matchNoEnd).hasProperty('dtend'), false);
  assert.equal(eventOf(text, matchNoEnd).hasProperty('duration'), false);
  assert.equal(eventOf(text, derby).hasProperty('dtend'), false);
  // A timed concert without endDate gets no invented end either.
  assert.equal(eventOf(text, radiohead).hasProperty('dtend'), false);
});

test('a date alone is an all-day DATE event; concerts end with their day, multi-day events after the last', () => {
  const concert = eventOf(text, deadCombo);
  assert.equal(time(concert, 'dtstart').isDate, true);
  assert.equal(time(concert, 'dtstart').toString(), '2016-04-23');
  assert.equal(time(concert, 'dtend').isDate, true);
  assert.equal(time(concert, 'dtend').toString(), '2016-04-24');
  assert.equal(time(eventOf(text, derby), 'dtstart').toString(), '2017-04-22');
  // The record's endDate is the last day; DTEND of a DATE event is exclusive.
  assert.equal(time(eventOf(text, wimbledon), 'dtend').toString(), '2022-07-11');
});

test('an offset time is an exact UTC instant; a local time without zone is floating', () => {
  const show = eventOf(text, mariza);
  assert.equal(time(show, 'dtstart').zone, ICAL.Timezone.utcTimezone);
  assert.equal(time(show, 'dtstart').toJSDate().toISOString(), '2019-11-02T20:00:00.000Z');
  assert.equal(time(show, 'dtend').toJSDate().toISOString(), '2019-11-02T22:30:00.000Z');
  const loose = eventOf(text, floating);
  assert.equal(loose.getFirstProperty('dtstart')!.getParameter('tzid'), undefined);
  assert.equal(time(loose, 'dtstart').zone!.tzid, 'floating');
  assert.equal(time(loose, 'dtstart').toString(), '2018-03-03T19:30:00');
});

test('output is the same for the same input, whatever the clock or the order of the items', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2030-01-01T00:00:00Z') });
  const later = renderCalendar(options());
  t.mock.timers.reset();
  assert.equal(later, text);
  assert.equal(renderCalendar(options([...ITEMS].reverse())), text);
  assert.ok(!text.includes('2030'));
});

test('a revised record gets a higher SEQUENCE and newer LAST-MODIFIED; its UID and every other event stay as they were', () => {
  const moved: CalendarItem = {
    ...radiohead,
    fields: { ...radiohead.fields, venue: 'Tottenham Hotspur Stadium', updated: '2024-03-01T18:00:00Z' },
  };
  const bumped: CalendarItem = { ...mariza, fields: { ...mariza.fields, venue: 'Campo Pequeno', revision: 3, updated: '2019-10-20' } };
  const revisedText = renderCalendar(options(ITEMS.map((i) => (i === radiohead ? moved : i === mariza ? bumped : i))));

  for (const [before, after] of [
    [radiohead, moved],
    [mariza, bumped],
  ] as const) {
    const old = eventOf(text, before);
    const now = eventOf(revisedText, after);
    assert.equal(uid(after), uid(before));
    assert.ok(Number(value(now, 'sequence')) > Number(value(old, 'sequence')), 'SEQUENCE rises');
    assert.ok(time(now, 'last-modified').compare(time(old, 'last-modified')) > 0, 'LAST-MODIFIED rises');
    assert.notEqual(value(now, 'location'), value(old, 'location'));
  }
  const was = rawEvents(text);
  const is = rawEvents(revisedText);
  assert.deepEqual([...is.keys()], [...was.keys()]);
  for (const item of ITEMS.filter((i) => i !== radiohead && i !== mariza)) assert.equal(is.get(uid(item)), was.get(uid(item)));
});

test('content lines end with CRLF and are folded at 75 octets (RFC 5545 §3.1)', () => {
  const long: CalendarItem = {
    ...radiohead,
    fields: {
      ...radiohead.fields,
      canonicalId: 'itm_9b9b9b9b9b9b9b9b9b9b9b9b',
      venue: 'Große Halle der Zürcher Tonhalle — ünd ein sehr langer Name, damit gefaltet wird',
    },
  };
  const folded = renderCalendar(options([...ITEMS, long]));
  assert.ok(folded.endsWith('END:VCALENDAR\r\n'));
  const lines = folded.slice(0, -2).split('\r\n');
  for (const line of lines) {
    assert.ok(!/[\r\n]/.test(line), 'a bare CR or LF');
    assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `${Buffer.byteLength(line, 'utf8')} octets: ${line}`);
  }
  assert.ok(
    lines.some((line) => line.startsWith(' ')),
    'something was folded',
  );
  // Folding never splits a UTF-8 sequence, so unfolding restores the text.
  assert.equal(value(eventOf(folded, long), 'location'), `${String(long.fields.venue)}, London, United Kingdom`);
});

test('zoned times land on the instant the zone gives them, across DST rules (VTIMEZONE from Intl)', () => {
  const zones = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'Africa/Casablanca'];
  const HOUR = 3_600_000;
  const offset = (zone: string, ms: number) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(ms);
    const m = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(parts.find((p) => p.type === 'timeZoneName')!.value)!;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  fc.assert(
    fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(2005, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 }), (zone, minute) => {
      const ms = minute * 60_000;
      // Wall times repeated or skipped by a change are ambiguous by nature; leave them out.
      fc.pre(offset(zone, ms - 3 * HOUR) === offset(zone, ms + 3 * HOUR));
      const local = new Date(ms + offset(zone, ms)).toISOString().slice(0, 16);
      const item: CalendarItem = { ...radiohead, fields: { ...radiohead.fields, date: local, timezone: zone } };
      const start = new ICAL.Event(eventOf(renderCalendar(options([item])), item)).startDate;
      assert.equal(start.toJSDate().getTime(), ms, `${local} ${zone}`);
    }),
    { numRuns: 150 },
  );
});

test('a zoned record whose local time the compiler gave the zone’s offset yields the same calendar as the local time', () => {
  const resolved: CalendarItem = { ...radiohead, fields: { ...radiohead.fields, date: '2023-06-14T20:00+01:00' } };
  const start = eventOf(renderCalendar(options([resolved])), resolved).getFirstProperty('dtstart')!;
  assert.equal(start.getParameter('tzid'), 'Europe/London');
  assert.equal(renderCalendar(options([resolved])), renderCalendar(options([radiohead])));
  // An offset the owner wrote that differs from the zone's is the same instant, shown on the zone's clock.
  const utc: CalendarItem = { ...radiohead, fields: { ...radiohead.fields, date: '2023-06-14T19:00Z' } };
  assert.equal(renderCalendar(options([utc])), renderCalendar(options([radiohead])));
});
