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
import type { QuotaHealth } from '../src/http/redis-counters.ts';
import { LINKS } from '../src/urls.ts';

const IN_PROCESS: QuotaHealth = { store: 'memory', state: 'ok' };

/**
 * `quotas` says where quotas count and whether that works: with Redis away they count in
 * process, and the status is `degraded` with the reason (src/http/redis-counters.ts).
 */
export function statusAnswer(image: Image, quotas: () => QuotaHealth = () => IN_PROCESS): (request: RequestFacts) => Answer {
  const collections = Object.fromEntries(restCollections.map((c) => [c.name, { count: image.count(c.name), asOf: image.asOf(c.name) }]));
  const dataAsOf = Object.values(collections).reduce((newest, c) => (c.asOf > newest ? c.asOf : newest), '1970-01-01T00:00:00Z');
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The status is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    const health = quotas();
    const degraded = health.state === 'degraded' ? { reason: `quotas: ${health.reason}` } : {};
    const body = Buffer.from(JSON.stringify({ status: health.state, ...degraded, version: API_VERSION, dataAsOf, quotas: health, links: LINKS, collections }));
    const headers = { ...COMMON_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Cache-Control': 'no-store' };
    return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
  };
}

