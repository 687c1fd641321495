/**
 * `GET|HEAD /api/status.json`: is this process serving, which API version, and how fresh
 * is its data — the image's as-of time and count per collection. Computed from the
 * open image, so it reports the runtime actually answering, never a cached build file.
 */
import { restCollections } from '../src/collections/index.ts';
import type { Image } from '../src/core/image.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { API_VERSION, COMMON_HEADERS } from '../src/http/headers.ts';
import { problemAnswer } from '../src/http/problem.ts';
import { LINKS } from '../src/urls.ts';

export function statusAnswer(image: Image): (request: RequestFacts) => Answer {
  const collections = Object.fromEntries(restCollections.map((c) => [c.name, { count: image.count(c.name), asOf: image.asOf(c.name) }]));
  const dataAsOf = Object.values(collections).reduce((newest, c) => (c.asOf > newest ? c.asOf : newest), '1970-01-01T00:00:00Z');
  const body = Buffer.from(JSON.stringify({ status: 'ok', version: API_VERSION, dataAsOf, links: LINKS, collections }));
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The status is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    const headers = { ...COMMON_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Cache-Control': 'no-store' };
    return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
  };
}

