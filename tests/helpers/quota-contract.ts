/**
 * The quota contract every counter store keeps (src/http/rate-limit.ts): run by the
 * in-process store's tests and, against a real Redis, by the shared store's. Each case
 * drives a RateLimiter with a fake clock over a sequence of requests that fast-check
 * draws, and checks what a client relies on:
 * - no more than the quota in any window-long span;
 * - quiet for one whole window, the whole quota is back;
 * - waiting the RateLimit field's `t` (or `Retry-After`, the whole window) is enough to be admitted;
 * - one spend counts and decides: concurrent requests cannot all pass;
 * - a 304 is free.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from '../../src/http/answer.ts';
import { metered, RateLimiter, type CounterStore } from '../../src/http/rate-limit.ts';
import fc from './fc.ts';

export interface ContractStore {
  /** A store with no counts, for one case (a fresh key space). */
  fresh(): CounterStore | Promise<CounterStore>;
  /** Runs per case: fewer for a store behind a network. */
  numRuns?: number;
}

interface Step {
  /** Milliseconds since the previous request, or how the client waits: as `t` told it, or `Retry-After`. */
  gap: number | 'as-told' | 'retry-after';
  amount: number;
}

const step = (limit: number) =>
  fc.record({
    gap: fc.oneof(fc.nat({ max: 7_000 }), fc.nat({ max: 70_000 }), fc.constant('as-told' as const), fc.constant('retry-after' as const)),
    amount: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: limit })),
  });

export function quotaContract(name: string, stores: ContractStore): void {
  const numRuns = stores.numRuns ?? 100;

  test(`${name}: over any requests, never more than the quota in a window; quiet for a window, the whole quota; waiting t or Retry-After admits`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(60, 3600),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.array(step(12), { minLength: 1, maxLength: 60 }),
        async (limit, windowSeconds, start, steps) => {
          const windowMs = windowSeconds * 1000;
          let now = start;
          const limiter = new RateLimiter({ store: await stores.fresh(), limit, windowSeconds, policy: 'p', now: () => now });
          const admitted: { at: number; amount: number }[] = [];
          let previous: { allowed: boolean; reset: number; amount: number } | undefined;
          for (const { gap, amount: drawn } of steps as Step[]) {
            const amount = Math.min(drawn, limit);
            const told = gap === 'as-told' && previous !== undefined;
            now += gap === 'as-told' ? (previous ? previous.reset * 1000 : 0) : gap === 'retry-after' ? windowMs : gap;
            // Waiting as told after a refusal retries the refused request; after an admission, one more unit.
            const asked = told ? (previous!.allowed ? 1 : previous!.amount) : amount;
            const quiet = admitted.every((a) => a.at <= now - windowMs);
            const quota = await limiter.take('client', asked);
            assert.ok(quota.reset >= 1 && quota.reset <= windowSeconds, `t=${quota.reset} lies within the window`);
            if (told) assert.ok(quota.allowed, `waiting t=${previous!.reset} s admits ${asked}`);
            if (gap === 'retry-after' || quiet) {
              assert.ok(quota.allowed, 'Retry-After (the whole window) admits any request within the quota');
              assert.equal(quota.remaining, limit - asked, 'quiet for a whole window, the whole quota is back');
            }
            if (quota.allowed) admitted.push({ at: now, amount: asked });
            const spent = admitted.filter((a) => a.at > now - windowMs).reduce((sum, a) => sum + a.amount, 0);
            assert.ok(spent <= limit, `${spent} units in the window ending at ${now}, quota ${limit}`);
            assert.ok(quota.remaining <= limit - spent, `r=${quota.remaining} never promises more than is free`);
            previous = { allowed: quota.allowed, reset: quota.reset, amount: asked };
          }
        },
      ),
      { numRuns },
    );
  });

  test(`${name}: a client quiet for a whole minute after a burst late in a slot is admitted at once`, async () => {
    let now = 4_999;
    const limiter = new RateLimiter({ store: await stores.fresh(), limit: 3, windowSeconds: 60, policy: 'p', now: () => now });
    const burst = [];
    for (let i = 0; i < 4; i++) burst.push(await limiter.take('a'));
    assert.deepEqual(
      burst.map((q) => q.allowed),
      [true, true, true, false],
    );
    assert.deepEqual(
      burst.map((q) => q.remaining),
      [2, 1, 0, 0],
    );
    assert.equal(burst[3]!.header, '"p";r=0;t=60');
    assert.ok((await limiter.take('b')).allowed, 'clients are counted apart');
    now += 59_999;
    assert.equal((await limiter.take('a')).allowed, false, 'the burst is still within the window');
    now += 1;
    const back = await limiter.take('a');
    assert.ok(back.allowed, 'quiet for 60 s: admitted');
    assert.equal(back.remaining, 2, 'and the whole quota is back');
  });

  test(`${name}: a refused request spends nothing; a charge counts past the quota`, async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ store: await stores.fresh(), limit: 2, windowSeconds: 60, policy: 'p', now: () => now });
    await limiter.take('a');
    await limiter.take('a');
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      assert.equal((await limiter.take('a')).allowed, false);
    }
    now = 1_060_000;
    assert.ok((await limiter.take('a')).allowed, 'the refusals did not push the window');
    await limiter.charge('b', 5);
    assert.equal((await limiter.take('b')).allowed, false, 'charged past its quota');
  });

  test(`${name}: one spend counts and decides, so concurrent requests cannot all pass; a 304 is free`, async () => {
    const now = 7_000;
    const limiter = new RateLimiter({ store: await stores.fresh(), limit: 5, windowSeconds: 60, policy: 'p', now: () => now });
    const ok = async (): Promise<Answer> => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: null };
    };
    const answers = await Promise.all(Array.from({ length: 12 }, () => metered(limiter, 'c', ok)));
    assert.equal(answers.filter((a) => a.status === 200).length, 5);
    assert.equal(answers.filter((a) => a.status === 429).length, 7);
    const notModified = (): Answer => ({ status: 304, headers: {}, body: null });
    const free = await metered(limiter, 'd', notModified);
    assert.equal(free.status, 304);
    for (let i = 0; i < 5; i++) assert.equal((await metered(limiter, 'd', notModified)).status, 304);
    const quota = await limiter.take('d');
    assert.equal(quota.remaining, 4, 'six 304s spent nothing');
  });
}
