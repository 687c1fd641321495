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
import * as urls from '../../urls.ts';
import { collectionPageUrl, collectionUrl, recordUrl } from '../../urls.ts';
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
 * `_routes.json`: which paths Pages runs the worker on. Pages serves a path it excludes
 * from its static files without invoking the worker, and only such a request is free and
 * unlimited (Pages Functions pricing: a request that invokes the worker counts against
 * the Workers plan, 100,000 a day on the free one). A static file may skip the worker
 * only when the worker would answer it with the file as it is, whatever the request:
 *
 * - it is a file, not a page (a page renders a query string on request, and Pages
 *   redirects `.html`), and not a collection list (versions, negotiation, quotas);
 * - it is its only representation: no `Accept` makes the runtime choose another file
 *   for its path (src/http/representations.ts), and the runtime's static route answers
 *   it whatever the query string (src/runtime/routes.ts);
 * - no URL the runtime negotiates or answers dynamically lies under a folder rule.
 *
 * A folder whose every file qualifies and under which nothing dynamic lives is one rule
 * (`/_astro/*`, `/media/*`: hashed assets, media variants, images); a qualifying file
 * outside such a folder is a rule of its own. Pages reads at most 100 rules of at most
 * 100 characters: folders first (most files first), then files, as many as fit. Every
 * other path, the query strings and the negotiated `Accept`s among them, meets the worker.
 */
export interface Routes {
  version: 1;
  description: string;
  include: string[];
  exclude: string[];
}

/** Pages' limit on the length of one rule. */
const RULE_CHARS_MAX = 100;
const ACCEPTS = [null, 'text/html', 'text/markdown', 'application/json', '*/*'];

export function routesFor(manifest: Manifest): Routes {
  const has = (path: string) => Object.hasOwn(manifest, path);
  const lists = new Set(restCollections.map((c) => collectionUrl(c.name)));
  const plain = (path: string) =>
    !path.endsWith('/') &&
    servedByPagesAsIs(path) &&
    !lists.has(path) &&
    ACCEPTS.every((accept) => {
      const chosen = resolveRepresentation(has, path, accept);
      return chosen?.path === path && !chosen.negotiated;
    });
  const paths = Object.keys(manifest).sort();
  const files = paths.filter(plain);
  const isFile = new Set(files);
  // Every path a folder rule must not cover: the manifest's other paths, the URLs negotiated
  // among its files, and every URL the runtime answers on its own (src/urls.ts; record pages).
  const kept = new Set(paths.filter((p) => !isFile.has(p)));
  for (const path of paths)
    for (const url of [path.replace(/\.json$/, ''), path.replace(/index\.(json|md)$/, ''), path.replace(/\/$/, '')])
      if (ACCEPTS.some((accept) => resolveRepresentation(has, url, accept)?.negotiated)) kept.add(url);
  for (const url of runtimeUrls()) if (!isFile.has(url)) kept.add(url);
  // The folders a kept path lies under, found once (a set, not a scan of every kept path per
  // folder: the manifest holds thousands of paths at scale). A folder's own URL that is no
  // file (`/media/`, a prefix in src/urls.ts) answers 404 from Pages as from the runtime, so
  // it blocks only when it is a file.
  const blocked = new Set<string>();
  for (const p of kept) {
    for (let slash = p.indexOf('/', 1); slash !== -1 && slash < p.length - 1; slash = p.indexOf('/', slash + 1)) blocked.add(p.slice(0, slash + 1));
    if (p.endsWith('/') && has(p)) blocked.add(p);
  }
  // Nor may a rule's folder be a URL the runtime answers under the folder's name (`/api/rpc/*` beside `/api/rpc`): a host may read the rule as covering it.
  const excludable = (folder: string) => !kept.has(folder.slice(0, -1)) && !blocked.has(folder);
  const folders = new Map<string, number>();
  for (const file of files) {
    const parts = file.split('/');
    // The shallowest folder of the file that may be one rule (never the root).
    for (let depth = 2; depth < parts.length; depth++) {
      const folder = `${parts.slice(0, depth).join('/')}/`;
      if (excludable(folder)) {
        folders.set(folder, (folders.get(folder) ?? 0) + 1);
        break;
      }
    }
  }
  const folderRules = [...folders].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([folder]) => `${folder}*`);
  // Markdown twins asked for by their own URL come last: agents ask for a page's twin by `Accept`, at the page's path.
  const twin = (f: string) => (f.endsWith('/index.md') ? 1 : 0);
  const fileRules = files.filter((f) => ![...folders.keys()].some((folder) => f.startsWith(folder))).sort((a, b) => twin(a) - twin(b) || (a < b ? -1 : 1));
  const include = ['/*'];
  const room = LIMITS.cdnRouteRulesMax - include.length;
  const exclude = [...folderRules, ...fileRules].filter((rule) => rule.length <= RULE_CHARS_MAX).slice(0, room);
  return {
    version: 1,
    description: 'Static files that are their only representation, whatever the query string, are served without _worker.js; every other path meets it.',
    include,
    exclude,
  };
}

/** Every path src/urls.ts spells, and a record page of each collection: what the runtime may answer at paths of its own (those that are static files aside). */
function runtimeUrls(): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string' && value.startsWith('/')) found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(Object.values(urls));
  for (const c of restCollections) found.push(collectionUrl(c.name), collectionPageUrl(c.name), recordUrl(c.name, 'itm_'));
  return found;
}

function checkRoutes(routes: Routes): void {
  const count = routes.include.length + routes.exclude.length;
  if (count > LIMITS.cdnRouteRulesMax)
    throw new HeaderRulesError(`_routes.json: ${count} rules, more than the ${LIMITS.cdnRouteRulesMax} Cloudflare Pages reads (cdnRouteRulesMax).`);
}

/**
 * The worker bundled with `__EDGE_TABLE__` left a free name, once per process: the worker's
 * code does not change while a process runs, and bundling it took about half a second of
 * every build, full or incremental.
 */
let bundledWorker: { head: string; tail: string } | undefined;

function workerBundle(): { head: string; tail: string } {
  if (bundledWorker) return bundledWorker;
  const result = buildSync({
    entryPoints: [WORKER_SOURCE],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    legalComments: 'none',
  });
  const [head, tail, ...more] = result.outputFiles[0]!.text.split('__EDGE_TABLE__');
  if (tail === undefined || more.length > 0) throw new Error('the bundled edge worker must name __EDGE_TABLE__ exactly once');
  bundledWorker = { head: head!, tail };
  return bundledWorker;
}

/** Bundles the worker with its table: one ES module, no imports left, as Pages' advanced mode runs it. */
export function bundleWorker(table: EdgeTable): string {
  const { head, tail } = workerBundle();
  // JSON is an expression in JavaScript (ES2019 admits U+2028 and U+2029 in strings).
  return `${head}${JSON.stringify(table)}${tail}`;
}

/** Writes `_headers`, `_worker.js` and `_routes.json` into the client directory; throws (failing the build) when a host would cut one. */
export function writeEdgeFiles(clientDir: string, manifest: Manifest): void {
  const table = edgeTable(manifest);
  const routes = routesFor(manifest);
  checkRoutes(routes);
  writeFileSync(join(clientDir, EDGE_FILES.headers), renderHeaderRules(table.rules));
  writeFileSync(join(clientDir, EDGE_FILES.routes), `${JSON.stringify(routes, null, 1)}\n`);
  writeFileSync(join(clientDir, EDGE_FILES.worker), bundleWorker(table));
}
