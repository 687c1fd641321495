/**
 * Request quotas: a fixed-window counter per client key (1000 requests per 60 s on the
 * collection surface). Counters live behind `CounterStore`, a one-method interface, so a
 * shared store (Redis INCR + EXPIRE) can replace the in-process one when several
 * replicas serve together. The answer carries the IETF RateLimit fields: the policy, and
 * `RateLimit: "<policy>";r=<remaining>;t=<seconds to reset>`.
 */
import { LIMITS } from '../core/limits.ts';
import type { Answer } from './answer.ts';
import { problemAnswer } from './problem.ts';

export interface CounterStore {
  /** Adds `amount` to the key's counter in the window starting at `windowStart` (ms) and returns the new count. */
  increment(key: string, windowStart: number, amount: number): number;
}

/** One process's counters; only the current window is kept, and at most `maxKeys` of them. */
export class MemoryCounterStore implements CounterStore {
  private window = 0;
  private counts = new Map<string, number>();
  private readonly maxKeys: number;

  constructor(maxKeys: number) {
    this.maxKeys = maxKeys;
  }

  increment(key: string, windowStart: number, amount: number): number {
    if (windowStart !== this.window) {
      this.window = windowStart;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + amount;
    if (!this.counts.has(key) && this.counts.size >= this.maxKeys) this.counts.delete(this.counts.keys().next().value!);
    this.counts.set(key, count);
    return count;
  }
}

export interface Quota {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  /** The `RateLimit` field value. */
  header: string;
}

export class RateLimiter {
  private readonly store: CounterStore;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly policy: string;
  private readonly now: () => number;

  /** Without a store, counters live in this process (bounded by LIMITS.rateLimitClients). */
  constructor(options: { store?: CounterStore; limit: number; windowSeconds: number; policy: string; now?: () => number }) {
    this.store = options.store ?? new MemoryCounterStore(LIMITS.rateLimitClients);
    this.limit = options.limit;
    this.windowMs = options.windowSeconds * 1000;
    this.policy = options.policy;
    this.now = options.now ?? Date.now;
  }

  /** Spends `amount` units (requests, or GraphQL cost points) of the key's quota. */
  take(key: string, amount = 1): Quota {
    const now = this.now();
    const windowStart = now - (now % this.windowMs);
    const count = this.store.increment(key, windowStart, amount);
    const remaining = Math.max(0, this.limit - count);
    const reset = Math.max(1, Math.ceil((windowStart + this.windowMs - now) / 1000));
    const allowed = amount === 0 ? count < this.limit : count <= this.limit;
    return { allowed, remaining, reset, header: `"${this.policy}";r=${remaining};t=${reset}` };
  }

  /** The policy as the IETF RateLimit fields advertise it: the limit in force, whatever configured it. */
  get policyHeaders(): Readonly<Record<string, string>> {
    return { 'RateLimit-Policy': `"${this.policy}";q=${this.limit};w=${this.windowMs / 1000}`, 'RateLimit-Limit': String(this.limit) };
  }

  /** The key's quota without spending any: `allowed` when one more unit fits. */
  peek(key: string): Quota {
    return this.take(key, 0);
  }

  /**
   * The 429 problem of an exhausted quota. `Retry-After` is the whole window (SPEC §7:
   * `Retry-After: 60`): by then everything counted in it has expired, however it slides.
   */
  refusal(quota: Quota, headers: Readonly<Record<string, string>> = {}): Answer {
    const seconds = this.windowMs / 1000;
    return problemAnswer('rate-limited', `This client used its quota of ${this.limit} requests per ${seconds} seconds; retry after the time in Retry-After.`, {
      headers: { ...headers, ...this.policyHeaders, RateLimit: quota.header, 'Retry-After': String(seconds) },
    });
  }
}

/**
 * Runs `answer` under the limiter's quota for `key`: a 429 problem when none is left;
 * otherwise one unit is spent — unless the answer is a 304, since a conditional request
 * that matches costs almost nothing and should be rewarded (as GitHub's API does) — and
 * the answer carries the `RateLimit` fields of the policy in force.
 */
export function metered(limiter: RateLimiter, key: string, answer: () => Answer): Answer {
  const before = limiter.peek(key);
  if (!before.allowed) return limiter.refusal(before);
  const result = answer();
  const after = result.status === 304 ? before : limiter.take(key);
  return { ...result, headers: { ...result.headers, ...limiter.policyHeaders, RateLimit: after.header } };
}
