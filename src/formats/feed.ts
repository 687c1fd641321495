/**
 * The feed documents: the newest feed items as JSON Feed 1.1 (`/feed.json`,
 * `application/feed+json`) and Atom 1.0 (RFC 4287, `/feed.xml`, `application/atom+xml`).
 * Both are pure functions of the items and the site's absolute URL: `updated` is the
 * newest item's date (an empty feed's, the site's as-of time), never the clock, so the
 * same content gives the same bytes. Item
 * dates are written as RFC 3339 date-times: a date alone becomes its midnight UTC, and a
 * local time without an offset is written as UTC (a record that names its zone has its
 * local times published with the zone's offset; one without has nothing better). Atom's
 * text and attribute values pass through xml-text.ts, so a parser reads back each
 * record's string exactly.
 */
import { create } from 'xmlbuilder2';
import { recordUrl, URLS } from '../urls.ts';
import { xmlAttribute, xmlText } from './xml-text.ts';

export interface FeedItem {
  canonicalId: string;
  collection: string;
  title: string;
  date: string;
  url: string;
}

export interface FeedSite {
  /** Absolute, no trailing slash. */
  url: string;
  title: string;
  description: string;
  author: string;
  /** Collection name → its title, for categories and text. */
  collectionTitles: Readonly<Record<string, string>>;
  /** When the site's data last changed (RFC 3339): an empty feed's `updated`, which Atom requires (src/core/image.ts `asOf`). */
  asOf: string;
}

export const JSON_FEED_MEDIA_TYPE = 'application/feed+json';
export const ATOM_MEDIA_TYPE = 'application/atom+xml';

/** An RFC 3339 date-time for a date or (possibly local) date-time as the records write them. */
export function rfc3339(date: string): string {
  const [day, time = '00:00:00'] = date.split('T') as [string, string?];
  const m = /^(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(time);
  if (!m) return `${day}T00:00:00Z`;
  return `${day}T${m[1]}${m[2] ?? ':00'}${m[3] ?? 'Z'}`;
}

/** The detail text of an item: which collection it came from, and what. */
const text = (item: FeedItem, site: FeedSite) => `${site.collectionTitles[item.collection] ?? item.collection}: ${item.title}`;
/** A stable, unique entry ID that survives a change of title: the record's canonicalId under the site's URL. */
const entryId = (item: FeedItem, site: FeedSite) => `${site.url}${recordUrl(item.collection, item.canonicalId)}`;

export function renderJsonFeed(items: readonly FeedItem[], site: FeedSite): string {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: site.title,
    home_page_url: `${site.url}/`,
    feed_url: `${site.url}${URLS.jsonFeed}`,
    description: site.description,
    language: 'en',
    authors: [{ name: site.author }],
    items: items.map((item) => ({
      id: entryId(item, site),
      url: item.url,
      title: item.title,
      content_text: text(item, site),
      date_published: rfc3339(item.date),
      tags: [item.collection],
      _collections: { collection: item.collection, canonicalId: item.canonicalId },
    })),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

export function renderAtom(items: readonly FeedItem[], site: FeedSite): string {
  const feed = create({ version: '1.0', encoding: 'UTF-8' }).ele('http://www.w3.org/2005/Atom', 'feed', { 'xml:lang': 'en' });
  feed.ele('id').txt(xmlText(`${site.url}${URLS.atomFeed}`));
  feed.ele('title').txt(xmlText(site.title));
  feed.ele('subtitle').txt(xmlText(site.description));
  feed.ele('updated').txt(rfc3339(items[0]?.date ?? site.asOf));
  feed.ele('author').ele('name').txt(xmlText(site.author));
  feed.ele('link', { rel: 'self', type: ATOM_MEDIA_TYPE, href: xmlAttribute(`${site.url}${URLS.atomFeed}`) });
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: xmlAttribute(`${site.url}/`) });
  feed.ele('generator').txt('Collections');
  for (const item of items) {
    const entry = feed.ele('entry');
    entry.ele('id').txt(xmlText(entryId(item, site)));
    entry.ele('title').txt(xmlText(item.title));
    entry.ele('link', { rel: 'alternate', href: xmlAttribute(item.url) });
    entry.ele('published').txt(rfc3339(item.date));
    entry.ele('updated').txt(rfc3339(item.date));
    entry.ele('category', { term: xmlAttribute(item.collection), label: xmlAttribute(site.collectionTitles[item.collection] ?? item.collection) });
    entry.ele('summary').txt(xmlText(text(item, site)));
  }
  return `${feed.end({ prettyPrint: true })}\n`;
}
