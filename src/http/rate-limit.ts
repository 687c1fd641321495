/**
 * Request quotas per client key (1000 requests per 60 s on the collection surface) over a
 * sliding window, and the IETF RateLimit fields that report them. Units are counted in
 * slots of a twelfth of the window, each slot remembering when its last unit was counted;
 * a slot counts until that last unit has left the window. So:
 * - no client gets more than its quota in any window-long span: every admitted unit of
 *   the last window lies in a slot still counted (the in-process store's only tolerance
 *   is forgetting clients past its memory bound; README "Quotas");
 * - a client quiet for one whole window has no slot left: its whole quota is back;
 * - a unit is held at most one slot longer than its window, and `t` (the seconds until
 *   more quota is made available, draft-ietf-httpapi-ratelimit-headers-10) and
 *   `Retry-After` are computed from the same slots, so a client that waits that long is
 *   admitted.
 * A refused request counts nothing. Spending is one store call that counts and decides
 * (`CounterStore.spend`): the same shape as the Redis script (src/http/redis-counters.ts),
 * so concurrent requests cannot all pass a check made before they count. The in-process
 * store answers synchronously and the limiter keeps it so: no Promise on that path.
 */
import { LIMITS } from '../core/limits.ts';
import type { Answer } from './answer.ts';
import { problemAnswer } from './problem.ts';
import { BoundedCache, type CacheBudget } from '../core/memo.ts';

/** Slots per window: a unit is held at most a twelfth of the window (5 s of 60) longer than the window. */
export const SLOTS_PER_WINDOW = 12;

/** What one spend asks of a store. */
export interface Spend {
  /** Units to count (requests, GraphQL cost points, MCP tool work). */
  amount: number;
  /** The quota in force for this key, per window. */
  limit: number;
  windowMs: number;
  /** Count the units even past the quota: a charge for work already done (an SQL overrun). */
  force?: boolean;
}

/** A store's decision on one spend. */
export interface Counted {
  allowed: boolean;
  /** Units still free in the window after this spend. */
  remaining: number;
  /**
   * Milliseconds until more quota is made available: until the oldest counted units leave
   * the window; on a refusal, until the refused amount fits.
   */
  waitMs: number;
  /** The slot the units were counted in, which a refund names. */
  slot: number;
  /** Set by a store that may count in more than one place, so a refund finds the place. */
  local?: boolean;
}

export interface CounterStore {
  /** Counts `spend.amount` units for `key` if they fit (or if forced), in one step: the decision and the count cannot be split. */
  spend(key: string, spend: Spend, now: number): Counted | Promise<Counted>;
  /** Gives back `amount` units a spend counted (a 304 is free); nothing if their slot has already left the window. */
  refund(key: string, counted: Counted, amount: number): void;
}

/** Units of one slot: counted from `start`, the last at `last` (ms). */
export interface Slot {
  start: number;
  count: number;
  last: number;
}

/** One client's slots, oldest first, and their total. */
export interface Counter {
  slots: Slot[];
  used: number;
}

/**
 * The window rule, on one client's counter (the Redis script does the same in Lua): drop
 * the slots whose last unit left the window, then count `amount` if it fits.
 */
export function spendIn(counter: Counter, spend: Spend, now: number): Counted {
  const { slots } = counter;
  const { amount, limit, windowMs } = spend;
  let gone = 0;
  while (gone < slots.length && slots[gone]!.last <= now - windowMs) counter.used -= slots[gone++]!.count;
  if (gone > 0) slots.splice(0, gone);
  const allowed = spend.force === true || counter.used + amount <= limit;
  const slotMs = Math.floor(windowMs / SLOTS_PER_WINDOW);
  const start = now - (now % slotMs);
  if (allowed && amount > 0) {
    const newest = slots.at(-1);
    if (newest?.start === start) {
      newest.count += amount;
      newest.last = now;
    } else slots.push({ start, count: amount, last: now });
    counter.used += amount;
  }
  return {
    allowed,
    remaining: Math.max(0, limit - counter.used),
    waitMs: waitMs(counter, allowed ? 0 : counter.used + amount - limit, windowMs, now),
    slot: start,
  };
}

