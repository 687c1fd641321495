/**
 * The polite client one source of one sync run asks its service through. It sends every
 * request through the one guarded fetcher (src/net/fetch.ts: timeouts, byte cap,
 * redirects only on the source's host, the User-Agent) and adds what politeness to a
 * service needs, in order, per request:
 *
 * 1. the run's request budget (`syncRequestsPerSourceMax`) and the service's own (below):
 *    once either is spent, `canAsk()` is false and readers stop paging, and a request
 *    asked anyway fails the source (`budget`, `rate-limited`);
 * 2. a conditional request (`If-None-Match`, `If-Modified-Since`) for every URL it saw
 *    last run, so an unchanged answer is a bodiless `304` (on GitHub one that costs no
 *    quota);
 * 3. a `429` (or GitHub's `403` with no requests left) is waited out once when its
 *    `Retry-After` (or `X-RateLimit-Reset`) is at most `syncRetryAfterWaitMaxSeconds`,
 *    else the source stops as `rate-limited` and the next run resumes from its cursor;
 * 4. the service's budget headers are read on every answer — `X-RateLimit-Remaining`
 *    (GitHub, Mastodon, ListenBrainz) and `X-RateLimit-Usage` against
 *    `X-RateLimit-Limit` (Strava: fifteen-minute and daily, comma-separated) — and the
 *    client stops asking `syncRateLimitReserve` short of either;
 * 5. any other status is the source's failure, its kind said (`auth` for 401/403,
 *    `http-status` for the rest), with the URL shown without its query.
 *
 * It remembers the validators of every URL asked this run; the frame keeps them only when
 * the source's records were written (src/sync/run.ts), so a failed write never hides new
 * items behind a `304` next time.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { LIMITS } from '../core/limits.ts';
import { FetchFailure, guardedFetch, shownUrl, type GuardedPolicy } from '../net/fetch.ts';
import type { Validators } from './state.ts';

/** How a source's run failed: the status document shows the kind, never the message's URL or a secret. */
export type FailureKind =
  | 'config'
  | 'unreachable'
  | 'timeout'
  | 'too-large'
  | 'redirect'
  | 'private'
  | 'http-status'
  | 'auth'
  | 'rate-limited'
  | 'budget'
  | 'not-a-feed'
  | 'malformed'
  | 'wrong-shape'
  | 'write'
  | 'locked';

/** One source's failure: its kind and a message naming what was wrong (the frame prefixes the source). */
export class SyncFailure extends Error {
  override readonly name = 'SyncFailure';
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** The bounds one client keeps; the defaults are the named limits (tests shorten the timeouts). */
export interface ClientLimits {
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  totalTimeoutMs: number;
  bytesMax: number;
  redirectsMax: number;
  requestsMax: number;
  retryAfterWaitMaxSeconds: number;
  rateLimitReserve: number;
}

export const DEFAULT_CLIENT_LIMITS: Readonly<ClientLimits> = {
  connectTimeoutMs: LIMITS.syncConnectTimeoutMs,
  idleTimeoutMs: LIMITS.syncIdleTimeoutMs,
  totalTimeoutMs: LIMITS.syncTotalTimeoutMs,
  bytesMax: LIMITS.syncResponseBytesMax,
  redirectsMax: LIMITS.syncRedirectsMax,
  requestsMax: LIMITS.syncRequestsPerSourceMax,
  retryAfterWaitMaxSeconds: LIMITS.syncRetryAfterWaitMaxSeconds,
  rateLimitReserve: LIMITS.syncRateLimitReserve,
};

export interface ClientOptions {
  userAgent: string;
  /** Loopback and private addresses allowed: the owner named the host (a `baseUrl`), or a test. */
  allowPrivate: boolean;
  limits: ClientLimits;
  /** The validators remembered from the last run, per URL. */
  validators: Readonly<Record<string, Validators>>;
  /** False for a fresh read (`--since`): no conditional request. */
  conditional: boolean;
}

/** An answer a reader gets: a 200-class one with its body, or a 304 (nothing changed since last run). */
export interface Answer {
  status: number;
  notModified: boolean;
  headers: IncomingHttpHeaders;
  body: Buffer;
  url: URL;
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Seconds to wait from `Retry-After` (seconds or an HTTP date) or GitHub's `X-RateLimit-Reset` (epoch seconds); undefined when neither says. */
export function waitSeconds(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const retry = header(headers, 'retry-after')?.trim();
  if (retry !== undefined && /^\d{1,9}$/.test(retry)) return Number(retry);
  if (retry !== undefined && !Number.isNaN(Date.parse(retry))) return Math.max(0, Math.ceil((Date.parse(retry) - now) / 1000));
  const reset = header(headers, 'x-ratelimit-reset')?.trim();
  if (reset !== undefined && /^\d{9,11}$/.test(reset)) return Math.max(0, Number(reset) - Math.floor(now / 1000));
  return undefined;
}

/** Whether the service's own budget headers leave more than `reserve` requests. */
export function budgetLeft(headers: IncomingHttpHeaders, reserve: number): boolean {
  const remaining = header(headers, 'x-ratelimit-remaining');
  if (remaining !== undefined && /^\s*\d+\s*$/.test(remaining) && Number(remaining) <= reserve) return false;
  // Strava: "15-minute,daily" usage against limits, for all requests and for reads.
  for (const prefix of ['x-ratelimit', 'x-readratelimit']) {
    const limit = header(headers, `${prefix}-limit`)?.split(',').map(Number);
    const usage = header(headers, `${prefix}-usage`)?.split(',').map(Number);
    if (!limit || !usage) continue;
    if (limit.some((l, i) => Number.isFinite(l) && Number.isFinite(usage[i]) && usage[i]! >= l - reserve)) return false;
  }
  return true;
}

const FAILURE_KINDS: Record<FetchFailure['kind'], FailureKind> = {
  private: 'private',
  unreachable: 'unreachable',
  timeout: 'timeout',
  'too-large': 'too-large',
  redirect: 'redirect',
};

export class SourceClient {
  private readonly options: ClientOptions;
  private readonly policy: GuardedPolicy;
  private requests = 0;
  private serviceBudget = true;
  private cut = false;
  /** Validators of the URLs asked this run (a 304 keeps the old ones). */
  private readonly seen: Record<string, Validators> = {};

