/**
 * Site pages rendered on request: a collection page with a query string
 * (`/movies/?genre=Drama&sort=year:desc`, `?cursor=…`) and a record page
 * (`/movies/itm_…`), each as HTML or as its Markdown twin. In order: the collection or
 * record exists (404 problem), the client is within the collections quota (429, as the
 * REST lists), the query string is bounded (414) and valid — the very parser and problems
 * of `/api/<collection>.json` (400) — then the representation is chosen from `Accept`
 * (`text/markdown` when preferred, HTML otherwise: browsers and `*∕*` get HTML), rendered
 * (HTML by Astro in-process, Markdown from the same view), remembered, and answered with
 * its own strong ETag, `Vary: Accept` and 304 on `If-None-Match`. A collection page
 * without a query string is the prerendered file and its prerendered twin. Every refusal
 * of a page reaches a person as a page (`humaneProblem`, which the dispatcher applies):
 * HTML or Markdown by `Accept`, the problem itself for programs.
 */
import type { CollectionDeclaration } from '../src/collections/define.ts';
import { collection, contentCollections } from '../src/collections/index.ts';
import { PublicError } from '../src/core/errors.ts';
import { CANONICAL_ID } from '../src/core/image.ts';
import { LIMITS } from '../src/core/limits.ts';
import { canonicalSearch, parseQuery } from '../src/core/params.ts';
import { parseSearch, searchCanonical } from '../src/core/search.ts';
import { RERENDER_ROUTE } from '../src/compile/incremental/pages.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { conditionalAnswer } from '../src/http/conditional.ts';
import { strongEtag } from '../src/http/etag.ts';
import { PAGE_PREFERENCES } from '../src/http/headers.ts';
import { NEGOTIATED_HEADERS, negotiate } from '../src/http/negotiate.ts';
import { errorAnswer, PROBLEM_MEDIA_TYPE, problemAnswer, type ProblemBody } from '../src/http/problem.ts';
import { metered } from '../src/http/rate-limit.ts';
import { securityHeaders } from '../src/http/security.ts';
import type { SiteContext } from '../src/site/context.ts';
import { collectionMarkdown, searchMarkdown } from '../src/site/markdown.ts';
import { cutFrame, pageBytes, type Frame } from '../src/site/collection-page.ts';
import type { PageAnswer } from '../src/site/context.ts';
import { problemPageHtml, problemPageMarkdown, type ProblemSite, type ProblemView } from '../src/site/problem-page.ts';
import { renderPage } from '../src/site/render-page.ts';
import { searchView } from '../src/site/search-view.ts';
import { recordPage, recordPageMarkdown } from '../src/site/record.ts';
import { collectionView, pageCollection } from '../src/site/view.ts';
import { collectionPageUrl, PAGES } from '../src/urls.ts';

const COLLECTION_PAGE = /^\/([a-z][a-z-]*)\/$/;
const RECORD_PAGE = /^\/([a-z][a-z-]*)\/(itm_[0-9a-f]{24})$/;
const HTML = 'text/html; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';

/** The collection a path is the page of, if it is one. */
export const collectionPageOf = (pathname: string): CollectionDeclaration | undefined => pageCollection(COLLECTION_PAGE.exec(pathname)?.[1] ?? '');

/** Whether a path names a record page of a known collection (the record itself may still be missing). */
export function isRecordPage(pathname: string): boolean {
  const match = RECORD_PAGE.exec(pathname);
  return match !== null && collection(match[1]!)?.rest === true && CANONICAL_ID.test(match[2]!);
}

/** Markdown when the client prefers it to HTML; HTML otherwise (no Accept, `*∕*`, browsers, or neither acceptable). */
export const wantsMarkdown = (request: RequestFacts) => negotiate(request.header('Accept'), ['text/html', 'text/markdown']) === 'text/markdown';

/**
 * A page as it leaves: its headers in the order the dispatcher sends a page (the security
 * headers, then the page's own, its length and the quota's policy, src/http/security.ts
 * and src/http/rate-limit.ts `carry`), so a remembered page is replayed as it is; `fixed`
 * is what every answer of it repeats, which the writer serializes once (src/runtime/node.ts).
 */