/** Milliseconds until `need` units have left the window (at least the oldest slot's). */
function waitMs({ slots }: Counter, need: number, windowMs: number, now: number): number {
  let freed = 0;
  for (const slot of slots) {
    freed += slot.count;
    if (freed >= need) return slot.last + windowMs - now;
  }
  // More than the whole quota was asked: nothing sooner than everything leaving is true.
  return slots.length === 0 ? 0 : slots.at(-1)!.last + windowMs - now;
}

/** Takes `amount` units back out of the slot starting at `slot`, if it is still counted. */
export function refundIn(counter: Counter, slot: number, amount: number): void {
  const index = counter.slots.findIndex((s) => s.start === slot);
  if (index < 0) return;
  const held = counter.slots[index]!;
  const back = Math.min(amount, held.count);
  held.count -= back;
  counter.used -= back;
  if (held.count === 0) counter.slots.splice(index, 1);
}

/**
 * One process's counters, at most `maxKeys` clients and `budgetBytes` of memory (each key
 * and its slots charged as every cache entry is, src/core/memo.ts). Past either bound the
 * least recently counted clients are forgotten first.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counts: BoundedCache<Counter>;

  constructor(maxKeys: number, budgetBytes: number = LIMITS.rateLimitCounterBytes) {
    const budget: CacheBudget<Counter> = { bytes: budgetBytes, entries: maxKeys, valueBytes: (counter) => 64 + 48 * counter.slots.length };
    this.counts = new BoundedCache(budget);
  }

  spend(key: string, spend: Spend, now: number): Counted {
    const held = this.counts.get(key);
    const counter = held ?? { slots: [], used: 0 };
    const slots = counter.slots.length;
    const counted = spendIn(counter, spend, now);
    // Re-set only when the entry changed size (a slot came or went), so it is charged what it holds;
    // `get` has already made it the most recent.
    if (held === undefined ? counter.slots.length > 0 : counter.slots.length !== slots) this.counts.set(key, counter);
    return counted;
  }

  refund(key: string, counted: Counted, amount: number): void {
    const counter = this.counts.get(key);
    if (counter) refundIn(counter, counted.slot, amount);
  }

  /** Bytes accounted to the counters held now. */
  get bytes(): number {
    return this.counts.bytes;
  }
}

export interface Quota extends Counted {
  /** Units this take asked for. */
  amount: number;
  /** Seconds until more quota is made available (the `t` of the RateLimit field); when refused, until this take would fit. */
  reset: number;
  /** The `RateLimit` field value. */
  header: string;
}

/** `then` for a value that is a Promise only when a shared store answered: the in-process path stays synchronous. */
export function settle<T, U>(value: T | Promise<T>, then: (value: T) => U): U | Promise<Awaited<U>> {
  return value instanceof Promise ? (value.then(then) as Promise<Awaited<U>>) : then(value);
}

/**
 * Whether a shared cache may store this answer (RFC 9111 §3): not when it says `no-store`,
 * nor `private`. Such answers must not carry one client's count, or the cache would hand it
 * to the next client (a 304 counts too: §4.3.4 copies its fields into the stored answer).
 */