  constructor(options: ClientOptions) {
    this.options = options;
    const { limits } = options;
    this.policy = {
      allowPrivate: options.allowPrivate,
      bytesMax: limits.bytesMax,
      connectTimeoutMs: limits.connectTimeoutMs,
      idleTimeoutMs: limits.idleTimeoutMs,
      totalTimeoutMs: limits.totalTimeoutMs,
      redirectsMax: limits.redirectsMax,
      userAgent: options.userAgent,
      acceptGzip: true,
    };
  }

  /** Whether another request fits this run's budget and the service's; a reader asking and told no has stopped short. */
  canAsk(): boolean {
    const room = this.requests < this.options.limits.requestsMax && this.serviceBudget;
    if (!room) this.cut = true;
    return room;
  }

  /** A reader stopped short of the end at a budget: the next run reads the rest. */
  get stoppedShort(): boolean {
    return this.cut;
  }

  /** Requests sent so far (retries included). */
  get sent(): number {
    return this.requests;
  }

  /** The validators to remember if this run's records are written. */
  validators(): Record<string, Validators> {
    return { ...this.seen };
  }

  get(url: URL, accept: string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
    return this.send(url, 'GET', { Accept: accept, ...headers }, undefined);
  }

  /** A form POST (an OAuth grant): never conditional. */
  postForm(url: URL, form: Readonly<Record<string, string>>, accept: string): Promise<Answer> {
    return this.send(url, 'POST', { Accept: accept, 'Content-Type': 'application/x-www-form-urlencoded' }, new URLSearchParams(form).toString());
  }

  private async send(url: URL, method: 'GET' | 'POST', headers: Record<string, string>, body: string | undefined): Promise<Answer> {
    const shown = shownUrl(url);
    const known = method === 'GET' && this.options.conditional ? this.options.validators[url.href] : undefined;
    const conditional: Record<string, string> = {};
    if (known?.etag) conditional['If-None-Match'] = known.etag;
    if (known?.lastModified) conditional['If-Modified-Since'] = known.lastModified;
    for (let attempt = 0; ; attempt++) {
      if (this.requests >= this.options.limits.requestsMax)
        throw new SyncFailure('budget', `more than ${this.options.limits.requestsMax} requests in one run (syncRequestsPerSourceMax)`);
      if (!this.serviceBudget) throw new SyncFailure('rate-limited', "the service's own rate limit is nearly spent; the next run resumes");
      this.requests++;
      let response;
      try {
        response = await guardedFetch({ url, method, headers: { ...headers, ...conditional }, ...(body !== undefined ? { body } : {}) }, this.policy);
      } catch (error) {
        if (!(error instanceof FetchFailure)) throw error;
        throw new SyncFailure(FAILURE_KINDS[error.kind], `${shown}: ${error.message}`);
      }
      const { status } = response;
      if (!budgetLeft(response.headers, this.options.limits.rateLimitReserve)) this.serviceBudget = false;
      const limited = status === 429 || (status === 403 && header(response.headers, 'x-ratelimit-remaining')?.trim() === '0');
      if (limited) {
        const wait = waitSeconds(response.headers);
        if (attempt === 0 && wait !== undefined && wait <= this.options.limits.retryAfterWaitMaxSeconds) {
          this.serviceBudget = true;
          await delay(wait * 1000);
          continue;
        }
        throw new SyncFailure('rate-limited', `${shown} answered ${status}${wait !== undefined ? `, retry after ${wait} s` : ''}; the next run resumes`);
      }
      if (status === 304 && known) {
        this.seen[url.href] = known;
        return { status, notModified: true, headers: response.headers, body: Buffer.alloc(0), url: response.url };
      }
      if (status === 401 || status === 403) throw new SyncFailure('auth', `${shown} answered ${status}: the credentials were refused`);
      if (status < 200 || status > 299) throw new SyncFailure('http-status', `${shown} answered ${status}`);
      const etag = header(response.headers, 'etag');
      const lastModified = header(response.headers, 'last-modified');
      if (method === 'GET' && (etag || lastModified)) this.seen[url.href] = { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
      return { status, notModified: false, headers: response.headers, body: response.body, url: response.url };
    }
  }
}
