/**
 * The Node entry: serves dist/ through node:http. In order: public SQL (QUERY, with a
 * bounded body), GraphQL (or its explorer page, for browsers), status, the REST collection lists, static files with their precomputed
 * headers, withheld exports, and Astro's handler for record detail pages; anything else is
 * a 404 problem. Configuration is by environment (README, "Configuration"): `PORT`, `HOST`,
 * `ANSWER_CACHE_BYTES`, `TRUSTED_PROXIES`, `RATE_LIMIT_REQUESTS`, `SQL_RATE_LIMIT_REQUESTS`,
 * `GRAPHQL_COST_BUDGET`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withheldExport } from './functions/exports.ts';
import { graphqlAnswer, GRAPHQL_PATH } from './functions/graphql.ts';
import { isCollectionPath, restAnswer } from './functions/rest.ts';
import { sqlAnswer, SQL_PATH } from './functions/sql.ts';
import { statusAnswer } from './functions/status.ts';
import { tasteSummaryAnswer, TASTE_SUMMARY_PATH } from './functions/taste.ts';
import { musicAnswer, MUSIC_INTERSECTIONS_PATH, MUSIC_STATION_PATH } from './functions/music.ts';
import { collection } from './src/collections/index.ts';
import { Image } from './src/core/image.ts';
import { LIMITS } from './src/core/limits.ts';
import { QueryCore } from './src/core/query.ts';
import type { RequestFacts } from './src/http/answer.ts';
import { clientAddress, trustedProxiesFromEnv } from './src/http/client.ts';
import { problemAnswer } from './src/http/problem.ts';
import { paths } from './src/paths.ts';
import { negotiate } from './src/http/negotiate.ts';
import { nodeFacts, readBody, write } from './src/runtime/node.ts';
import { StaticFiles } from './src/runtime/static.ts';

const envNumber = (name: string) => (process.env[name] === undefined ? undefined : Number(process.env[name]));

const port = envNumber('PORT') ?? 4321;
const host = process.env.HOST ?? 'localhost';
/** The only pages Astro renders on request: `/<collection>/<canonicalId>`. */
const DETAIL_PAGE = /^\/[a-z][a-z-]*\/itm_[0-9a-f]{24}$/;

const files = new StaticFiles(paths.manifest, paths.client);
const trusted = trustedProxiesFromEnv(process.env.TRUSTED_PROXIES);
const peers = new WeakMap<RequestFacts, string>();
const image = new Image(paths.image);
const status = statusAnswer(image);
// One query core for every surface: one statement cache, one count cache.
const core = new QueryCore(image);
const taste = tasteSummaryAnswer(core);
// The music catalog and its similarity index are built on the first music request, not at start-up.
let music: ReturnType<typeof musicAnswer> | undefined;
const musicSurfaces = () => (music ??= musicAnswer(core.records(collection('music')!)));
const withheldExports = withheldExport(image);
const clientOf = (request: RequestFacts) => clientAddress(peers.get(request) ?? '', request.header('X-Forwarded-For'), trusted);
const sql = sqlAnswer({ image: readFileSync(paths.sqlImage), clientOf, quota: envNumber('SQL_RATE_LIMIT_REQUESTS') });
// The explorer page, found once: the files never change under a running process.
const explorer = files.resolve(`${GRAPHQL_PATH}/`, null);
const graphql = graphqlAnswer(core, { budget: envNumber('GRAPHQL_COST_BUDGET'), clientOf });
const rest = restAnswer(core, { cacheBytes: envNumber('ANSWER_CACHE_BYTES'), quota: envNumber('RATE_LIMIT_REQUESTS'), clientOf });
const astro = (await import(pathToFileURL(join(paths.dist, 'server/entry.mjs')).href)) as {
  handler: (req: IncomingMessage, res: ServerResponse, next: () => void) => Promise<void>;
};

const server = createServer((req, res) => {
  const request = nodeFacts(req, `http://${req.headers.host ?? `${host}:${port}`}`);
  const { pathname } = request.url;
  peers.set(request, req.socket.remoteAddress ?? '');
  if (pathname === SQL_PATH) {
    void readBody(req, LIMITS.sqlRequestBytesMax + 1).then((body) => sql(request, body)).then((answer) => write(res, answer));
    return;
  }
  if (pathname === GRAPHQL_PATH) {
    // A browser visit opens the explorer (a prerendered page); programs get GraphQL over HTTP.
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && negotiate(request.header('Accept'), ['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html';
    if (explorer && wantsPage) return write(res, files.answer(request, explorer));
    void readBody(req, LIMITS.graphqlDocumentBytesMax + 1).then((body) => graphql(request, body)).then((answer) => write(res, answer));
    return;
  }
  if (pathname === '/api/status.json') return write(res, status(request));
  if (pathname === TASTE_SUMMARY_PATH) return write(res, taste(request));
  const musicSurface = pathname === MUSIC_INTERSECTIONS_PATH ? musicSurfaces().intersections : pathname === MUSIC_STATION_PATH ? musicSurfaces().station : undefined;
  if (musicSurface) {
    void readBody(req, LIMITS.musicIntersectionBytesMax + 1).then((body) => write(res, musicSurface(request, body)));
    return;
  }
  // Collection lists always go through the REST handler (quotas, versions, negotiation);
  // their static page-one files are for CDNs, and the handler answers the same bytes.
  if (isCollectionPath(pathname)) return write(res, rest(request));
  const file = files.resolve(pathname, request.header('Accept'));
  if (file && request.method !== 'GET' && request.method !== 'HEAD') {
    return write(res, problemAnswer('method-not-allowed', 'Published files are read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } }));
  }
  if (file) return write(res, files.answer(request, file));
  const withheld = withheldExports(request);
  if (withheld) return write(res, withheld);
  if (pathname.startsWith('/api/')) return write(res, rest(request));
  const notFound = () => write(res, problemAnswer('not-found', 'Nothing is published at this path.'));
  // Astro renders on request only the record detail pages; every other page is a static file.
  if (!DETAIL_PAGE.test(pathname)) return notFound();
  void astro.handler(req, res, notFound);
});

server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://${host}:${shown}`);
});

// Stop accepting, let in-flight answers finish, then exit (so profilers and supervisors see a clean end).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
