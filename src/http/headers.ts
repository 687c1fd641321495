/**
 * The response headers of a collection list, built in one place so a static page-one
 * file (headers precomputed into the manifest at build time) and a runtime answer carry
 * exactly the same ones.
 */
import type { PageLinks } from '../formats/json.ts';
import { linkHeader } from './link.ts';

export const API_VERSION = '1.0.0';
/** Lists change only on rebuild; a minute of freshness, then revalidation by ETag. */
export const LIST_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

export interface ListHeaderInput {
  contentType: string;
  etag: string;
  totalCount: number;
  links: PageLinks;
}

export function listHeaders(input: ListHeaderInput): Record<string, string> {
  return {
    'Content-Type': input.contentType,
    ETag: input.etag,
    'Cache-Control': LIST_CACHE_CONTROL,
    'API-Version': API_VERSION,
    'X-Total-Count': String(input.totalCount),
    Link: linkHeader(input.links),
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, API-Version',
  };
}
