/**
 * A collection list answer: query the core once, hand the page to the chosen serializer,
 * tag the bytes and build the headers. The compiler calls this for each static page one
 * and the REST handler for every other query, so both produce the same bytes and headers
 * for the same query.
 */
import type { Query } from '../core/params.ts';
import type { PageSummary, QueryCore } from '../core/query.ts';
import { serializers, type Serializer } from '../formats/index.ts';
import { pageLinks, type PageLinks } from '../formats/json.ts';
import { strongEtag } from './etag.ts';
import { linkTemplate, listHeaders } from './headers.ts';
import { collectionUrl } from '../urls.ts';

export interface ListAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

export function listAnswer(core: QueryCore, query: Query, serializer: Serializer = serializers[0]!): ListAnswer {
  const { page, links, body } = rendered(core, query, serializer);
  const headers = listHeaders({
    path: collectionUrl(query.collection.name),
    template: linkTemplate(query.collection),
    contentType: serializer.contentType,
    etag: strongEtag(body),
    totalCount: page.totalCount,
    links,
    lastModified: page.lastModified,
  });
  headers['Content-Length'] = String(body.length);
  return { body, headers };
}

/** The page and its body: a format that splices items in as stored takes them joined by SQLite. */
function rendered(core: QueryCore, query: Query, serializer: Serializer): { page: PageSummary; links: PageLinks; body: Buffer } {
  if (serializer.renderJoined) {
    const page = core.runJoined(query);
    const links = pageLinks(query, page);
    return { page, links, body: serializer.renderJoined(query, page, links) };
  }
  const page = core.run(query);
  const links = pageLinks(query, page);
  return { page, links, body: Buffer.from(serializer.render(query, page, links, { url: core.image.siteUrl })) };
}
