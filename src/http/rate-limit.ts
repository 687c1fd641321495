/**
 * Request quotas per client key (1000 requests per 60 s on the collection surface) over a
 * sliding window: counts are kept per slot of a twelfth of the window, and a request is
 * measured against every slot that began within the window before the current one, so no
 * client gets more than its quota in any 60-second span (a fixed window would allow twice
 * that across a boundary). Counters live behind `CounterStore`, a one-method interface,
 * so a shared store (Redis, a hash of slots per key with an expiry) can replace the
 * in-process one when several replicas serve together. The answer carries the IETF
 * RateLimit fields: the policy, and `RateLimit: "<policy>";r=<remaining>;t=<seconds>`.
 */
import { LIMITS } from '../core/limits.ts';
import type { Answer } from './answer.ts';
import { problemAnswer } from './problem.ts';
import { BoundedCache, type CacheBudget } from '../core/memo.ts';

/** Slots per window: a twelfth of 60 s is 5 s, the most the window can overlap the span it stands for. */
const SLOTS_PER_WINDOW = 12;

export interface CounterStore {
  /**
   * Adds `amount` to the key's count in the slot starting at `slotStart` (ms), forgets its
   * slots that started before `since`, and returns the counts of the slots kept, oldest first.
   */
  increment(key: string, slotStart: number, since: number, amount: number): readonly Slot[];
}

export interface Slot {
  start: number;
  count: number;
}

/**
 * One process's counters, at most `maxKeys` clients and `budgetBytes` of memory (each key
 * and its slots charged as every cache entry is, src/core/memo.ts). Past either bound the
 * least recently counted clients are forgotten first.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counts: BoundedCache<Slot[]>;

  constructor(maxKeys: number, budgetBytes: number = LIMITS.rateLimitCounterBytes) {
    const budget: CacheBudget<Slot[]> = { bytes: budgetBytes, entries: maxKeys, valueBytes: (slots) => 32 + 40 * slots.length };
    this.counts = new BoundedCache(budget);
  }

  increment(key: string, slotStart: number, since: number, amount: number): readonly Slot[] {
    const held = this.counts.get(key);
    // The common case, a client counted again within the same slot: nothing expires and the
    // entry keeps its size, so it is counted in place (`get` has made it the most recent).
    if (held !== undefined && held[0]!.start >= since && held.at(-1)!.start === slotStart) {
      held.at(-1)!.count += amount;
      return held;
    }
    const slots = (held ?? []).filter((slot) => slot.start >= since);
    const current = slots.at(-1);
    if (current?.start === slotStart) current.count += amount;
    else slots.push({ start: slotStart, count: amount });
    // Re-set on every count, so the entry is charged its current size and counts as recently used.
    this.counts.set(key, slots);
    return slots;
  }

  /** Bytes accounted to the counters held now. */
  get bytes(): number {
    return this.counts.bytes;
  }
}

export interface Quota {
  allowed: boolean;
  remaining: number;
  /** Seconds until some of the quota comes back (the oldest counted slot leaves the window). */
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
    this.policyHeaders = Object.freeze({ 'RateLimit-Policy': `"${this.policy}";q=${this.limit};w=${this.windowMs / 1000}`, 'RateLimit-Limit': String(this.limit) });
  }

  /** Spends `amount` units (requests, or GraphQL cost points) of the key's quota. */
  take(key: string, amount = 1): Quota {
    const now = this.now();
    const slotMs = this.windowMs / SLOTS_PER_WINDOW;
    const slotStart = now - (now % slotMs);
    // Every request of the last windowMs lies in a slot starting at or after slotStart - windowMs.
    const slots = this.store.increment(key, slotStart, slotStart - this.windowMs, amount);
    const count = slots.reduce((sum, slot) => sum + slot.count, 0);
    const remaining = Math.max(0, this.limit - count);
    // Quota comes back when the oldest counted slot leaves the window.
    const reset = Math.max(1, Math.ceil((slots[0]!.start + this.windowMs + slotMs - now) / 1000));
    const allowed = amount === 0 ? count < this.limit : count <= this.limit;
    return { allowed, remaining, reset, header: `"${this.policy}";r=${remaining};t=${reset}` };
  }

  /** The policy as the IETF RateLimit fields advertise it: the limit in force, whatever configured it. */
  readonly policyHeaders: Readonly<Record<string, string>>;

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
export function metered(limiter: RateLimiter, key: string, answer: () => Answer): Answer;
/** A refusal is answered at once, without running `answer`: so the result is a Promise only when one is run. */
export function metered(limiter: RateLimiter, key: string, answer: () => Promise<Answer>): Answer | Promise<Answer>;
export function metered(limiter: RateLimiter, key: string, answer: () => Answer | Promise<Answer>): Answer | Promise<Answer> {
  const before = limiter.peek(key);
  if (!before.allowed) return limiter.refusal(before);
  const charge = (result: Answer): Answer => {
    const after = result.status === 304 ? before : limiter.take(key);
    return { ...result, headers: { ...result.headers, ...limiter.policyHeaders, RateLimit: after.header } };
  };
  const result = answer();
  return result instanceof Promise ? result.then(charge) : charge(result);
}
