/**
 * CORS preflight (Fetch standard §3.2): every origin may read the public API, with the
 * request headers clients actually send. Answered as 204 with no body.
 */
import type { Answer } from './answer.ts';
import { COMMON_HEADERS } from './headers.ts';

const ALLOWED_REQUEST_HEADERS = 'Accept, API-Version, Idempotency-Key, If-None-Match, If-Modified-Since, Content-Type';
/** Browsers may remember a preflight for a day. */
const PREFLIGHT_MAX_AGE = '86400';

export interface PreflightOptions {
  /** The surface's own response headers (the REST ones by default). */
  headers?: Readonly<Record<string, string>>;
  /** The request headers the surface reads. */
  allowHeaders?: string;
}

export function preflight(allow: string, options: PreflightOptions = {}): Answer {
  return {
    status: 204,
    headers: {
      ...(options.headers ?? COMMON_HEADERS),
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': options.allowHeaders ?? ALLOWED_REQUEST_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
    },
    body: null,
  };
}
