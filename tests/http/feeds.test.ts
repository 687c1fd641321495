/**
 * `/feed.json` (JSON Feed 1.1) and `/feed.xml` (Atom 1.0), validated by parsers no one
 * here wrote — feedsmith for both, @rowanmanning/feed-parser for Atom, libxml2
 * (xmllint-wasm) for well-formedness — and checked for the elements each format
 * requires, absolute links, and agreement with the newest items of `/api/feed-items.json`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import { LIMITS } from '../../src/core/limits.ts';
import { rfc3339 } from '../../src/formats/feed.ts';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { assertWellFormedXml } from '../helpers/xml.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

interface FeedItem {
  canonicalId: string;
  collection: string;
  title: string;
  date: string;
  url: string;
}

async function newest(): Promise<FeedItem[]> {
  const r = await contractFetch(`${server.base}/api/feed-items.json?limit=${LIMITS.feedDocumentItems}`);
  return ((await r.json()) as { data: FeedItem[] }).data;
}

test('/feed.json is JSON Feed 1.1 (feedsmith parses it) with the newest feed items', async () => {
  const response = await contractFetch(`${server.base}/feed.json`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/feed+json');
  const text = await response.text();
  const raw = JSON.parse(text) as Record<string, unknown> & { items: Record<string, unknown>[] };
  assert.equal(raw.version, 'https://jsonfeed.org/version/1.1');
  const parsed = parseJsonFeed(text);
  assert.equal(parsed.title, 'Collections');
  assert.equal(parsed.feed_url, 'http://localhost:4321/feed.json');
  const expected = await newest();
  assert.equal(parsed.items!.length, expected.length);
  parsed.items!.forEach((item, i) => {
    const e = expected[i]!;
    assert.equal(item.url, e.url);
    assert.equal(item.title, e.title);
    assert.equal(item.date_published, rfc3339(e.date));
    assert.ok(!Number.isNaN(Date.parse(item.date_published!)), item.date_published);
    assert.ok(item.id && (item.content_text || item.content_html), 'id and content are required');
    assert.match(item.url!, /^https?:\/\//);
  });
  assert.equal(new Set(parsed.items!.map((i) => i.id)).size, parsed.items!.length, 'ids are unique');
});

test('/feed.xml is Atom (feedsmith and @rowanmanning/feed-parser parse it, libxml2 finds it well-formed) with the same items', async () => {
  const response = await contractFetch(`${server.base}/feed.xml`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/atom+xml');
  const xml = await response.text();
  await assertWellFormedXml(xml, 'feed.xml');
  // The same check refuses the feed cut short, or with an entry left open.
  await assert.rejects(assertWellFormedXml(xml.slice(0, -10), 'cut.xml'), /cut\.xml:\d+: parser error/);
  await assert.rejects(assertWellFormedXml(xml.replace('</entry>', ''), 'open.xml'), /open\.xml:\d+: parser error : Opening and ending tag mismatch: entry/);
  const expected = await newest();

  const atom = parseAtomFeed(xml);
  // RFC 4287 §4.1.1: a feed has id, title and updated; an author unless every entry has one.
  assert.ok(atom.id && atom.title && atom.updated && atom.authors?.length);
  assert.equal(atom.updated, rfc3339(expected[0]!.date), 'updated is the newest item’s date, not the clock');
  assert.ok(atom.links!.some((l) => l.rel === 'self' && l.href === 'http://localhost:4321/feed.xml'));
  assert.equal(atom.entries!.length, expected.length);
  atom.entries!.forEach((entry, i) => {
    // §4.1.2: every entry has id, title and updated.
    assert.ok(entry.id && entry.title && entry.updated);
    assert.equal(entry.links![0]!.href, expected[i]!.url);
  });

  const feed = parseFeed(xml);
  assert.deepEqual(feed.meta, { type: 'atom', version: '1.0' });
  assert.equal(feed.title, 'Collections');
  assert.equal(feed.items.length, expected.length);
  feed.items.forEach((item, i) => {
    assert.equal(item.url, expected[i]!.url);
    assert.equal(item.title, expected[i]!.title);
    assert.equal(item.published?.toISOString(), new Date(rfc3339(expected[i]!.date)).toISOString());
    assert.equal(item.categories[0]?.term, expected[i]!.collection);
  });
});

test('feed dates are RFC 3339 whatever the record wrote', () => {
  assert.equal(rfc3339('2024-05-01'), '2024-05-01T00:00:00Z');
  assert.equal(rfc3339('2024-05-01T18:30'), '2024-05-01T18:30:00Z');
  assert.equal(rfc3339('2024-05-01T18:30:05+02:00'), '2024-05-01T18:30:05+02:00');
  assert.equal(rfc3339('2024-05-01T18:30:05.250Z'), '2024-05-01T18:30:05.250Z');
});
