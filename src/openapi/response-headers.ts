/**
 * The response headers of the public API as reusable `components.headers`, with the
 * values the HTTP layer actually sends as examples (imported, not copied), and the sets
 * each kind of response references. `required` means every response that lists the
 * header carries it; a header sent only sometimes (Last-Modified, lifecycle signals) is
 * listed as optional with the rule in its description.
 */
import { LIMITS } from '../core/limits.ts';
import { API_VERSION, CONTENT_SIGNAL, CONTENT_USAGE, RATE_LIMIT_POLICY, RATE_LIMIT_POLICY_NAME } from '../http/headers.ts';
import { NEGOTIATED_HEADERS } from '../http/negotiate.ts';
import { ref, type Header, type Reference } from './types.ts';

const string = (example: string) => ({ type: 'string', examples: [example] });

export const RESPONSE_HEADERS = {
  ContentUsage: {
    description: 'The owner’s AI-use preferences in the IETF aipref vocabulary.',
    required: true,
    schema: string(CONTENT_USAGE),
  },
  ContentSignal: {
    description: 'The same preferences as a Content-Signal policy.',
    required: true,
    schema: string(CONTENT_SIGNAL),
  },
  ApiVersion: {
    description: 'The contract version that answered; every REST response carries it.',
    required: true,
    schema: { type: 'string', const: API_VERSION },
  },
  RateLimitPolicy: {
    description: `The quota policy (IETF RateLimit header fields): ${LIMITS.restRequestsPerWindow} requests per ${LIMITS.restWindowSeconds}-second window per client.`,
    required: true,
    schema: string(RATE_LIMIT_POLICY),
  },
  RateLimitLimit: {
    description: 'Requests allowed per window.',
    required: true,
    schema: { type: 'integer', const: LIMITS.restRequestsPerWindow },
  },
  RateLimit: {
    description:
      'What is left of the client’s quota: `r` requests remaining, `t` seconds until more quota is made available (on a 429, until this request would fit). Sent only where no shared cache may store the answer (`no-store` or `private`: a 429, SQL, GraphQL, MCP), so a cache never hands one client’s count to another; a storable list answer or its 304 carries the policy fields alone.',
    required: false,
    schema: string(`"${RATE_LIMIT_POLICY_NAME}";r=${LIMITS.restRequestsPerWindow - 1};t=42`),
  },
  ETag: {
    description: 'Strong entity tag of the exact body bytes; send it back in If-None-Match.',
    required: true,
    schema: string('"3q2-7wEjfK0b8QeLm1x5dA9sVhXyZt4u"'),
  },
  CacheControl: {
    description:
      "Caching rule: a list is fresh for a minute in the client's own cache, then revalidated by ETag; `private`, since its representation depends on Accept and a shared cache that ignores Vary would mix them. Documents with one representation are `public`; problems are not stored.",
    required: true,
    schema: string(NEGOTIATED_HEADERS['Cache-Control']!),
  },
  CdnCacheControl: {
    description:
      "RFC 9213 targeted caching for CDNs: `no-store` on every answer whose representation depends on Accept, so a CDN that keys its cache on the URL alone never hands one client another's representation.",
    required: false,
    schema: string('no-store'),
  },
  SurrogateControl: {
    description: 'The same rule for surrogates that read Surrogate-Control (Fastly, Varnish).',
    required: false,
    schema: string('no-store'),
  },
  Vary: {
    description: 'The representation depends on Accept.',
    required: true,
    schema: string('Accept'),
  },
  XTotalCount: {
    description: 'Number of items matching the filters and search (all pages).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Link: {
    description: 'RFC 8288 links: `self`, `first` and, when there is a next page, `next`; plus a `deprecation` link when a lifecycle change is scheduled.',
    required: true,
    schema: string('</api/movies.json>; rel="self", </api/movies.json>; rel="first"'),
  },
  LinkTemplate: {
    description: 'RFC 9652 link template of the collection’s query parameters.',
    required: true,
    schema: string('"/api/movies.json{?type,year,q,sort,limit,facets,cursor}"; rel="search"'),
  },
  LastModified: {
    description: 'When the collection’s data last changed (IMF-fixdate), on projections with a reliable source date.',
    required: false,
    schema: string('Sun, 05 Oct 2025 00:00:00 GMT'),
  },
  Deprecation: {
    description: 'RFC 9745: when the operation was deprecated (`@<epoch seconds>`). None is scheduled today.',
    required: false,
    schema: string('@1767225600'),
  },
  Sunset: {
    description: 'RFC 8594: when the operation stops answering (IMF-fixdate). None is scheduled today.',
    required: false,
    schema: string('Thu, 31 Dec 2026 23:59:59 GMT'),
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1, examples: [LIMITS.restWindowSeconds] },
  },
  AccessControlAllowOrigin: {
    description: 'Every origin may read the public API.',
    required: true,
    schema: { type: 'string', const: '*' },
  },
  AccessControlExposeHeaders: {
    description:
      'Response headers a cross-origin script may read (Link, Link-Template, ETag, Last-Modified, Content-Usage, Content-Signal, X-Total-Count and the others above).',
    required: true,
    schema: { type: 'string' },
  },
  AccessControlAllowMethods: { description: 'Methods allowed cross-origin.', required: true, schema: string('GET, HEAD, OPTIONS') },
  AccessControlAllowHeaders: { description: 'Request headers allowed cross-origin.', required: true, schema: string('Accept, API-Version, If-None-Match') },
  AccessControlMaxAge: { description: 'Seconds a browser may remember this preflight.', required: false, schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'The methods the resource takes.', required: true, schema: string('GET, HEAD, OPTIONS') },
} satisfies Record<string, Header>;

