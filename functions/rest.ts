/**
 * REST lists: `GET|HEAD|OPTIONS /api/<collection>.json`, and the cross-collection search
 * `/api/search.json`, which differs only in its query and core. A request asked before in
 * the same words is replayed (`replay`, which the runtime's dispatcher asks before it
 * parses or routes the target): the quota, API-Version and preconditions still apply.
 * Otherwise, in order, each step before any query work: the path names a collection
 * (404), the method is allowed (405, or the CORS preflight), the client is within its
 * quota (429), the API version is one we serve (400), the query string is bounded (414)
 * and valid (400), and a media type is acceptable (406). Then the core answers, and
 * preconditions may turn the answer into a 304 — which spends no quota.
 * `createRestHandler` works on plain request facts so node:http calls it directly;
 * `createRestFetchHandler` is the Web-standard handler.
 */
import type { CollectionDeclaration } from '../src/collections/define.ts';
import { collection, collections, contentCollections } from '../src/collections/index.ts';
import { PublicError } from '../src/core/errors.ts';
import { LIMITS } from '../src/core/limits.ts';
import { parseQuery } from '../src/core/params.ts';
import type { QueryCore } from '../src/core/query.ts';
import { parseSearch, SearchCore } from '../src/core/search.ts';
import { serializersFor, type Serializer } from '../src/formats/index.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import { webHandler, type Answer, type RequestFacts } from '../src/http/answer.ts';
import { conditionalAnswer } from '../src/http/conditional.ts';
import { preflight } from '../src/http/cors.ts';
import { RATE_LIMIT_POLICY_NAME } from '../src/http/headers.ts';
import { listAnswer, type ListAnswer } from '../src/http/list.ts';
import { searchAnswer, SEARCH_MEDIA_TYPES } from '../src/http/search-list.ts';
import { negotiate } from '../src/http/negotiate.ts';
import { errorAnswer, problemAnswer } from '../src/http/problem.ts';
import { secured } from '../src/http/security.ts';
import { metered, RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';
import { checkApiVersion, servedApiVersion } from '../src/http/version.ts';
import { URLS } from '../src/urls.ts';

const COLLECTION_PATH = /^\/api\/([a-z][a-z-]*)\.json$/;
const ALLOW = 'GET, HEAD, OPTIONS';
const GEOGRAPHIC = new Set(['application/geo+json', 'application/vnd.google-earth.kml+xml', 'application/gpx+xml']);

/** Whether a path is one of the collection lists. */
export function isCollectionPath(pathname: string): boolean {
  return pathname === URLS.search || collection(COLLECTION_PATH.exec(pathname)?.[1] ?? '')?.rest === true;
}

export interface RestOptions {
  /** The cross-collection search of the runtime's generation (shared with the site's search page and RPC); a new one by default. */
  search?: SearchCore;
  /** Byte budget of remembered answers; 0 turns remembering off. */
  cacheBytes?: number;
  /** Where quota counters live; in-process by default. */
  counters?: CounterStore;
  /** A collections quota shared with other operations (the runtime's); built from the options below otherwise. */
  limiter?: RateLimiter;
  /** Requests per client per window; the SPEC's 1000 unless an operator sets another. */
  quota?: number;
  /** The clock quotas use (tests move it). */
  now?: () => number;
  /** The quota key of a request: its client address. */
  clientOf?: (request: RequestFacts) => string;
}

/** What a list is offered as: its serializers and their media types, in the server's order of preference. */
interface Offer {
  available: readonly Serializer[];
  mediaTypes: readonly string[];
}

export function createRestHandler(core: QueryCore, options: RestOptions = {}): RestHandler {
  const cache = new AnswerCache(options.cacheBytes ?? LIMITS.answerCacheBytes);
  const limiter =
    options.limiter ??
    new RateLimiter({
      store: options.counters,
      limit: options.quota ?? LIMITS.restRequestsPerWindow,
      windowSeconds: LIMITS.restWindowSeconds,
      policy: RATE_LIMIT_POLICY_NAME,
      now: options.now,
    });
  const clientOf = options.clientOf ?? (() => 'anonymous');
  const search = options.search ?? new SearchCore(core.image);
  const searchable = contentCollections.map((c) => c.name);
  const siteUrl = core.image.siteUrl;
  // What each list is offered as, fixed for the process: not filtered again per request.
  const offers = new Map(
    collections.map((c): [string, Offer] => {
      const available = serializersFor(c);
      return [c.name, { available, mediaTypes: available.map((s) => s.mediaType) }];
    }),
  );
  const searchMediaTypes = SEARCH_MEDIA_TYPES.map((m) => m.mediaType);

  const searchList = (url: URL, mediaType: string | undefined): ListAnswer => {
    const query = parseSearch(searchable, url.searchParams);
    if (!mediaType) throw new PublicError('not-acceptable', `search is available as ${searchMediaTypes.join(', ')}.`);
    return searchAnswer(search, query, mediaType);
  };
  const collectionList = (declaration: CollectionDeclaration, { available, mediaTypes }: Offer, url: URL, mediaType: string | undefined): ListAnswer => {
    const query = parseQuery(declaration, url.searchParams);
    const serializer = available.find((s) => s.mediaType === mediaType);
    if (!serializer) throw new PublicError('not-acceptable', `${declaration.name} is available as ${mediaTypes.join(', ')}.`);
    if (GEOGRAPHIC.has(serializer.mediaType) && !core.image.provenanceComplete(declaration.name)) {
      throw new PublicError(
        'location-provenance-incomplete',
        `Some ${declaration.name} records do not say where their coordinates came from, so geographic formats are off until the owner completes them; JSON and CSV still work.`,
      );
    }
    return listAnswer(core, query, serializer);
  };

  /**
   * Answers are remembered by what the request says: its `Accept` and its target as the
   * client wrote it (the path and query string where the adapter has no raw target). A
   * repeated request is then answered without parsing its target or its query again, or
   * negotiating again, which is exact: only a valid query's answer is remembered, and
   * within a generation the same words always name the same query and media type (two
   * spellings of one query are remembered apart). Each is remembered with every header it
   * leaves with but the client's count (the quota policy, the security headers), so a
   * replay copies nothing (src/http/rate-limit.ts `carry`, src/http/security.ts `secured`).
   */
  const keyOf = (request: RequestFacts) => {
    const target = request.target ?? request.url.pathname + request.url.search;
    const accept = request.header('Accept');
    // Without Accept the target alone, as the parser made it (no string is built); a
    // target holds no space, so no key of one form equals a key of the other.
    return accept === null ? target : `${accept} ${target}`;
  };

  /** The remembered list as this request asks for it: whole, headers alone (HEAD) or 304. */
  const replayed = (request: RequestFacts, list: ListAnswer): Answer =>
    conditionalAnswer(
      request.method,
      { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: request.header('If-Modified-Since') },
      list.headers,
      list.body,
      list.headers,
    );

  const answer = (request: RequestFacts): Answer => {
    try {
      const { url } = request;
      checkApiVersion(request.header('API-Version'));
      if (Buffer.byteLength(url.search) > LIMITS.queryStringBytesMax) {
        throw new PublicError('query-too-long', `The query string is longer than ${LIMITS.queryStringBytesMax} bytes.`);
      }
      const searching = url.pathname === URLS.search;
      const declaration = searching ? undefined : collection(COLLECTION_PATH.exec(url.pathname)?.[1] ?? '');
      if (!searching && !declaration) throw new PublicError('not-found', 'There is no collection at this path; the home page lists every collection.');
      const offer = declaration && offers.get(declaration.name)!;
      const mediaType = negotiate(request.header('Accept'), offer ? offer.mediaTypes : searchMediaTypes);
      const made = declaration && offer ? collectionList(declaration, offer, url, mediaType) : searchList(url, mediaType);
      const list = { body: made.body, headers: secured({ ...made.headers, ...limiter.policyHeaders }, url.pathname, siteUrl) };
      cache.set(keyOf(request), list);
      return replayed(request, list);
    } catch (error) {
      return errorAnswer(error);
    }
  };

  const handler = (request: RequestFacts): Answer | Promise<Answer> => {
    if (!isCollectionPath(request.url.pathname)) {
      return problemAnswer('not-found', 'There is no collection at this path; the home page lists every collection.');
    }
    if (request.method === 'OPTIONS') return preflight(ALLOW);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', `Collections are read-only; use ${ALLOW}.`, { headers: { Allow: ALLOW } });
    }
    return replay(request) ?? metered(limiter, clientOf(request), () => answer(request));
  };

  /**
   * A GET's (or HEAD's) remembered answer, under the quota, before anything else is read
   * of the request: the runtime's dispatcher asks here before it parses the target or
   * routes it. Undefined, having spent nothing, when none is remembered for these words
   * or the request names an API version not served (the full path refuses it).
   */
  const replay = (request: RequestFacts): Answer | Promise<Answer> | undefined => {
    if (!servedApiVersion(request.header('API-Version'))) return undefined;
    const list = cache.get(keyOf(request));
    return list && metered(limiter, clientOf(request), () => replayed(request, list));
  };

  return Object.assign(handler, { replay });
}

/** The REST handler: any request to a collection list; `replay` alone answers repeated ones (a GET or HEAD of a remembered list). */
export type RestHandler = ((request: RequestFacts) => Answer | Promise<Answer>) & {
  replay: (request: RequestFacts) => Answer | Promise<Answer> | undefined;
};

export function createRestFetchHandler(core: QueryCore, options: RestOptions = {}): (request: Request) => Response | Promise<Response> {
  return webHandler(createRestHandler(core, options));
}
