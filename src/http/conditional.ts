/**
 * Conditional GET/HEAD (RFC 9110 §13.1.2): "A recipient MUST use the weak comparison
 * function when comparing entity tags for If-None-Match", and `*` matches any current
 * representation. A match answers 304 with the validator and cache headers, no body.
 */
import type { Answer } from './answer.ts';

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const current = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === current);
}

/** Headers a 304 keeps (RFC 9110 §15.4.5); everything else of the 200 is left out. */
const KEPT = new Set(['etag', 'cache-control', 'content-location', 'date', 'expires', 'vary', 'last-modified', 'api-version', 'access-control-allow-origin', 'access-control-expose-headers', 'link']);

export function notModified(headers: Record<string, string>): Answer {
  return { status: 304, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => KEPT.has(name.toLowerCase()))), body: null };
}

/** The 200 answer for GET, its headers alone for HEAD, or 304 when the client's tag matches. */
export function conditionalAnswer(method: string, ifNoneMatch: string | null, headers: Record<string, string>, body: Uint8Array): Answer {
  if (ifNoneMatchMatches(ifNoneMatch, headers.ETag ?? '')) return notModified(headers);
  return { status: 200, headers, body: method === 'HEAD' ? null : body };
}
