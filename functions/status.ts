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
import type { QuotaHealth } from '../src/http/redis-counters.ts';
import { LINKS } from '../src/urls.ts';

/**
 * What the process says of itself beside its data: one per process, read on every
 * request; told of each answer, because a stopping process waits until a balancer's
 * health check has seen it draining (src/runtime/drain.ts).
 */
export interface ProcessState {
  readonly draining: boolean;
  statusAnswered?(): void;
  /** The scheduled sync's per-source status on the writer (src/sync/schedule.ts): last success, last failure's kind; absent when off. */
  readonly sync?: () => Readonly<Record<string, { lastSuccess: string | null; lastFailure: { at: string; kind: string } | null }>>;
}

const IN_PROCESS: QuotaHealth = { store: 'memory', state: 'ok' };

/**
 * `quotas` says where quotas count and whether that works: with Redis away they count in
 * process, and the status is `degraded` with the reason (src/http/redis-counters.ts).
 * Draining outranks degraded: the process is leaving either way.
 */
export function createStatusHandler(
  image: Image,
  state: ProcessState = { draining: false },
  release?: string,
  quotas: () => QuotaHealth = () => IN_PROCESS,
): (request: RequestFacts) => Answer {
  const collections = Object.fromEntries(restCollections.map((c) => [c.name, { count: image.count(c.name), asOf: image.asOf(c.name) }]));
  const dataAsOf = Object.values(collections).reduce((newest, c) => (c.asOf > newest ? c.asOf : newest), '1970-01-01T00:00:00Z');
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemAnswer('method-not-allowed', 'The status is read-only; use GET or HEAD.', { headers: { Allow: 'GET, HEAD' } });
    }
    state.statusAnswered?.();
    const health = quotas();
    const status = state.draining ? 'draining' : health.state;
    const degraded = health.state === 'degraded' ? { reason: `quotas: ${health.reason}` } : {};
    const body = Buffer.from(
      JSON.stringify({
        status,
        ...degraded,
        version: API_VERSION,
        dataAsOf,
        ...(release ? { release } : {}),
        quotas: health,
        links: LINKS,
        collections,
        ...(state.sync ? { sync: state.sync() } : {}),
      }),
    );
    const headers = { ...COMMON_HEADERS, 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Cache-Control': 'no-store' };
    // 503 rather than 200 while draining: health checks (nginx, HAProxy, Kubernetes) act on the status code.
    return { status: state.draining ? 503 : 200, headers, body: request.method === 'HEAD' ? null : body };
  };
}
