/**
 * Any string a record holds comes back out of the KML, GPX and Atom documents exactly,
 * as a real XML parser (@xmldom/xmldom) reads them, over arbitrary strings: entity-like
 * sequences (`&amp;`, `&lt;`, `&nbsp;`, `&#38;`), markup (`<`, `]]>`, quotes), line ends
 * (CR and CRLF, which XML normalizes), tabs and line feeds in attributes, astral
 * characters — and characters XML 1.0 cannot carry at all (C0 controls other than tab,
 * LF and CR; unpaired surrogates; U+FFFE and U+FFFF). Those cannot round-trip, in any
 * spelling: each is written as U+FFFD REPLACEMENT CHARACTER, and the test expects exactly
 * that. xmldom does not reject characters outside XML's `Char` production, so each
 * document is also checked against that production here, and hostile documents once by
 * libxml2 (xmllint-wasm): against the KML and GPX schemas, and for well-formedness.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOMParser, type Element } from '@xmldom/xmldom';
import fc from 'fast-check';
import { renderAtom, type FeedItem, type FeedSite } from '../../src/formats/feed.ts';
import { renderGpx } from '../../src/formats/gpx.ts';
import { renderKml } from '../../src/formats/kml.ts';
import type { LocatedItem } from '../../src/formats/located.ts';
import { assertValidXml, assertWellFormedXml } from '../helpers/xml.ts';

/** XML 1.0 §2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const isXmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/** What a parser must read back: the string, each character XML cannot carry as U+FFFD (iterated by code point: a lone surrogate is one). */
const readBack = (s: string) => Array.from(s, (c) => (isXmlChar(c.codePointAt(0)!) ? c : '\uFFFD')).join('');

function parse(xml: string): Element {
  for (const c of xml) assert.ok(isXmlChar(c.codePointAt(0)!), `U+${c.codePointAt(0)!.toString(16).toUpperCase()} is not an XML 1.0 character`);
  // Errors only: xmldom warns of any U+FFFD ("source encoding issues?"), which here is the documented replacement.
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`${level}: ${message}`);
    },
  });
  return parser.parseFromString(xml, 'text/xml').documentElement!;
}

const children = (parent: Element, name: string) =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).localName === name);
const child = (parent: Element, name: string) => children(parent, name)[0];
const textOf = (parent: Element, name: string) => child(parent, name)?.textContent ?? undefined;

/** The hard parts, mixed into arbitrary text. */
const PIECES = [
  '&',
  '&amp;',
  '&lt;',
  '&gt;',
  '&quot;',
  '&apos;',
  '&nbsp;',
  '&#38;',
  '&#x26;',
  '&#13;',
  '&#0;',
  '&amp',
  'amp;',
  '&&lt;;',
  '<',
  '>',
  ']]>',
  '<![CDATA[',
  '"',
  "'",
  '<!--',
  '?>',
  '\r',
  '\r\n',
  '\n',
  '\t',
  '  ',
  ' ',
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000B',
  '\u000C',
  '\u001F',
  '\u007F',
  '\u0085',
  '\u2028',
  '\uFFFE',
  '\uFFFF',
  '\uFFFD',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uDFFF\uD800',
  '😀',
  '\u{10FFFF}',
  '\u{1F1EB}\u{1F1F7}',
  'é',
  'e\u0301',
  'Ω',
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 12 })
  .map((parts) => parts.join(''));
const nonEmpty = hostile.filter((s) => s.length > 0);
const optional = fc.option(hostile, { nil: undefined });

const SITE = 'https://example.org';
const cid = (i: number) => `itm_${i.toString(16).padStart(24, '0')}`;

const located = fc.record({
  name: optional,
  title: optional,
  category: optional,
  neighborhood: optional,
  address: optional,
  city: optional,
  country: optional,
  notes: optional,
  mapsUrl: optional,
  coordinatesSource: optional,
  coordinatesLicense: optional,
});
const places = fc.array(located, { minLength: 1, maxLength: 3 }).map((items) =>
  items.map((fields, i): LocatedItem => {
    const item = { canonicalId: cid(i + 1), collection: 'places', coordinates: { latitude: 1 + i, longitude: 2 + i }, ...fields };
    for (const key of Object.keys(item) as (keyof typeof item)[]) if (item[key] === undefined) delete item[key];
    return item as LocatedItem;
  }),
);

/** The one-line address the writers compose, from the strings a parser must give back. */
const placeLine = (item: LocatedItem) => [...(item.address ? [item.address] : [item.neighborhood, item.city]), item.country].filter(Boolean).join(', ');

