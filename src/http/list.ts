/**
 * A collection list answer: query the core once, hand the page to the chosen serializer,
 * tag the bytes and build the headers. The compiler calls this for each static page one
 * and the REST handler for every other query, so both produce the same bytes and headers
 * for the same query.
 */
import type { Query } from '../core/params.ts';
import type { QueryCore } from '../core/query.ts';
import { serializers, type Serializer } from '../formats/index.ts';
import { pageLinks } from '../formats/json.ts';
import { strongEtag } from './etag.ts';
import { linkTemplate, listHeaders } from './headers.ts';
import { collectionUrl } from '../urls.ts';

export interface ListAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

export function listAnswer(core: QueryCore, query: Query, serializer: Serializer = serializers[0]!): ListAnswer {
  const page = core.run(query);
  const links = pageLinks(query, page);
  const body = Buffer.from(serializer.render(query, page, links, { url: core.image.siteUrl }));
  const headers = listHeaders({
    path: collectionUrl(query.collection.name),
    template: linkTemplate(query.collection),
    contentType: serializer.contentType,
    etag: strongEtag(body),
    totalCount: page.totalCount,
    links,
    asOf: page.asOf,
  });
  headers['Content-Length'] = String(body.length);
  return { body, headers };
}