function pageAnswer(context: SiteContext, request: RequestFacts, type: string, body: Buffer): PageAnswer {
  const own = { 'Content-Type': type, ETag: strongEtag(body), ...NEGOTIATED_HEADERS, ...PAGE_PREFERENCES };
  const security = securityHeaders(request.url.pathname, type, context.image.siteUrl);
  return {
    body,
    headers: { ...security, ...own, 'Content-Length': String(body.length), ...context.quota.policyHeaders },
    fixed: { ...own, ...security },
  };
}

/** A remembered page as this request asks for it: whole, headers alone (HEAD) or 304 (`If-None-Match` alone: pages carry no date). */
const answered = (request: RequestFacts, page: PageAnswer): Answer =>
  conditionalAnswer(request.method, { ifNoneMatch: request.header('If-None-Match'), ifModifiedSince: null }, page.headers, page.body, page.fixed);

/**
 * The key a page is remembered by: what the request says, its `Accept` and its target as
 * the client wrote it, with the route's letter (as REST's answers are, functions/rest.ts):
 * a repeated request is replayed (`pageReplay`) without parsing its target or query again.
 * Exact, since only a valid query's page is remembered and within a generation the same
 * words always name the same page; two spellings of one query are remembered apart.
 */
function pageKey(route: PageRoute, request: RequestFacts): string {
  const target = request.target ?? request.url.pathname + request.url.search;
  const accept = request.header('Accept');
  return accept === null ? `${route} ${target}` : `${route} ${target} ${accept}`;
}

/** The remembered (or freshly rendered) page for `key`, answered conditionally. */
async function remembered(context: SiteContext, request: RequestFacts, key: string, render: () => Promise<{ type: string; body: Buffer }>): Promise<Answer> {
  const cache = context.pageCache;
  let page = cache.get(key);
  if (!page) {
    const { type, body } = await render();
    page = pageAnswer(context, request, type, body);
    cache.set(key, page);
  }
  return answered(request, page);
}

/** The routes whose pages are remembered by their words. */
type PageRoute = 'collection' | 'search' | 'record';

/**
 * A GET's (or HEAD's) remembered page, under the collections quota, before its target is
 * parsed or routed: the runtime's dispatcher asks here (src/runtime/route.ts `replay`).
 * Undefined, having spent nothing, when none is remembered for these words.
 */
export function pageReplay(context: SiteContext, route: PageRoute, request: RequestFacts): Answer | Promise<Answer> | undefined {
  const cache = context.pageCache;
  // Asked of every GET no earlier route replayed: no key is built while nothing is remembered.
  if (cache.size === 0) return undefined;
  const page = cache.get(pageKey(route, request));
  return page && metered(context.quota, context.clientOf(request), () => answered(request, page));
}

/**
 * The frame of a collection's pages (src/site/collection-page.ts), rendered through Astro
 * once per generation and collection; undefined when it is not of the expected shape,
 * and the page is then rendered through Astro whole.
 */
function frameOf(context: SiteContext, name: string): Promise<Frame | undefined> {
  let frame = context.pageFrames.get(name);
  if (frame === undefined) {
    const siteUrl = context.core.image.siteUrl;
    frame = renderPage(context.pages, `${RERENDER_ROUTE}/collection-frame/${name}`, { core: context.core })
      .then((html) => cutFrame(html.toString('utf8'), name, siteUrl))
      .catch(() => undefined);
    context.pageFrames.set(name, frame);
  }
  return frame;
}

/** How a query page reads its query string: the cache key's stem and the page as Markdown or through Astro. */
interface QueryPage {
  markdown: () => string;
  html: () => Promise<Buffer>;
}

/**
 * A page whose content the query string decides (a collection page, the search page): the
 * prerendered page (or twin) without one; with one, rendered on request under the
 * collections quota, with the query string bounded and parsed by `parse` (REST's own
 * parser, so the same problems), and remembered per canonical query and representation.
 */