test('KML: every string of a place comes back out of its Placemark exactly', () => {
  fc.assert(
    fc.property(nonEmpty, places, (title, items) => {
      const kml = parse(renderKml(title, items, SITE));
      const document = child(kml, 'Document')!;
      assert.equal(textOf(document, 'name'), readBack(title));
      const placemarks = children(document, 'Folder').flatMap((folder) => children(folder, 'Placemark').map((p) => ({ folder: textOf(folder, 'name'), p })));
      assert.equal(placemarks.length, items.length);
      for (const item of items) {
        const { folder, p } = placemarks.find(({ p }) => p.getAttribute('id') === item.canonicalId)!;
        assert.equal(folder, readBack(item.category ?? 'other'));
        assert.equal(textOf(p, 'name'), readBack(item.name ?? item.title ?? item.canonicalId));
        assert.equal(textOf(p, 'address'), placeLine(item) ? readBack(placeLine(item)) : undefined);
        assert.equal(textOf(p, 'description'), item.notes ? readBack(item.notes) : undefined);
        const data = Object.fromEntries(children(child(p, 'ExtendedData')!, 'Data').map((d) => [d.getAttribute('name'), textOf(d, 'value')]));
        for (const key of ['city', 'country', 'neighborhood', 'mapsUrl', 'coordinatesSource', 'coordinatesLicense'] as const) {
          assert.equal(data[key], item[key] === undefined ? undefined : readBack(item[key]), key);
        }
        assert.equal(data.category, readBack(item.category ?? 'other'));
      }
    }),
    { numRuns: 300 },
  );
});

test('GPX: every string of a place comes back out of its waypoint exactly', () => {
  fc.assert(
    fc.property(nonEmpty, places, (title, items) => {
      const gpx = parse(renderGpx(title, items, SITE, '2025-01-01T00:00:00Z'));
      assert.equal(textOf(child(gpx, 'metadata')!, 'name'), readBack(title));
      const waypoints = children(gpx, 'wpt');
      assert.equal(waypoints.length, items.length);
      items.forEach((item, i) => {
        const wpt = waypoints[i]!;
        assert.equal(textOf(wpt, 'name'), readBack(item.name ?? item.title ?? item.canonicalId));
        assert.equal(textOf(wpt, 'desc'), readBack([item.category, placeLine(item)].filter(Boolean).join(' · ')));
        assert.equal(textOf(wpt, 'type'), item.category ? readBack(item.category) : undefined);
      });
    }),
    { numRuns: 300 },
  );
});

const feedItem = fc.record({ title: hostile, url: hostile, collection: fc.constantFrom('books', 'concerts') });

test('Atom: every string of a feed item, and of the site, comes back out of the feed exactly', () => {
  fc.assert(
    fc.property(fc.array(feedItem, { maxLength: 3 }), hostile, hostile, (fields, author, description) => {
      const items: FeedItem[] = fields.map((f, i) => ({ ...f, canonicalId: cid(i + 1), date: '2025-01-01' }));
      const site: FeedSite = {
        url: SITE,
        title: 'Collections',
        description,
        author,
        collectionTitles: { books: 'Books & <Reading>', concerts: 'Concerts' },
        asOf: '2025-06-01T00:00:00Z',
      };
      const feed = parse(renderAtom(items, site));
      assert.equal(textOf(child(feed, 'author')!, 'name'), readBack(author));
      assert.equal(textOf(feed, 'subtitle'), readBack(description));
      const entries = children(feed, 'entry');
      assert.equal(entries.length, items.length);
      items.forEach((item, i) => {
        const entry = entries[i]!;
        assert.equal(textOf(entry, 'title'), readBack(item.title));
        assert.equal(child(entry, 'link')!.getAttribute('href'), readBack(item.url));
        assert.equal(textOf(entry, 'summary'), readBack(`${site.collectionTitles[item.collection]}: ${item.title}`));
        assert.equal(child(entry, 'category')!.getAttribute('label'), site.collectionTitles[item.collection]);
      });
    }),
    { numRuns: 300 },
  );
});

test('libxml2 finds hostile documents well-formed, and the KML and GPX valid against their schemas', async () => {
  const nasty = PIECES.join('');
  const item: LocatedItem = {
    canonicalId: cid(1),
    collection: 'places',
    name: nasty,
    category: nasty,
    city: nasty,
    country: nasty,
    notes: nasty,
    coordinatesSource: nasty,
    coordinates: { latitude: 1, longitude: 2 },
  };
  await assertValidXml(renderKml(nasty, [item], SITE), 'kml', 'hostile.kml');
  await assertValidXml(renderGpx(nasty, [item], SITE, '2025-01-01T00:00:00Z'), 'gpx', 'hostile.gpx');
  const feed: FeedSite = { url: SITE, title: nasty, description: nasty, author: nasty, collectionTitles: { books: nasty }, asOf: '2025-06-01T00:00:00Z' };
  await assertWellFormedXml(renderAtom([{ canonicalId: cid(1), collection: 'books', title: nasty, url: nasty, date: '2025-01-01' }], feed), 'hostile.atom');
});

test('an empty Atom feed is updated as of the site’s data, never 1970 (RFC 4287 requires atom:updated)', () => {
  const site: FeedSite = { url: SITE, title: 'Collections', description: 'd', author: 'a', collectionTitles: {}, asOf: '2025-06-01T12:30:00Z' };
  const updated = parse(renderAtom([], site)).getElementsByTagName('updated')[0]?.textContent;
  assert.equal(updated, '2025-06-01T12:30:00Z');
});
