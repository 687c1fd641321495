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

/** RFC 9652: the collection's query template, a structured-field string with its relation. */
export function linkTemplate(collection: CollectionDeclaration): string {
  // RFC 6570 explode (`*`): a repeatable filter is given once per value.
  const filters = Object.entries(collection.filters).map(([param, spec]) => (spec.repeatable ? `${param}*` : param));
  const params = [...filters, 'q', 'sort', 'limit', 'facets', 'cursor'];
  return `"/api/${collection.name}.json{?${params.join(',')}}"; rel="search"`;
}

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

export function listHeaders(input: ListHeaderInput): Record<string, string> {
  const path = input.path;
  const lifecycle = lifecycleHeaders(path);
  return {
    ...COMMON_HEADERS,
    'Content-Type': input.contentType,
    ETag: input.etag,
    ...(input.lastModified === undefined ? {} : { 'Last-Modified': new Date(input.lastModified).toUTCString() }),
    // A list is negotiated (JSON, CSV, GeoJSON…): shared caches that ignore Vary must not keep it.
    ...NEGOTIATED_HEADERS,
    'X-Total-Count': String(input.totalCount),
    Link: [linkHeader(input.links), lifecycle.link].filter(Boolean).join(', '),
    'Link-Template': input.template,
    ...lifecycle.headers,
  };
}

/** Headers of a static service document (metadata, catalog, problem types, OpenAPI); `lastModified` where a dated record says when its data changed. */
export function documentHeaders(contentType: string, body: Uint8Array, lastModified?: string): Record<string, string> {
  const headers: Record<string, string> = { ...COMMON_HEADERS, 'Content-Type': contentType, ETag: strongEtag(body), 'Cache-Control': LIST_CACHE_CONTROL };
  if (lastModified !== undefined) headers['Last-Modified'] = new Date(lastModified).toUTCString();
  return headers;
}