function queryPageAnswer(
  context: SiteContext,
  request: RequestFacts,
  route: PageRoute,
  parse: (params: URLSearchParams) => QueryPage,
): Answer | Promise<Answer> {
  const { url } = request;
  if (url.search === '') {
    const file = context.files.resolve(url.pathname, request.header('Accept'));
    return file ? context.files.answer(request, file) : problemAnswer('not-found', 'Nothing is published at this path.');
  }
  return metered(context.quota, context.clientOf(request), async () => {
    try {
      if (Buffer.byteLength(url.search) > LIMITS.queryStringBytesMax) {
        throw new PublicError('query-too-long', `The query string is longer than ${LIMITS.queryStringBytesMax} bytes.`);
      }
      const page = parse(url.searchParams);
      const markdown = wantsMarkdown(request);
      return await remembered(context, request, pageKey(route, request), async () =>
        markdown ? { type: MARKDOWN, body: Buffer.from(page.markdown()) } : { type: HTML, body: await page.html() },
      );
    } catch (error) {
      return errorAnswer(error);
    }
  });
}

/** `GET /<collection>/[?query]`: the REST list's parameters, validation and problems. */
export function collectionPageAnswer(context: SiteContext, request: RequestFacts): Answer | Promise<Answer> {
  const declaration = collectionPageOf(request.url.pathname)!;
  return queryPageAnswer(context, request, 'collection', (params) => {
    const query = parseQuery(declaration, params);
    return {
      markdown: () => collectionMarkdown(collectionView(context.core, query)),
      html: async () => {
        // Computed here, so a bad cursor is the REST problem rather than a failed render.
        const view = collectionView(context.core, query);
        const frame = await frameOf(context, declaration.name);
        if (frame) return pageBytes(frame, view, context.core.image.siteUrl);
        const search = canonicalSearch({ ...query, facets: false }, query.cursor);
        return renderPage(context.pages, `${RERENDER_ROUTE}/collection/${declaration.name}${search}`, { core: context.core, collectionView: view });
      },
    };
  });
}

/** `GET /search/[?q=…]`: the search list's parameters, validation and problems. */
export function searchPageAnswer(context: SiteContext, request: RequestFacts): Answer | Promise<Answer> {
  return queryPageAnswer(context, request, 'search', (params) => {
    const query = parseSearch(
      contentCollections.map((c) => c.name),
      params,
    );
    const search = searchCanonical(query, query.cursor);
    return {
      markdown: () => searchMarkdown(searchView(context.search, query)),
      html: () => {
        // As for collection pages: a bad cursor is the search list's problem, not a failed render.
        const view = searchView(context.search, query);
        return renderPage(context.pages, `${RERENDER_ROUTE}/search${search}`, { core: context.core, searchView: view });
      },
    };
  });
}

/** `GET /<collection>/<canonicalId>`: the record's page, or its Markdown twin. */
export function recordPageAnswer(context: SiteContext, request: RequestFacts): Promise<Answer> | Answer {
  const [, name, id] = RECORD_PAGE.exec(request.url.pathname)!;
  const declaration = collection(name!)!;
  const json = context.core.get(declaration, id!);
  if (json === undefined) return problemAnswer('not-found', 'No published record has this identifier in this collection.');
  const markdown = wantsMarkdown(request);
  return remembered(context, request, pageKey('record', request), async () => {
    if (markdown)
      return {
        type: MARKDOWN,
        body: Buffer.from(recordPageMarkdown(declaration, recordPage(declaration, JSON.parse(json) as Record<string, unknown>, context.image))),
      };
    return { type: HTML, body: await renderPage(context.pages, request.url.pathname, { core: context.core, record: json }) };
  });
}

const NOT_FOUND_PAGE = '/404.html';
const NOT_FOUND_TWIN = '/404.md';

/** Route names of the pages functions/pages.ts renders; a static file is a page when its path is one (`/…/`, `….html`). */
const PAGE_ROUTES = new Set(['collection-page', 'search-page', 'record-page']);

