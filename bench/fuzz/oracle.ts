/**
 * What counts as a failure. Each exchange is checked for:
 *
 * - 5xx: any status from 500 up, except the 503s the contract documents (listed in
 *   `DOCUMENTED_503`: the location-provenance problem, and an overload answer with
 *   Retry-After).
 * - reset: the connection closed or failed before a complete response, unless the request
 *   broke its own framing on purpose (then the server may close without answering).
 * - hang: no complete response within the timeout.
 * - protocol: an answer that is not a parseable HTTP/1.1 response.
 * - echo: a planted canary coming back where it should not (policy below), or a canary
 *   planted by another request (state leaking between requests: caches, pollution).
 * - leak: internals in an answer: stack frames, source positions, file paths, SQLite or
 *   sql.js text, JavaScript error names and messages, database or system file contents.
 * - shape (fails the run only with --strict-shape): an error (4xx/5xx) that is not
 *   `application/problem+json` with a matching `status` (GraphQL: not a GraphQL response
 *   with `errors`; the owner lane's OAuth endpoints: not an RFC 6749 §5.2 error, and its
 *   browser pages: not an HTML page), a 405 without `Allow`, a HEAD answering otherwise than its GET, a
 *   method the route table does not list for a path answered with success.
 *
 * Echo policy, by where the canary was planted (its class):
 * - h (a request header, Host included) and s (SQL text) and v (a JSON value of a music
 *   body): never echoed, in any header or body. SPEC §4.3: SQL errors never echo the SQL,
 *   literals or identifiers; src/taste/music-request.ts: music problems never echo a value.
 *   The one exception: an s canary inside a 2xx SQL result (a mutation may have moved a
 *   literal into the projection, whose value a successful answer returns).
 * - q (query strings): may come back in the body (REST `links` and problem details name
 *   the parameters and values of the request) and in `Link`, `Link-Template` and
 *   `Location`; never in another header.
 * - g (GraphQL documents and variables) and k (JSON keys): may come back in the body
 *   (graphql-js names document values and names in its errors; a music problem names the
 *   JSON path), never in a header.
 * - p (paths): only in `Location`.
 * - any class: never in a `text/html` body (reflected markup), except a q canary in a
 *   site page that shows what was asked (a collection page's filters in use and links to
 *   the other pages of the same query, the search page's "hits for …"): Astro escapes
 *   every value it writes there (tests/site/pages.test.ts sends markup to check it).
 */
import type { Outcome, RawRequest, RawResponse } from './http.ts';
import { header, serialize } from './http.ts';
import { TOKEN, type CanaryClass } from './gen/common.ts';
import { OAUTH_URLS } from '../../src/urls.ts';

/**
 * The owner lane answers its clients in OAuth's own error shape (RFC 6749 §5.2, RFC 7591
 * §3.2.2; RFC 6750 §3 at /owner/mcp's token check): `application/json` with a string
 * `error` and `Cache-Control: no-store`; a 401 also challenges with `WWW-Authenticate:
 * Bearer`. Its browser pages (authorization, the identity provider's callback, the
 * connected clients) answer errors as pages for the owner to read.
 */
const OAUTH_JSON: ReadonlySet<string> = new Set([OAUTH_URLS.register, OAUTH_URLS.token, OAUTH_URLS.revoke, OAUTH_URLS.ownerMcp]);
const OAUTH_PAGES: ReadonlySet<string> = new Set([OAUTH_URLS.authorize, OAUTH_URLS.callback, OAUTH_URLS.clients]);
/** RFC 6749 §5.2: `error` is one ASCII word of printable characters other than `"` and `\`; ours are snake_case. */
const OAUTH_ERROR = /^[a-z_]{1,64}$/;

export type Category = 'crash' | 'freeze' | '5xx' | 'reset' | 'hang' | 'protocol' | 'echo' | 'leak' | 'shape';
/** The categories that fail a run; shape joins them with --strict-shape. */
export const FAILING: readonly Category[] = ['crash', 'freeze', '5xx', 'reset', 'hang', 'protocol', 'echo', 'leak'];

export interface Finding {
  category: Category;
  surface: string;
  detail: string;
  request: RawRequest;
  /** The request sent before it on the same kept-alive connection, when the finding needs both. */
  after?: RawRequest;
  status?: number;
  /** Which case of the seed sent it (`npm run fuzz -- --seed S --case N` sends that case again). */
  index?: number;
}

/** 503 answers the contract documents: not failures. */
const DOCUMENTED_503 = (response: RawResponse) => {
  const text = response.body.toString('latin1');
  return text.includes('/problems/location-provenance-incomplete') || header(response, 'retry-after') !== undefined;
};

