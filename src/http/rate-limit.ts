/**
 * Request quotas: a fixed-window counter per client key (1000 requests per 60 s on the
 * collection surface). Counters live behind `CounterStore`, a one-method interface, so a
 * shared store (Redis INCR + EXPIRE) can replace the in-process one when several
 * replicas serve together. The answer carries the IETF RateLimit fields: the policy, and
 * `RateLimit: "<policy>";r=<remaining>;t=<seconds to reset>`.
 */
import { LIMITS } from '../core/limits.ts';
import { BoundedCache, type CacheBudget } from '../core/memo.ts';

export interface CounterStore {
  /** Adds `amount` to the key's counter in the window starting at `windowStart` (ms) and returns the new count. */
  increment(key: string, windowStart: number, amount: number): number;
}

/**
 * One process's counters; only the current window is kept, at most `maxKeys` of them and
 * `budgetBytes` of memory (each key charged as every cache entry is, src/core/memo.ts).
 * Past either bound the least recently counted clients are forgotten first.
 */
export class MemoryCounterStore implements CounterStore {
  private window = 0;
  private counts: BoundedCache<number>;
  private readonly budget: CacheBudget<number>;

  constructor(maxKeys: number, budgetBytes: number = LIMITS.rateLimitCounterBytes) {
    this.budget = { bytes: budgetBytes, entries: maxKeys, valueBytes: () => 0 };
    this.counts = new BoundedCache(this.budget);
  }

  increment(key: string, windowStart: number, amount: number): number {
    if (windowStart !== this.window) {
      this.window = windowStart;
      this.counts = new BoundedCache(this.budget);
    }
    const count = (this.counts.get(key) ?? 0) + amount;
    this.counts.set(key, count);
    return count;
  }

  /** Bytes accounted to the counters held now. */
  get bytes(): number {
    return this.counts.bytes;
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
    return { allowed: count <= this.limit, remaining, reset, header: `"${this.policy}";r=${remaining};t=${reset}` };
  }
}
