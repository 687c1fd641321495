/**
 * CORS preflight (Fetch standard §3.2): every origin may read the public API, with the
 * request headers clients actually send. Answered as 204 with no body. Every public
 * operation accepts `Idempotency-Key` (SPEC §9.7: accepted, with no effect), so every
 * preflight allows it, whatever else the surface reads.
 */
import type { Answer } from './answer.ts';
import { COMMON_HEADERS } from './headers.ts';

const IDEMPOTENCY_KEY = 'Idempotency-Key';
const ALLOWED_REQUEST_HEADERS = `Accept, API-Version, ${IDEMPOTENCY_KEY}, If-None-Match, If-Modified-Since, Content-Type`;
/** Browsers may remember a preflight for a day. */
const PREFLIGHT_MAX_AGE = '86400';

export interface PreflightOptions {
  /** The surface's own response headers (the REST ones by default). */
  headers?: Readonly<Record<string, string>>;
  /** The request headers the surface reads (`Idempotency-Key` is added when missing). */
  allowHeaders?: string;
}

/** A surface's allowed request headers, with `Idempotency-Key` among them. */
function withIdempotencyKey(headers: string): string {
  const names = headers.split(',').map((name) => name.trim().toLowerCase());
  return names.includes(IDEMPOTENCY_KEY.toLowerCase()) ? headers : `${headers}, ${IDEMPOTENCY_KEY}`;
}

export function preflight(allow: string, options: PreflightOptions = {}): Answer {
  return {
    status: 204,
    headers: {
      ...(options.headers ?? COMMON_HEADERS),
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': withIdempotencyKey(options.allowHeaders ?? ALLOWED_REQUEST_HEADERS),
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
    },
    body: null,
  };
}