const INTERNALS: readonly [string, RegExp][] = [
  // Raw or JSON-escaped newlines before `at …:line:col`.
  ['stack frame', /(?:^|\n|\\n)\s*at [^\n]{0,200}?:\d+:\d+\)?/g],
  ['source position', /[\w-]+\.(?:m?[jt]s|cjs|mjs)(?::\d+){1,2}/g],
  ['file path', /\/work\/|\/home\/|\/root\/|\/usr\/(?:local\/)?lib\/node|node_modules|file:\/\/\/|node:internal/g],
  [
    'SQLite text',
    /SQLITE_[A-Z]+|no such (?:table|column|function|module)|near \\?"[^"\\]*\\?": syntax error|SQL logic error|unrecognized token|incomplete input|SqliteError|sql\.js|sql-wasm/gi,
  ],
  [
    'JavaScript error',
    /(?:^|[^A-Za-z ])(?:[A-Z][A-Za-z]*)?Error: |Cannot read propert|is not a function|is not iterable|Maximum call stack|is not valid JSON|Unexpected end of JSON|ERR_[A-Z][A-Z_]{3,}/g,
  ],
];
/** Contents that must never be served, whatever the status. */
const FILES: readonly [string, RegExp][] = [
  ['database file', /SQLite format 3\u0000/g],
  ['system file', /root:[x*]?:0:0:/g],
];

export const contentType = (response: RawResponse) => (header(response, 'content-type') ?? '').toLowerCase();

