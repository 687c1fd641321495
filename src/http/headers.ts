/**
 * The response headers of a collection list, built in one place so a static page-one
 * file (headers precomputed into the manifest at build time) and a runtime answer carry
 * exactly the same ones. Only the per-client `RateLimit` field is added at request time.
 */
import type { CollectionDeclaration } from '../collections/define.ts';
import { LIMITS } from '../core/limits.ts';
import type { PageLinks } from '../formats/json.ts';
import { strongEtag } from './etag.ts';
import { lifecycleHeaders } from './lifecycle.ts';
import { linkHeader } from './link.ts';
import { NEGOTIATED_HEADERS } from './negotiate.ts';

export const API_VERSION = '1.0.0';
/** Lists change only on rebuild; a minute of freshness, then revalidation by ETag. */
export const LIST_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/** The owner's AI-use preferences: IETF aipref vocabulary (y/n tokens)… */
export const CONTENT_USAGE = 'train-ai=n, search=y';
/** …and the same stance in Cloudflare's Content-Signal terms. */
export const CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=no';

/** Site pages and their Markdown twins carry the owner's AI-use preferences, as the API answers do. */
export const PAGE_PREFERENCES: Readonly<Record<string, string>> = { 'Content-Usage': CONTENT_USAGE, 'Content-Signal': CONTENT_SIGNAL };
/** The quota policy, IETF RateLimit header fields draft: 1000 requests per 60-second window. */
export const RATE_LIMIT_POLICY_NAME = 'collections';
export const RATE_LIMIT_POLICY = `"${RATE_LIMIT_POLICY_NAME}";q=${LIMITS.restRequestsPerWindow};w=${LIMITS.restWindowSeconds}`;
/** Response headers a cross-origin script may read. */
export const EXPOSED_HEADERS = [
  'Link',
  'Link-Template',
  'ETag',
  'Last-Modified',
  'Content-Usage',
  'Content-Signal',
  'X-Total-Count',
  'API-Version',
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'Retry-After',
  'Deprecation',
  'Sunset',
].join(', ');

/** Headers every public API answer carries, errors included. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'API-Version': API_VERSION,
  'Content-Usage': CONTENT_USAGE,
  'Content-Signal': CONTENT_SIGNAL,
  'RateLimit-Policy': RATE_LIMIT_POLICY,
  'RateLimit-Limit': String(LIMITS.restRequestsPerWindow),
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
};

/** RFC 9652: the collection's query template, a structured-field string with its relation; made once per declaration. */
export function linkTemplate(collection: CollectionDeclaration): string {
  let template = templates.get(collection);
  if (template === undefined) {
    // RFC 6570 explode (`*`): a repeatable filter is given once per value.
    const filters = Object.entries(collection.filters).map(([param, spec]) => (spec.repeatable ? `${param}*` : param));
    const params = [...filters, 'q', 'sort', 'limit', 'facets', 'cursor'];
    template = `"/api/${collection.name}.json{?${params.join(',')}}"; rel="search"`;
    templates.set(collection, template);
  }
  return template;
}

const templates = new WeakMap<CollectionDeclaration, string>();

export interface ListHeaderInput {
  /** The list's path, `/api/<name>.json`. */
  path: string;
  /** Its RFC 9652 query template (`linkTemplate`). */
  template: string;
  contentType: string;
  etag: string;
  totalCount: number;
  links: PageLinks;
  /** When the data last changed (RFC 3339), sent as Last-Modified; absent where no record is dated (SPEC §4.1: only with a reliable source date). */
  lastModified: string | undefined;
}

/** The last RFC 3339 time written as an HTTP date and its text: an image has a few, asked for on every answer. */
let lastDate = { rfc3339: '', http: '' };

function httpDate(rfc3339: string): string {
  if (lastDate.rfc3339 !== rfc3339) lastDate = { rfc3339, http: new Date(rfc3339).toUTCString() };
  return lastDate.http;
}

/**
 * The fields in the order every list has sent them (the common fields, the
 * representation's, the negotiated ones, the count, links, the lifecycle's), set one by
 * one rather than spread from objects made per answer.
 */
export function listHeaders(input: ListHeaderInput): Record<string, string> {
  const path = input.path;
  const lifecycle = lifecycleHeaders(path);
  const headers: Record<string, string> = { ...COMMON_HEADERS };
  headers['Content-Type'] = input.contentType;
  headers.ETag = input.etag;
  if (input.lastModified !== undefined) headers['Last-Modified'] = httpDate(input.lastModified);
  // A list is negotiated (JSON, CSV, GeoJSON…): shared caches that ignore Vary must not keep it.
  for (const name in NEGOTIATED_HEADERS) headers[name] = NEGOTIATED_HEADERS[name]!;
  headers['X-Total-Count'] = String(input.totalCount);
  const link = linkHeader(input.links);
  headers.Link = lifecycle.link === undefined ? link : link ? `${link}, ${lifecycle.link}` : lifecycle.link;
  headers['Link-Template'] = input.template;
  for (const name in lifecycle.headers) headers[name] = lifecycle.headers[name]!;
  return headers;
}

/** Headers of a static service document (metadata, catalog, problem types, OpenAPI); `lastModified` where a dated record says when its data changed. */
export function documentHeaders(contentType: string, body: Uint8Array, lastModified?: string): Record<string, string> {
  const headers: Record<string, string> = { ...COMMON_HEADERS, 'Content-Type': contentType, ETag: strongEtag(body), 'Cache-Control': LIST_CACHE_CONTROL };
  if (lastModified !== undefined) headers['Last-Modified'] = new Date(lastModified).toUTCString();
  return headers;
}
