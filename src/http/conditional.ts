/**
 * Conditional GET/HEAD (RFC 9110 §13). "A recipient MUST use the weak comparison function
 * when comparing entity tags for If-None-Match", `*` matches any current representation,
 * and If-Modified-Since is evaluated only "when the request does not contain an
 * If-None-Match header field" (§13.1.3) and its date is valid. A match answers 304 with
 * the validator and cache headers and no body.
 */
import type { Answer } from './answer.ts';

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const current = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === current);
}

function notModifiedSince(header: string | null, lastModified: string | undefined): boolean {
  if (header === null || lastModified === undefined) return false;
  const since = Date.parse(header);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}

/** Headers a 304 keeps (RFC 9110 §15.4.5 and the API's own fields); the rest of the 200 is left out. */
const KEPT = new Set([
  'etag',
  'cache-control',
  'content-location',
  'date',
  'expires',
  'vary',
  'last-modified',
  'link',
  'link-template',
  'x-total-count',
  'api-version',
  'content-usage',
  'content-signal',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'deprecation',
  'sunset',
  'access-control-allow-origin',
  'access-control-expose-headers',
]);

export function notModified(headers: Record<string, string>): Answer {
  return { status: 304, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => KEPT.has(name.toLowerCase()))), body: null };
}

export interface Preconditions {
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
}

/**
 * The 200 answer for GET, its headers alone for HEAD, or 304 when the client's copy is
 * current. `fixed`: the fields of `headers` a remembered answer keeps from one request to
 * the next (the same object each time), which a 200 names as its `fixedHeaders`.
 */
export function conditionalAnswer(
  method: string,
  preconditions: Preconditions,
  headers: Record<string, string>,
  body: Uint8Array,
  fixed?: Readonly<Record<string, string>>,
): Answer {
  const current =
    preconditions.ifNoneMatch !== null
      ? ifNoneMatchMatches(preconditions.ifNoneMatch, headers.ETag ?? '')
      : notModifiedSince(preconditions.ifModifiedSince, headers['Last-Modified']);
  if (current) return notModified(headers);
  const answer: Answer = { status: 200, headers, body: method === 'HEAD' ? null : body };
  if (fixed !== undefined) answer.fixedHeaders = fixed;
  return answer;
}