/** The path of a request target (origin-form or absolute-form), undecoded. */
export function pathOf(target: string): string {
  const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*(.*)$/.exec(target);
  const rest = absolute ? absolute[1]! : target;
  return rest.split(/[?#]/)[0] ?? '';
}

/** Site pages that show the query they were asked (src/site/view.ts, src/site/search-view.ts). */
const QUERY_PAGE = /^\/(?:[a-z][a-z-]*\/)?$/;

/** The path as the server resolves it (dot segments removed, as the WHATWG URL parser does): `/podcasts//..` is `/podcasts/`. */
function resolvedPath(path: string): string {
  try {
    return new URL(path, 'http://fuzz.invalid').pathname;
  } catch {
    return path;
  }
}

function echoIsLeak(cls: CanaryClass, place: string | 'body', response: RawResponse, path: string): boolean {
  if (place === 'body' && contentType(response).includes('text/html')) return !(cls === 'q' && QUERY_PAGE.test(resolvedPath(path)));
  switch (cls) {
    case 'h':
    case 'v':
      return true;
    case 's':
      return !(place === 'body' && response.status >= 200 && response.status < 300);
    case 'q':
      return place !== 'body' && !['link', 'link-template', 'location'].includes(place);
    case 'g':
    case 'k':
      return place !== 'body';
    case 'p':
      return place !== 'location';
  }
}

/** Internals found in `text` that the request did not itself contain (an echo of the client's own bytes is judged by the echo policy). */
function internals(text: string, requestText: string, patterns: readonly [string, RegExp][]): string[] {
  const found: string[] = [];
  for (const [name, pattern] of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (requestText.includes(match[0])) continue;
      const at = match.index ?? 0;
      found.push(`${name}: …${JSON.stringify(text.slice(Math.max(0, at - 40), at + 80))}…`);
      break;
    }
  }
  return found;
}

/** The text a response's error part carries: the whole body of a non-2xx answer, the `errors` of a 2xx GraphQL answer. */
function errorText(response: RawResponse, graphql: boolean): string {
  if (response.status < 200 || response.status >= 300) return response.body.subarray(0, 256 * 1024).toString('latin1');
  if (!graphql) return '';
  try {
    const parsed = JSON.parse(response.body.toString('utf8')) as { errors?: unknown };
    return parsed.errors === undefined ? '' : JSON.stringify(parsed.errors);
  } catch {
    return '';
  }
}

export interface Planted {
  token: string;
  cls: CanaryClass;
}

/** The methods and paths a route lists, for the method check. */
export interface RouteMethods {
  methods: readonly string[];
  examples: readonly string[];
}

export function checkExchange(surface: string, request: RawRequest, planted: readonly Planted[], outcome: Outcome, route?: RouteMethods): Finding[] {
  const finding = (category: Category, detail: string, status?: number): Finding => ({ category, surface, detail, request, status });
  if (outcome.kind === 'hang') return [finding('hang', `no complete response in ${outcome.ms} ms (${outcome.receivedBytes} bytes received)`)];
  if (outcome.kind === 'reset')
    return request.brokenFraming ? [] : [finding('reset', `${outcome.detail} after ${outcome.ms} ms (${outcome.receivedBytes} bytes received)`)];
  if (outcome.kind === 'malformed') return [finding('protocol', `${outcome.detail}: ${JSON.stringify(outcome.head.slice(0, 120))}`)];
  const { response } = outcome;
  const findings: Finding[] = [];
  const graphql = pathOf(request.target) === '/graphql';

  if (response.status >= 500 && !(response.status === 503 && DOCUMENTED_503(response))) {
    findings.push(
      finding(
        '5xx',
        `${response.status} ${contentType(response) || '(no Content-Type)'} ${JSON.stringify(response.body.subarray(0, 160).toString('latin1'))}`,
        response.status,
      ),
    );
  }

  // Canaries: this request's own, by policy; anyone else's, always.
  const body = response.body.toString('latin1');
  const own = new Set(planted.map((p) => p.token));
  for (const { token, cls } of planted) {
    const places = [...response.headers.filter(([, v]) => v.includes(token)).map(([n]) => n), ...(body.includes(token) ? ['body'] : [])];
    const leaking = places.filter((place) => echoIsLeak(cls, place, response, pathOf(request.target)));
    if (leaking.length > 0) findings.push(finding('echo', `canary of class ${cls} echoed in ${leaking.join(', ')}`, response.status));
  }
  const headerText = response.headers.map(([n, v]) => `${n}: ${v}`).join('\n');
  for (const match of `${headerText}\n${body}`.matchAll(TOKEN)) {
    if (!own.has(match[0])) {
      findings.push(finding('echo', `a canary planted by another request came back (${match[0]}): state shared between requests`, response.status));
      break;
    }
  }

  const requestText = serialize(request).toString('latin1');
  const leaks = [
    ...internals(headerText, requestText, INTERNALS),
    ...internals(errorText(response, graphql), requestText, INTERNALS),
    ...internals(body, requestText, FILES),
  ];
  if (leaks.length > 0) findings.push(finding('leak', leaks.join('; '), response.status));

  if (response.status >= 400) findings.push(...shape(response, request, graphql).map((detail) => finding('shape', detail, response.status)));
  // A method the route does not list must not succeed on one of its paths (HEAD goes with GET, RFC 9110 §9.3.2).
  const takes = route && (route.methods.includes(request.method) || (request.method === 'HEAD' && route.methods.includes('GET')));
  if (route && !takes && response.status < 300 && route.examples.includes(pathOf(request.target))) {
    findings.push(finding('shape', `${request.method} answered ${response.status} on a route that takes ${route.methods.join(', ')}`, response.status));
  }
  return findings;
}

/** The error shape of one answer (status ≥ 400). */
function shape(response: RawResponse, request: RawRequest, graphql: boolean): string[] {
  const problems: string[] = [];
  const type = contentType(response);
  if (response.status === 405 && header(response, 'allow') === undefined) problems.push('405 without Allow');
  const hasBody = request.method !== 'HEAD' && response.body.length > 0;
  let parsed: Record<string, unknown> | undefined;
  if (hasBody) {
    try {
      parsed = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
  }
  if (graphql) {
    if (!/^application\/(graphql-response\+)?json/.test(type)) problems.push(`GraphQL error ${response.status} with Content-Type ${type || '(none)'}`);
    else if (hasBody && !(parsed && Array.isArray(parsed.errors) && parsed.errors.length > 0))
      problems.push(`GraphQL error ${response.status} without an errors array`);
    return problems;
  }
  const path = resolvedPath(pathOf(request.target));
  if (OAUTH_PAGES.has(path) && type.startsWith('text/html')) return problems;
  if (OAUTH_JSON.has(path) && type.startsWith('application/json') && typeof parsed?.error === 'string') return oauthShape(response, parsed);
  if (!type.startsWith('application/problem+json')) problems.push(`${response.status} with Content-Type ${type || '(none)'}, not a problem`);
  else if (hasBody && !(parsed && typeof parsed.type === 'string' && typeof parsed.title === 'string' && parsed.status === response.status))
    problems.push(`${response.status} problem whose body does not say type, title and the same status`);
  else if (!hasBody && request.method !== 'HEAD') problems.push(`${response.status} problem without a body`);
  return problems;
}

/** An OAuth error answer (RFC 6749 §5.2): its `error`, its description, `no-store`, and a 401's challenge. */
function oauthShape(response: RawResponse, parsed: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (!OAUTH_ERROR.test(parsed.error as string)) problems.push(`${response.status} OAuth error whose error is not an error code`);
  if (parsed.error_description !== undefined && typeof parsed.error_description !== 'string')
    problems.push(`${response.status} OAuth error whose error_description is not a string`);
  if (!/\bno-store\b/.test(header(response, 'cache-control') ?? '')) problems.push(`${response.status} OAuth error without Cache-Control: no-store`);
  if (response.status === 401 && !/^Bearer\b/.test(header(response, 'www-authenticate') ?? '')) problems.push('401 OAuth error without a Bearer challenge');
  return problems;
}

/** A GET and its HEAD must agree on status and Content-Type. */
export function checkHeadOfGet(surface: string, get: RawRequest, getOutcome: Outcome, headOutcome: Outcome): Finding[] {
  if (getOutcome.kind !== 'response' || headOutcome.kind !== 'response') return [];
  const a = getOutcome.response;
  const b = headOutcome.response;
  const problems: string[] = [];
  if (a.status !== b.status) problems.push(`HEAD answered ${b.status} where GET answered ${a.status}`);
  else if (contentType(a) !== contentType(b)) problems.push(`HEAD Content-Type ${contentType(b) || '(none)'} where GET has ${contentType(a) || '(none)'}`);
  return problems.map((detail) => ({ category: 'shape' as const, surface, detail, request: { ...get, method: 'HEAD' }, status: b.status }));
}
