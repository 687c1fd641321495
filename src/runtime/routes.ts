/**
 * The route table: every path the runtime answers, in the order it is matched, with the
 * methods it takes, its handler kind and its body bound. The dispatcher
 * (src/runtime/dispatch.ts) owns everything around a handler — 404, 405 with `Allow`,
 * HEAD as GET without a body, the bounded body read, the catch-all — so a route is only
 * data and one function. The table assembles the handlers: a route calls its surface's
 * handler of the generation (`ServingRuntime`, src/runtime/serving.ts), built with its
 * own context, or hands the generation to a handler as that handler's own context
 * (functions/pages.ts reads a `SiteContext`). `DISPATCH_TABLE` is what
 * the dispatcher is given; `describeRoutes` lists the table for tests and the fuzz campaign.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  collectionPageAnswer,
  collectionPageOf,
  humaneProblem,
  isRecordPage,
  pageReplay,
  problemSiteOf,
  recordPageAnswer,
  searchPageAnswer,
} from '../../functions/pages.ts';
import { micropubBodyMax } from '../../functions/micropub.ts';
import { isCollectionPath } from '../../functions/rest.ts';
import { restCollections } from '../collections/index.ts';
import { LIMITS } from '../core/limits.ts';
import type { Answer, RequestFacts } from '../http/answer.ts';
import { negotiate } from '../http/negotiate.ts';
import { problemAnswer } from '../http/problem.ts';
import { paths } from '../paths.ts';
import type { DispatchTable } from './dispatch.ts';
import { allowedMethods, type Route } from './route.ts';
import type { ServingRuntime } from './serving.ts';
import { pageCollections } from '../site/view.ts';
import { collectionPageUrl, collectionUrl, exportAt, EXPORTS, LINKS, MICROPUB_URLS, OAUTH_URLS, PAGES, recordUrl, URLS } from '../urls.ts';
import { endWithAnswer } from './node.ts';
import { upgradeFacts } from '../../functions/rpc.ts';

/** Whether a GET of the GraphQL endpoint asks for the explorer page (a browser) or its Markdown twin (an agent) rather than GraphQL over HTTP. */
const wantsExplorer = (request: RequestFacts) =>
  request.method === 'GET' &&
  ['text/html', 'text/markdown'].includes(
    negotiate(request.header('Accept'), ['application/graphql-response+json', 'application/json', 'text/html', 'text/markdown']) ?? '',
  );

/** A route at one fixed path: its pattern is the path, and it matches only that. */
const exactly = (path: string) => ({ path, matches: (pathname: string) => pathname === path });

/** An owner-lane route at one fixed path, answered only when the process opened an authorization server. */
const oauthAt = (path: string) => ({ path, matches: (pathname: string, rt: ServingRuntime) => pathname === path && rt.oauth !== undefined });

