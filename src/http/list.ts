/**
 * A collection list answer: query the core once, render the envelope, tag it and build
 * its headers. The compiler calls this for each static page one and the REST handler for
 * every other query, so both produce the same bytes and headers for the same query.
 */
import type { Query, QueryCore } from '../core/query.ts';
import { pageLinks, renderJson } from '../formats/json.ts';
import { strongEtag } from './etag.ts';
import { listHeaders } from './headers.ts';

export interface ListAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

export const JSON_MEDIA_TYPE = 'application/json';

export function listAnswer(core: QueryCore, query: Query): ListAnswer {
  const page = core.run(query);
  const links = pageLinks(query, page);
  const body = Buffer.from(renderJson(query, page, links));
  const headers = listHeaders({ contentType: JSON_MEDIA_TYPE, etag: strongEtag(body), totalCount: page.totalCount, links });
  headers['Content-Length'] = String(body.length);
  return { body, headers };
}
