/**
 * Proactive content negotiation (RFC 9110 §12.5.1): the Accept header's media ranges,
 * with q-values and wildcards, against the media types a resource offers. The most
 * specific matching range sets a type's quality ("Media ranges can be overridden by more
 * specific media ranges or specific media types"); q=0 means "not acceptable"; ties go
 * to the server's order of preference. No Accept header means anything is acceptable.
 */
import { LIMITS } from '../core/limits.ts';
import { BoundedMemo, OBJECT_BYTES } from '../core/memo.ts';

interface Range {
  type: string;
  subtype: string;
  q: number;
}

/** Bounds the work a hostile Accept header can cause. */
const MAX_RANGES = 32;

/**
 * Parsed Accept values by their text: a client sends the same string on every request
 * (src/core/limits.ts `acceptParsesRemembered`). A kibibyte each on average: a browser's
 * Accept is under 200 characters, and a long hostile one only pushes others out.
 */
const parsed = new BoundedMemo<readonly Range[]>(LIMITS.acceptParsesRemembered, (header) => parseAccept(header), {
  bytes: LIMITS.acceptParsesRemembered * 1024,
  valueBytes: (ranges) => OBJECT_BYTES * (1 + ranges.length),
});

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',').slice(0, MAX_RANGES)) {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype] = mediaRange.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

function quality(ranges: readonly Range[], mediaType: string): number {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** The offered media type the client prefers, or undefined when none is acceptable. */
export function negotiate(accept: string | null, offered: readonly string[]): string | undefined {
  if (accept === null || accept.trim() === '') return offered[0];
  const ranges = parsed.get(accept);
  if (ranges.length === 0) return offered[0];
  let chosen: string | undefined;
  let chosenQ = 0;
  for (const mediaType of offered) {
    const q = quality(ranges, mediaType);
    if (q > chosenQ) {
      chosen = mediaType;
      chosenQ = q;
    }
  }
  return chosen;
}

/** Whether a Content-Type is `mediaType`, optionally with `charset=utf-8` and no other parameter. */
export function isMediaType(contentType: string | null, mediaType: string): boolean {
  if (contentType === null) return false;
  const [type, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  if (type !== mediaType) return false;
  return params.every((p) => p === '' || p.replace(/\s*=\s*/, '=').replaceAll('"', '') === 'charset=utf-8');
}

/**
 * The caching headers of an answer chosen by `Accept` (a page or its Markdown twin, a list
 * as JSON or CSV): `Vary: Accept` for caches that honour it, and `private` plus `no-store`
 * in the fields CDNs read (RFC 9213 `CDN-Cache-Control`, `Surrogate-Control`) for those
 * that key on the URL alone — Cloudflare's cache ignores `Vary` — so no shared cache ever
 * stores one representation of the URL and hands it to a client that asked for another,
 * whichever comes first. Browsers still keep their copy for a minute, as before.
 */
export const NEGOTIATED_HEADERS: Readonly<Record<string, string>> = {
  Vary: 'Accept',
  'Cache-Control': 'private, max-age=60, stale-while-revalidate=300',
  'CDN-Cache-Control': 'no-store',
  'Surrogate-Control': 'no-store',
};