export const ROUTES: readonly Route[] = [
  {
    name: 'sql',
    ...exactly(URLS.sql),
    methods: ['QUERY', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.sqlRequestBytesMax,
    answer: (rt, request, body) => rt.sql(request, body),
  },
  {
    name: 'graphql',
    ...exactly(URLS.graphql),
    methods: ['GET', 'POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.graphqlDocumentBytesMax,
    answer: (rt, request, body) =>
      rt.explorer && wantsExplorer(request)
        ? rt.files.answer(request, rt.files.resolve(`${URLS.graphql}/`, request.header('Accept')) ?? rt.explorer)
        : rt.graphql(request, body),
  },
  {
    name: 'mcp',
    ...exactly(URLS.mcp),
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    kind: 'fetch',
    bodyMax: LIMITS.mcpRequestBytesMax,
    fetch: (rt, exchange) => rt.mcp(exchange),
  },
  {
    name: 'status',
    ...exactly(LINKS.status),
    methods: ['GET'],
    kind: 'answer',
    answer: (rt, request) => rt.status(request),
  },
  {
    name: 'taste-summary',
    metered: true,
    ...exactly(URLS.tasteSummary),
    methods: ['GET'],
    kind: 'answer',
    answer: (rt, request) => rt.taste(request),
  },
  {
    name: 'music-intersections',
    metered: true,
    ...exactly(URLS.musicIntersections),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.musicIntersectionBytesMax,
    answer: (rt, request, body) => rt.music.intersections(request, body),
  },
  {
    name: 'music-station',
    metered: true,
    ...exactly(URLS.musicStation),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.musicStationBytesMax,
    answer: (rt, request, body) => rt.music.station(request, body),
  },
  // The owner lane's authorization server (src/oauth/): present when the process opened one.
  {
    name: 'oauth-protected-resource',
    ...oauthAt(OAUTH_URLS.protectedResource),
    methods: ['GET', 'OPTIONS'],
    kind: 'answer',
    answer: (rt, request) => (request.method === 'OPTIONS' ? rt.oauth!.preflight('GET, HEAD, OPTIONS') : rt.oauth!.protectedResource()),
  },
  {
    name: 'oauth-authorization-server',
    ...oauthAt(OAUTH_URLS.authorizationServer),
    methods: ['GET', 'OPTIONS'],
    kind: 'answer',
    answer: (rt, request) => (request.method === 'OPTIONS' ? rt.oauth!.preflight('GET, HEAD, OPTIONS') : rt.oauth!.authorizationServer()),
  },
  {
    name: 'oauth-register',
    ...oauthAt(OAUTH_URLS.register),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.oauthRegistrationBytesMax,
    answer: (rt, request, body) =>
      request.method === 'OPTIONS' ? rt.oauth!.preflight('POST, OPTIONS') : rt.oauth!.register(request, body, rt.clientOf(request)),
  },
  {
    // GET: the authorization request; POST: the owner's answer on the consent page.
    // Metered like the collections: each request may write a sign-in record.
    name: 'oauth-authorize',
    metered: true,
    ...oauthAt(OAUTH_URLS.authorize),
    methods: ['GET', 'POST'],
    kind: 'answer',
    bodyMax: LIMITS.oauthFormBytesMax,
    answer: (rt, request, body) => (request.method === 'POST' ? rt.oauth!.consent(request, body) : rt.oauth!.authorize(request, rt.clientOf(request))),
  },
  {
    name: 'oauth-callback',
    ...oauthAt(OAUTH_URLS.callback),
    methods: ['GET'],
    kind: 'answer',
    answer: (rt, request) => rt.oauth!.callback(request),
  },
  {
    // Metered: a client_id that is a URL makes this server fetch it (src/oauth/cimd.ts).
    name: 'oauth-token',
    metered: true,
    ...oauthAt(OAUTH_URLS.token),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.oauthFormBytesMax,
    answer: (rt, request, body) => (request.method === 'OPTIONS' ? rt.oauth!.preflight('POST, OPTIONS') : rt.oauth!.token(request, body)),
  },
  {
    name: 'oauth-revoke',
    metered: true,
    ...oauthAt(OAUTH_URLS.revoke),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.oauthFormBytesMax,
    answer: (rt, request, body) => (request.method === 'OPTIONS' ? rt.oauth!.preflight('POST, OPTIONS') : rt.oauth!.revoke(request, body)),
  },
  {
    // The owner's connected applications: GET lists them (or starts a sign-in), POST revokes one.
    name: 'oauth-clients',
    metered: true,
    ...oauthAt(OAUTH_URLS.clients),
    methods: ['GET', 'POST'],
    kind: 'answer',
    bodyMax: LIMITS.oauthFormBytesMax,
    answer: (rt, request, body) => rt.oauth!.clients(request, body),
  },
  {
    // The owner lane's MCP endpoint: the bearer token is checked by the handler (functions/owner-mcp.ts).
    // Metered like every unit of work: a token does not make a client's requests free.
    name: 'owner-mcp',
    metered: true,
    ...oauthAt(OAUTH_URLS.ownerMcp),
    methods: ['POST', 'OPTIONS'],
    kind: 'fetch',
    bodyMax: LIMITS.mcpRequestBytesMax,
    fetch: (rt, exchange) => rt.ownerMcp(exchange),
  },
  {
    // Micropub: posts from apps under an IndieAuth token, checked by the handler (functions/micropub.ts).
    // Metered like the owner's MCP endpoint; the body bound is a multipart one's, and the handler bounds JSON and forms tighter.
    // A request without a bearer header is bounded as a form from its headers: an unauthenticated upload is never read.
    name: 'micropub',
    metered: true,
    ...oauthAt(MICROPUB_URLS.micropub),
    methods: ['GET', 'POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.micropubMultipartBytesMax,
    bodyMaxFor: (request) => micropubBodyMax(request).bytes,
    answer: (rt, request, body) => rt.micropub(request, body),
  },
  {
    // Micropub's media endpoint (functions/micropub-media.ts): one image per request, bounded as `/micropub`'s multipart.
    name: 'micropub-media',
    metered: true,
    ...oauthAt(MICROPUB_URLS.media),
    methods: ['POST', 'OPTIONS'],
    kind: 'answer',
    bodyMax: LIMITS.micropubMultipartBytesMax,
    bodyMaxFor: (request) => micropubBodyMax(request).bytes,
    answer: (rt, request, body) => rt.micropubMedia(request, body),
  },
  {
    // Cap'n Web RPC: POST is an HTTP batch, GET with Upgrade a WebSocket session; it counts sessions itself.
    name: 'rpc',
    ...exactly(URLS.rpc),
    methods: ['GET', 'POST', 'OPTIONS'],
    kind: 'fetch',
    bodyMax: LIMITS.rpcBatchBytesMax,
    fetch: (rt, exchange) => rt.rpc.batch(exchange, rt.clientOf(exchange.facts)),
    upgrade: (rt, req, socket, head) => {
      const refuse = (refusal: Answer | undefined) => refusal && endWithAnswer(socket, refusal);
      const refusal = rt.rpc.upgrade(req, socket, head, rt.clientOf(upgradeFacts(req)));
      if (refusal instanceof Promise) void refusal.then(refuse, () => socket.destroy());
      else refuse(refusal);
    },
  },
  {
    // Collection lists always go through the REST handler (quotas, versions, negotiation);
    // their static page-one files are for CDNs, and the handler answers the same bytes.
    name: 'rest',
    path: '/api/{collection}.json',
    methods: ['GET', 'OPTIONS'],
    matches: (pathname) => isCollectionPath(pathname),
    kind: 'answer',
    answer: (rt, request) => rt.rest(request),
    replay: (rt, request) => rt.rest.replay(request),
  },
  {
    // Page one is the prerendered file (or its Markdown twin); a query string is rendered
    // on request with the REST list's parameters, validation and problems (functions/pages.ts).
    name: 'collection-page',
    path: '/{collection}/',
    methods: ['GET'],
    matches: (pathname) => collectionPageOf(pathname) !== undefined,
    kind: 'answer',
    answer: (rt, request) => collectionPageAnswer(rt, request),
    replay: (rt, request) => pageReplay(rt, 'collection', request),
  },
  {
    name: 'search-page',
    ...exactly(PAGES.search),
    methods: ['GET'],
    kind: 'answer',
    answer: (rt, request) => searchPageAnswer(rt, request),
    replay: (rt, request) => pageReplay(rt, 'search', request),
  },
  {
    name: 'static',
    path: '/{file}',
    methods: ['GET'],
    matches: (pathname, rt) => rt.files.resolve(pathname, null) !== undefined,
    kind: 'answer',
    answer: (rt, request) => rt.files.answer(request, rt.files.resolve(request.url.pathname, request.header('Accept'))!),
  },
  {
    // Present only when the build withheld the file (located records without provenance).
    name: 'withheld-export',
    path: '/places.{geojson,kml,gpx}',
    methods: ['GET'],
    matches: (pathname) => exportAt(pathname) !== undefined,
    kind: 'answer',
    answer: (rt, request) => rt.withheld(request) ?? problemAnswer('not-found', 'Nothing is published at this path.'),
  },
  {
    name: 'record-page',
    metered: true,
    path: '/{collection}/{canonicalId}',
    methods: ['GET'],
    matches: (pathname) => isRecordPage(pathname),
    kind: 'answer',
    answer: (rt, request) => recordPageAnswer(rt, request),
    replay: (rt, request) => pageReplay(rt, 'record', request),
  },
];

/** The dispatcher's table (src/runtime/dispatch.ts): these routes, and refusals answered as pages where a person reads them (functions/pages.ts). */
export const DISPATCH_TABLE: DispatchTable = { routes: ROUTES, problemSiteOf, humaneProblem };

export interface RouteDescription {
  name: string;
  methods: readonly string[];
  path: string;
  /** Concrete paths the route answers in the build at `distDir`. */
  examples: readonly string[];
  /** The most body bytes the route reads, when it reads one. */
  bodyMax?: number;
}

/**
 * The table as data, with concrete example paths read from a build: every collection
 * list, every static file, a record page per collection. For tests and the fuzz campaign,
 * which walk what the runtime serves rather than a list of their own.
 */
export function describeRoutes(distDir: string = paths.dist): RouteDescription[] {
  const manifest = JSON.parse(readFileSync(join(distDir, 'headers.json'), 'utf8')) as Record<string, unknown>;
  const recordPages = restCollections.flatMap((c) => {
    const file = join(distDir, 'client/api', `${c.name}.json`);
    try {
      const page = JSON.parse(readFileSync(file, 'utf8')) as { data: { canonicalId: string }[] };
      return page.data.slice(0, 1).map((item) => recordUrl(c.name, item.canonicalId));
    } catch {
      return [];
    }
  });
  const examples: Record<string, readonly string[]> = {
    rest: [...restCollections.map((c) => collectionUrl(c.name)), URLS.search],
    static: Object.keys(manifest).filter((path) => !isCollectionPath(path)),
    'withheld-export': EXPORTS.map((e) => e.path),
    'record-page': recordPages,
    'collection-page': pageCollections.map((c) => collectionPageUrl(c.name)),
  };
  return ROUTES.map((route) => ({
    name: route.name,
    methods: allowedMethods(route),
    path: route.path,
    examples: examples[route.name] ?? [route.path],
    ...(route.bodyMax !== undefined && { bodyMax: route.bodyMax }),
  }));
}
