/**
 * REST collection lists: `GET|HEAD /api/<collection>.json`. Parses and bounds the query,
 * asks the core for the page and answers with the JSON envelope and its headers; every
 * fault becomes an RFC 9457 problem. A Web-standard handler: it takes a Request and
 * returns a Response, so tests call it without a server.
 */
import { collection } from '../src/collections/index.ts';
import { PublicError } from '../src/core/errors.ts';
import { LIMITS } from '../src/core/limits.ts';
import { parseQuery } from '../src/core/params.ts';
import type { QueryCore } from '../src/core/query.ts';
import { ifNoneMatchMatches, notModified } from '../src/http/conditional.ts';
import { listAnswer } from '../src/http/list.ts';
import { errorResponse, problemResponse } from '../src/http/problem.ts';

const COLLECTION_PATH = /^\/api\/([a-z][a-z-]*)\.json$/;
const ALLOW = 'GET, HEAD';

export function isRestPath(pathname: string): boolean {
  return COLLECTION_PATH.test(pathname);
}

export function createRestHandler(core: QueryCore): (request: Request) => Response {
  return (request) => {
    try {
      const url = new URL(request.url);
      const declaration = collection(COLLECTION_PATH.exec(url.pathname)?.[1] ?? '');
      if (!declaration?.rest) {
        throw new PublicError('not-found', 'There is no collection at this path; the home page lists every collection.');
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return problemResponse('method-not-allowed', `Collections are read-only; use ${ALLOW}.`, { headers: { Allow: ALLOW } });
      }
      if (Buffer.byteLength(url.search) > LIMITS.queryStringBytesMax) {
        throw new PublicError('query-too-long', `The query string is longer than ${LIMITS.queryStringBytesMax} bytes.`);
      }
      const answer = listAnswer(core, parseQuery(declaration, url.searchParams));
      if (ifNoneMatchMatches(request.headers.get('If-None-Match'), answer.headers.ETag!)) return notModified(answer.headers);
      return new Response(request.method === 'HEAD' ? null : answer.body, { status: 200, headers: answer.headers });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