export type HeaderName = keyof typeof RESPONSE_HEADERS;

/** HTTP field names of the components, for the response header maps. */
const FIELD_NAMES: Readonly<Record<HeaderName, string>> = {
  ContentUsage: 'Content-Usage',
  ContentSignal: 'Content-Signal',
  ApiVersion: 'API-Version',
  RateLimitPolicy: 'RateLimit-Policy',
  RateLimitLimit: 'RateLimit-Limit',
  RateLimit: 'RateLimit',
  ETag: 'ETag',
  CacheControl: 'Cache-Control',
  CdnCacheControl: 'CDN-Cache-Control',
  SurrogateControl: 'Surrogate-Control',
  Vary: 'Vary',
  XTotalCount: 'X-Total-Count',
  Link: 'Link',
  LinkTemplate: 'Link-Template',
  LastModified: 'Last-Modified',
  Deprecation: 'Deprecation',
  Sunset: 'Sunset',
  RetryAfter: 'Retry-After',
  AccessControlAllowOrigin: 'Access-Control-Allow-Origin',
  AccessControlExposeHeaders: 'Access-Control-Expose-Headers',
  AccessControlAllowMethods: 'Access-Control-Allow-Methods',
  AccessControlAllowHeaders: 'Access-Control-Allow-Headers',
  AccessControlMaxAge: 'Access-Control-Max-Age',
  Allow: 'Allow',
};

/** A response's header map: field name → component reference. */
export function headerRefs(names: readonly HeaderName[]): Record<string, Reference> {
  return Object.fromEntries(names.map((name) => [FIELD_NAMES[name], ref('headers', name)]));
}

/** Headers on every answer of the collection surface, errors included. */
export const COMMON: readonly HeaderName[] = [
  'ApiVersion',
  'ContentUsage',
  'ContentSignal',
  'RateLimitPolicy',
  'RateLimitLimit',
  'AccessControlAllowOrigin',
  'AccessControlExposeHeaders',
];

/** A list answer (200 and, RFC 9110 §15.4.5, the 304 that stands for it). */
export const LIST: readonly HeaderName[] = [
  ...COMMON,
  'RateLimit',
  'ETag',
  'CacheControl',
  'CdnCacheControl',
  'SurrogateControl',
  'Vary',
  'XTotalCount',
  'Link',
  'LinkTemplate',
  'LastModified',
  'Deprecation',
  'Sunset',
];

/** A problem answer. */
export const PROBLEM: readonly HeaderName[] = [...COMMON, 'RateLimit', 'CacheControl'];

/** The CORS preflight. */
export const PREFLIGHT: readonly HeaderName[] = [...COMMON, 'Allow', 'AccessControlAllowMethods', 'AccessControlAllowHeaders', 'AccessControlMaxAge'];
