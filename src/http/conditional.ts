/**
 * Conditional GET/HEAD (RFC 9110 §13.1.2): "A recipient MUST use the weak comparison
 * function when comparing entity tags for If-None-Match", and `*` matches any current
 * representation. A match answers 304 with the validator and cache headers, no body.
 */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const current = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === current);
}

/** Headers a 304 keeps (RFC 9110 §15.4.5), everything else of the 200 is left out. */
const KEPT = ['etag', 'cache-control', 'content-location', 'date', 'expires', 'vary', 'last-modified', 'api-version', 'access-control-allow-origin', 'access-control-expose-headers', 'link'];

export function notModified(headers: Record<string, string>): Response {
  const kept = Object.entries(headers).filter(([name]) => KEPT.includes(name.toLowerCase()));
  return new Response(null, { status: 304, headers: kept });
}
