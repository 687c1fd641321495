/**
 * The feed documents written at build: the newest `feedDocumentItems` feed items, as
 * JSON Feed and Atom, read from the image through the query core in the feed's own
 * order (date desc, canonicalId), with absolute links from the configured site URL.
 */
import { collection, contentCollections } from '../../collections/index.ts';
import { LIMITS } from '../../core/limits.ts';
import { parseQuery } from '../../core/params.ts';
import type { QueryCore } from '../../core/query.ts';
import { ATOM_MEDIA_TYPE, JSON_FEED_MEDIA_TYPE, renderAtom, renderJsonFeed, type FeedItem, type FeedSite } from '../../formats/feed.ts';
import type { Document } from './document.ts';
import { URLS } from '../../urls.ts';

/** The feeds' author is the owner's profile as the image holds it (src/collections/profile.ts). */
export function feedDocuments(core: QueryCore): Document[] {
  const profile = core.image.profile;
  const feed = collection('feed-items')!;
  const page = core.run(parseQuery(feed, new URLSearchParams({ limit: String(LIMITS.feedDocumentItems) })));
  const items = page.items.map((json) => JSON.parse(json) as FeedItem);
  const site: FeedSite = {
    url: core.image.siteUrl,
    title: 'Collections',
    description: feed.description,
    author: profile.name,
    collectionTitles: Object.fromEntries(contentCollections.map((c) => [c.name, c.title])),
    asOf: page.asOf,
  };
  return [
    {
      path: URLS.jsonFeed,
      file: URLS.jsonFeed.slice(1),
      contentType: JSON_FEED_MEDIA_TYPE,
      body: renderJsonFeed(items, site),
      lastModified: page.lastModified,
    },
    { path: URLS.atomFeed, file: URLS.atomFeed.slice(1), contentType: ATOM_MEDIA_TYPE, body: renderAtom(items, site), lastModified: page.lastModified },
  ];
}