/** Whether the route that answers `pathname` serves site pages, for `humaneProblem`. */
export function problemSiteOf(context: SiteContext, pathname: string, routeName: string): ProblemSite {
  if (PAGE_ROUTES.has(routeName)) return 'page';
  if (routeName !== 'static') return 'api';
  const file = context.files.resolve(pathname, 'text/html')?.path ?? '';
  return file.endsWith('/') || file.endsWith('.html') ? 'page' : 'api';
}

/** The ways back from a refused page: its collection's page, search, home. */
function waysBack(pathname: string): { href: string; label: string }[] {
  const ways: { href: string; label: string }[] = [];
  const declaration = collectionPageOf(/^\/[a-z][a-z-]*\//.exec(pathname)?.[0] ?? '');
  if (declaration) ways.push({ href: collectionPageUrl(declaration.name), label: `All of ${declaration.title}` });
  ways.push({ href: PAGES.search, label: 'Search every collection' }, { href: '/', label: 'The home page' });
  return ways;
}

/** A static file's bytes (the not-found page or its twin), if the build wrote it. */
function fileBody(context: SiteContext, path: string): Uint8Array | undefined {
  const file = context.files.resolve(path, null);
  return file
    ? (context.files.answer({ method: 'GET', url: new URL(`http://runtime.invalid${path}`), header: () => null }, file).body ?? undefined)
    : undefined;
}

/** The page (or twin) standing for a problem: the prerendered not-found page for a path with no route, the problem page otherwise. */
function problemPage(
  context: SiteContext,
  problem: ProblemBody,
  answer: Answer,
  site: ProblemSite,
  pathname: string,
  markdown: boolean,
): Uint8Array | undefined {
  if (site === 'unrouted' && problem.status === 404) return fileBody(context, markdown ? NOT_FOUND_TWIN : NOT_FOUND_PAGE);
  const view: ProblemView = {
    status: problem.status,
    title: problem.title,
    detail: problem.detail,
    parameter: problem.parameter,
    type: problem.type,
    retryAfter: answer.headers['Retry-After'],
    back: waysBack(pathname),
  };
  if (markdown) return Buffer.from(problemPageMarkdown(view));
  const shell = fileBody(context, NOT_FOUND_PAGE);
  const html = shell === undefined ? undefined : problemPageHtml(Buffer.from(shell).toString('utf8'), view);
  return html === undefined ? undefined : Buffer.from(html);
}

/**
 * A client error as the client prefers it (issue 26): on a site page, or a path with no
 * page at all, a person's browser gets an HTML page with the same status saying what was
 * wrong and leading back, an agent that prefers Markdown its twin, and programs (no
 * Accept, `*∕*`, JSON) the problem unchanged. API surfaces keep their problems, except a
 * 404, which a browser reads as the site's not-found page. The problem's own headers
 * (`Allow`, `Retry-After`, the RateLimit fields) stay.
 */
export function humaneProblem(context: SiteContext, accept: string | null, siteOf: () => ProblemSite, pathname: string, answer: Answer): Answer {
  if (answer.status < 400 || answer.status >= 500 || answer.body === null || answer.headers['Content-Type'] !== PROBLEM_MEDIA_TYPE) return answer;
  const site = siteOf();
  if (site === 'api' && answer.status !== 404) return answer;
  const chosen = negotiate(accept, [PROBLEM_MEDIA_TYPE, 'application/json', 'text/html', 'text/markdown']);
  if (chosen !== 'text/html' && chosen !== 'text/markdown') return answer;
  const problem = JSON.parse(Buffer.from(answer.body).toString('utf8')) as ProblemBody;
  const body = problemPage(context, problem, answer, site, pathname, chosen === 'text/markdown');
  if (body === undefined) return answer;
  const { 'Content-Type': _type, 'Content-Length': _length, ...kept } = answer.headers;
  const type = chosen === 'text/markdown' ? MARKDOWN : HTML;
  return {
    status: answer.status,
    headers: { ...kept, 'Content-Type': type, 'Content-Length': String(body.byteLength), 'Cache-Control': 'no-store', Vary: 'Accept' },
    body,
  };
}
