/**
 * The files that make `dist/client` a static host's deployment: `_headers` (Cloudflare
 * Pages, Netlify; compiled by header-rules.ts), and for Cloudflare Pages' advanced mode
 * `_worker.js` (src/edge/worker.ts bundled by esbuild with the site's table) and
 * `_routes.json`. Every one is derived from the header manifest, so the edge sends what
 * the runtime sends. Nothing secret goes in: the table holds paths, media types and
 * header values the site already publishes; the origin's address is the deployment's
 * `ORIGIN_URL` variable, read at request time.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { restCollections } from '../../collections/index.ts';
import { LIMITS } from '../../core/limits.ts';
import { serializersFor } from '../../formats/index.ts';
import { API_VERSION } from '../../http/headers.ts';
import { NEGOTIATED_HEADERS } from '../../http/negotiate.ts';
import { resolveRepresentation } from '../../http/representations.ts';
import type { EdgeTable } from '../../edge/worker.ts';
import { collectionUrl } from '../../urls.ts';
import type { Manifest } from '../compile.ts';
import { compileHeaderRules, HeaderRulesError, renderHeaderRules, type UrlHeaders } from './header-rules.ts';

export const EDGE_FILES = { headers: '_headers', worker: '_worker.js', routes: '_routes.json' } as const;

const WORKER_SOURCE = resolve('src/edge/worker.ts');

/**
 * What the runtime sends at each static URL with no `Accept` (ETag and Content-Length
 * aside): the manifest's headers, plus the negotiation headers where the file is one of
 * several representations of its own URL (a page beside its Markdown twin).
 */
export function urlHeaders(manifest: Manifest): UrlHeaders {
  const has = (path: string) => Object.hasOwn(manifest, path);
  const out: Record<string, Record<string, string>> = {};
  for (const [path, entry] of Object.entries(manifest)) {
    const own = resolveRepresentation(has, path, entry.headers['Content-Type'] ?? null);
    const negotiated = own?.path === path && own.negotiated;
    const headers = Object.fromEntries(Object.entries(entry.headers).filter(([k]) => !['etag', 'content-length'].includes(k.toLowerCase())));
    out[path] = negotiated ? { ...headers, ...NEGOTIATED_HEADERS } : headers;
  }
  return out;
}

/**
 * Pages answers a `.html` URL (`/404.html`) with a redirect to its extensionless name or
 * its not-found page, never the file as the runtime does; those few go to the origin.
 */
const servedByPagesAsIs = (path: string) => !path.endsWith('.html');

/** The table the worker is bundled with. */
export function edgeTable(manifest: Manifest): EdgeTable {
  const lists = Object.fromEntries(restCollections.map((c) => [collectionUrl(c.name), serializersFor(c).map((s) => s.mediaType)]));
  const files = Object.keys(manifest).filter(servedByPagesAsIs).sort();
  return { files, lists, rules: compileHeaderRules(urlHeaders(manifest)), apiVersion: API_VERSION };
}

/**
 * Pages runs the worker on every path: a static file must still go to the origin when a
 * query string or a negotiated `Accept` asks for something else, and the worker drops the
 * headers Pages adds to assets on its own. So one include rule, no exclusions.
 */
export const ROUTES = {
  version: 1,
  description: 'Every request meets _worker.js, which answers from the static files only what they answer exactly.',
  include: ['/*'],
  exclude: [] as string[],
};

function checkRoutes(routes: typeof ROUTES): void {
  const count = routes.include.length + routes.exclude.length;
  if (count > LIMITS.cdnRouteRulesMax)
    throw new HeaderRulesError(`_routes.json: ${count} rules, more than the ${LIMITS.cdnRouteRulesMax} Cloudflare Pages reads (cdnRouteRulesMax).`);
}

/** Bundles the worker with its table: one ES module, no imports left, as Pages' advanced mode runs it. */
export function bundleWorker(table: EdgeTable): string {
  const result = buildSync({
    entryPoints: [WORKER_SOURCE],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    define: { __EDGE_TABLE__: JSON.stringify(table) },
  });
  return result.outputFiles[0]!.text;
}

/** Writes `_headers`, `_worker.js` and `_routes.json` into the client directory; throws (failing the build) when a host would cut one. */
export function writeEdgeFiles(clientDir: string, manifest: Manifest): void {
  const table = edgeTable(manifest);
  checkRoutes(ROUTES);
  writeFileSync(join(clientDir, EDGE_FILES.headers), renderHeaderRules(table.rules));
  writeFileSync(join(clientDir, EDGE_FILES.routes), `${JSON.stringify(ROUTES, null, 1)}\n`);
  writeFileSync(join(clientDir, EDGE_FILES.worker), bundleWorker(table));
}
