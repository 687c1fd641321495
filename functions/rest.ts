/**
 * REST collection lists: `GET|HEAD /api/<collection>.json`. Parses and bounds the query,
 * asks the core for the page and answers with the JSON envelope and its headers; every
 * fault becomes an RFC 9457 problem. `restAnswer` works on plain request facts so the
 * node:http runtime calls it directly; `createRestHandler` is the same logic as a
 * Web-standard `(Request) => Response` handler, which tests call without a server.
 */
import { collection } from '../src/collections/index.ts';
import { PublicError } from '../src/core/errors.ts';
import { LIMITS } from '../src/core/limits.ts';
import { canonicalSearch, parseQuery } from '../src/core/params.ts';
import type { QueryCore } from '../src/core/query.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import { webHandler, type Answer, type RequestFacts } from '../src/http/answer.ts';
import { conditionalAnswer } from '../src/http/conditional.ts';
import { listAnswer } from '../src/http/list.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';

const COLLECTION_PATH = /^\/api\/([a-z][a-z-]*)\.json$/;
const ALLOW = 'GET, HEAD';

export function isRestPath(pathname: string): boolean {
  return COLLECTION_PATH.test(pathname);
}

export interface RestOptions {
  /** Byte budget of remembered answers; 0 turns remembering off. */
  cacheBytes?: number;
}

export function restAnswer(core: QueryCore, options: RestOptions = {}): (request: RequestFacts) => Answer {
  const cache = new AnswerCache(options.cacheBytes ?? LIMITS.answerCacheBytes);
  return (request) => {
    try {
      const { url } = request;
      const declaration = collection(COLLECTION_PATH.exec(url.pathname)?.[1] ?? '');
      if (!declaration?.rest) {
        throw new PublicError('not-found', 'There is no collection at this path; the home page lists every collection.');
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return problemAnswer('method-not-allowed', `Collections are read-only; use ${ALLOW}.`, { headers: { Allow: ALLOW } });
      }
      if (Buffer.byteLength(url.search) > LIMITS.queryStringBytesMax) {
        throw new PublicError('query-too-long', `The query string is longer than ${LIMITS.queryStringBytesMax} bytes.`);
      }
      const query = parseQuery(declaration, url.searchParams);
      const key = declaration.name + canonicalSearch(query, query.cursor);
      let answer = cache.get(key);
      if (!answer) {
        answer = listAnswer(core, query);
        cache.set(key, answer);
      }
      return conditionalAnswer(request.method, request.header('If-None-Match'), answer.headers, answer.body);
    } catch (error) {
      return errorAnswer(error);
    }
  };
}

export function createRestHandler(core: QueryCore, options: RestOptions = {}): (request: Request) => Response {
  return webHandler(restAnswer(core, options));
}