export function sharedCacheMayStore(headers: Readonly<Record<string, string>>): boolean {
  const cacheControl = headers['Cache-Control'] ?? headers['cache-control'];
  if (cacheControl === undefined) return true;
  return !/(?:^|[\s,])(?:no-store|private)(?:$|[\s,=])/i.test(cacheControl);
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
    this.policyHeaders = Object.freeze({
      'RateLimit-Policy': `"${this.policy}";q=${this.limit};w=${this.windowMs / 1000}`,
      'RateLimit-Limit': String(this.limit),
    });
  }

  /** Spends `amount` units (requests, or GraphQL cost points) of the key's quota, if they fit; a refusal spends nothing. */
  take(key: string, amount = 1): Quota | Promise<Quota> {
    const counted = this.store.spend(key, { amount, limit: this.limit, windowMs: this.windowMs }, this.now());
    // No closure on the in-process path: every request of every metered surface passes here.
    return counted instanceof Promise ? counted.then((settled) => this.quota(settled, amount)) : this.quota(counted, amount);
  }

  /** Charges `amount` units whether or not they fit: for work already done (a Promise only with a shared store; nothing waits for it). */
  charge(key: string, amount: number): void | Promise<void> {
    const spent = this.store.spend(key, { amount, limit: this.limit, windowMs: this.windowMs, force: true }, this.now());
    // A charge has no one to answer: a shared store's failure is dropped (it has fallen back already).
    if (spent instanceof Promise)
      return spent.then(
        () => undefined,
        () => undefined,
      );
  }

  /** Gives back what `quota` spent (a 304 costs nothing). */
  refund(key: string, quota: Quota): void {
    if (quota.allowed) this.store.refund(key, quota, quota.amount);
  }

  private quota(counted: Counted, amount: number): Quota {
    const reset = Math.max(1, Math.ceil(counted.waitMs / 1000));
    const { allowed, remaining, waitMs, slot, local } = counted;
    return { allowed, remaining, waitMs, slot, local, amount, reset, header: `"${this.policy}";r=${remaining};t=${reset}` };
  }

  /** The policy as the IETF RateLimit fields advertise it: the limit in force, whatever configured it. */
  readonly policyHeaders: Readonly<Record<string, string>>;

  /**
   * The RateLimit fields an answer carries: the policy always; the client's own count only
   * where no shared cache may store the answer (SPEC §4.1 asks only the policy of a success).
   */
  fields(quota: Quota, headers: Readonly<Record<string, string>>): Record<string, string> {
    return sharedCacheMayStore(headers) ? { ...this.policyHeaders } : { ...this.policyHeaders, RateLimit: quota.header };
  }

  /**
   * The answer with its RateLimit fields (`fields`). An answer built with the policy
   * already in its headers (a remembered list) that no shared cache may store gets only
   * the client's count; one that may be stored leaves as it is, without a copy.
   */
  carry(answer: Answer, quota: Quota): Answer {
    const { headers } = answer;
    const stated =
      headers['RateLimit-Policy'] === this.policyHeaders['RateLimit-Policy'] && headers['RateLimit-Limit'] === this.policyHeaders['RateLimit-Limit'];
    if (!stated) return { ...answer, headers: { ...headers, ...this.fields(quota, headers) } };
    return sharedCacheMayStore(headers) ? answer : { ...answer, headers: { ...headers, RateLimit: quota.header } };
  }

  /**
   * The 429 problem of an exhausted quota, never stored (`no-store`, as every problem).
   * `Retry-After` is the whole window (SPEC §7: `Retry-After: 60`): by then everything
   * counted has left it, so the whole quota is back; the RateLimit field's `t` says how
   * soon this request would fit.
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
 * otherwise one unit is spent before the work — and given back if the answer is a 304,
 * since a conditional request that matches costs almost nothing and should be rewarded
 * (as GitHub's API does). The answer carries the RateLimit fields (`RateLimiter.fields`).
 * A refusal is answered at once, without running `answer`; with the in-process store
 * nothing here is a Promise unless `answer` returns one.
 */
export function metered(limiter: RateLimiter, key: string, answer: () => Answer | Promise<Answer>): Answer | Promise<Answer> {
  const quota = limiter.take(key);
  return quota instanceof Promise ? quota.then((taken) => spentOn(limiter, key, taken, answer)) : spentOn(limiter, key, quota, answer);
}

/** `metered` once the quota is taken: the refusal, or the answer with its fields (no closure when both are synchronous). */
function spentOn(limiter: RateLimiter, key: string, quota: Quota, answer: () => Answer | Promise<Answer>): Answer | Promise<Answer> {
  if (!quota.allowed) return limiter.refusal(quota);
  const result = answer();
  return result instanceof Promise ? result.then((settled) => carried(limiter, key, quota, settled)) : carried(limiter, key, quota, result);
}

/** The answer with the RateLimit fields of the quota it spent; a 304 gives its unit back. */
function carried(limiter: RateLimiter, key: string, quota: Quota, result: Answer): Answer {
  let shown = quota;
  if (result.status === 304) {
    limiter.refund(key, quota);
    shown = { ...quota, remaining: quota.remaining + 1, header: quota.header.replace(/;r=\d+/, `;r=${quota.remaining + 1}`) };
  }
  return limiter.carry(result, shown);
}
