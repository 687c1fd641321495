/**
 * What the home page shows: the owner (h-card), every collection with its count and its
 * newest records, the latest across collections (the feed's first items), and where the
 * feeds, calendars, exports and APIs are. One view for the page and its Markdown twin.
 * The owner is the profile the build stored (content/site.yaml, src/collections/profile.ts).
 */
import { collection } from '../collections/index.ts';
import { parseQuery } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { CALENDARS, collectionPageUrl, EXPORTS, LINKS, PAGES, recordUrl, URLS } from '../urls.ts';
import { formatDate } from './format.ts';
import { jsonLdText } from './jsonld.ts';
import { pictureOf, type PictureView } from './media.ts';
import { itemView, pageCollections, type ItemView } from './view.ts';

export interface HomeCollection {
  name: string;
  title: string;
  description: string;
  count: number;
  href: string;
  newest: ItemView[];
}

export interface HomeView {
  owner: {
    name: string;
    url: string;
    note?: string;
    /** The profile's photo, when the build published its file. */
    photo?: PictureView;
    /** `rel=me` links: the owner's profiles elsewhere. */
    me: string[];
    title: string;
    description: string;
    language: string;
  };
  /** The owner as a schema.org `Person`, serialized for a `<script type="application/ld+json">`. */
  jsonLd: string;
  collections: HomeCollection[];
  latest: (ItemView & { collection: string })[];
  links: { label: string; href: string; about: string }[];
}

const NEWEST = 3;
const LATEST = 10;

export function homeView(core: QueryCore): HomeView {
  const collections = [collection('blog')!, ...pageCollections].map((c) => {
    const page = core.run(parseQuery(c, new URLSearchParams({ limit: String(NEWEST) })));
    return {
      name: c.name,
      title: c.title,
      description: c.description,
      count: page.totalCount,
      href: collectionPageUrl(c.name),
      newest: page.items.map((json) => itemView(c, JSON.parse(json) as Record<string, unknown>)),
    };
  });
  const feed = core.run(parseQuery(collection('feed-items')!, new URLSearchParams({ limit: String(LATEST) })));
  const latest = feed.items.map((json) => {
    const r = JSON.parse(json) as { canonicalId: string; collection: string; title: string; date: string; url: string };
    const source = collection(r.collection);
    const href = r.collection === 'blog' || r.collection === 'writing' ? new URL(r.url).pathname : recordUrl(r.collection, r.canonicalId);
    return {
      canonicalId: r.canonicalId,
      collection: source?.title ?? r.collection,
      title: r.title,
      href,
      date: { iso: r.date, text: formatDate(r.date) },
      detail: source?.title ?? '',
    };
  });
  const links = [
    { label: 'Atom feed', href: LINKS.atomFeed, about: 'what happened, for feed readers' },
    { label: 'JSON Feed', href: LINKS.jsonFeed, about: 'the same, as JSON' },
    ...CALENDARS.map((c) => ({ label: c.name, href: c.path, about: 'iCalendar feed' })),
    ...EXPORTS.map((e) => ({ label: e.path.slice(1), href: e.path, about: `map export (${e.mediaType})` })),
    { label: 'API guide', href: PAGES.api, about: 'REST, GraphQL, SQL, problem types' },
    { label: 'OpenAPI', href: LINKS.openapi, about: 'the REST description' },
    { label: 'GraphQL', href: LINKS.graphql, about: 'explorer and endpoint' },
    { label: 'Map', href: PAGES.map, about: 'places, concerts and photos on a map of the world' },
    { label: 'Search', href: PAGES.search, about: 'every collection at once' },
    { label: 'Subscribe', href: URLS.subscribe, about: 'calendars and exports explained' },
    { label: 'llms.txt', href: PAGES.llms, about: 'this site for language models' },
  ];
  const profile = core.image.profile;
  const url = core.image.siteUrl;
  const photo = profile.photo ? pictureOf('photos', { ...profile.photo }, (path) => core.image.media(path)) : undefined;
  const owner = {
    name: profile.name,
    url,
    ...(profile.note ? { note: profile.note } : {}),
    ...(photo ? { photo } : {}),
    me: profile.me,
    title: profile.title,
    description: profile.description,
    language: profile.language,
  };
  const person = {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: profile.name,
    url,
    ...(profile.note ? { description: profile.note } : {}),
    ...(photo ? { image: new URL(photo.src, url).href } : {}),
    ...(profile.me.length ? { sameAs: profile.me } : {}),
  };
  return { owner, jsonLd: jsonLdText(person), collections, latest, links };
}
