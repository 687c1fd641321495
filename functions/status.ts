/**
 * `GET|HEAD /api/status.json`: is this process serving, which API version, and how fresh
 * is its data — the image's as-of time and count per collection. Computed from the
 * open image, so it reports the runtime actually answering, never a cached build file.
 * A process that is stopping says `draining` with a 503, so a load balancer's health
 * check takes it out while it finishes what it has (src/runtime/drain.ts); a replica
 * following releases names the one it serves (`release`).
 */
import { restCollections } from '../src/collections/index.ts';
import type { Image } from '../src/core/image.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { API_VERSION, COMMON_HEADERS } from '../src/http/headers.ts';
import { problemAnswer } from '../src/http/problem.ts';
import { LINKS } from '../src/urls.ts';

/** What the process says of itself beside its data: one per process, read on every request. */
export interface ProcessState {
  readonly draining: boolean;
}

export function statusAnswer(image: Image, state: ProcessState = { draining: false }, release?: string): (request: RequestFacts) => Answer {
  const collections = Object.fromEntries(restCollections.map((c) => [c.name, { count: image.count(c.name), asOf: image.asOf(c.name) }]));
  const dataAsOf = Object.values(collections).reduce((newest, c) => (c.asOf > newest ? c.asOf : newest), '1970-01-01T00:00:00Z');
  const document = (status: string) => Buffer.from(JSON.stringify({ status, version: API_VERSION, dataAsOf, ...(release ? { release } : {}), links: LINKS, collections }));
  const body = document('ok');
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The status is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    // 503 rather than 200 while draining: health checks (nginx, HAProxy, Kubernetes) act on the status code.
    const answer = state.draining ? document('draining') : body;
    const headers = { ...COMMON_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(answer.length), 'Cache-Control': 'no-store' };
    return { status: state.draining ? 503 : 200, headers, body: request.method === 'HEAD' ? null : answer };
  };
}

