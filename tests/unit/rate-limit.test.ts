import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseItem } from 'structured-headers';
import fc from '../helpers/fc.ts';
import { clientAddress, trustedProxiesFromEnv } from '../../src/http/client.ts';
import { lifecycleHeaders } from '../../src/http/lifecycle.ts';
import { MemoryCounterStore, RateLimiter } from '../../src/http/rate-limit.ts';

test('a window admits exactly its limit; the quota comes back once the oldest slot has left the window', () => {
  let now = 1_000_000;
  const limiter = new RateLimiter({ store: new MemoryCounterStore(10), limit: 3, windowSeconds: 60, policy: 'p', now: () => now });
  const seen = [1, 2, 3, 4].map(() => limiter.take('a'));
  assert.deepEqual(seen.map((q) => q.allowed), [true, true, true, false]);
  assert.deepEqual(seen.map((q) => q.remaining), [2, 1, 0, 0]);
  assert.match(seen[3]!.header, /^"p";r=0;t=65$/);
  assert.ok(limiter.take('b').allowed, 'clients are counted apart');
  now += 59_999;
  assert.equal(limiter.take('a').allowed, false, 'a fixed window would have reset here');
  now += 5_001;
  assert.ok(limiter.take('a').allowed);
});

test('property: no client is allowed more than its quota in any 60-second span', () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 300_000 }), { maxLength: 400 }), fc.integer({ min: 1, max: 20 }), (offsets, limit) => {
      const times = offsets.sort((a, b) => a - b);
      let now = 0;
      const limiter = new RateLimiter({ store: new MemoryCounterStore(10), limit, windowSeconds: 60, policy: 'p', now: () => now });
      const allowed: number[] = [];
      for (const t of times) {
        now = t;
        if (limiter.take('a').allowed) allowed.push(t);
      }
      for (const t of allowed) assert.ok(allowed.filter((u) => u > t - 60_000 && u <= t).length <= limit, `more than ${limit} in the 60 s before ${t}`);
    }),
  );
});

test('reset is within the window and one slot, whatever the clock says', () => {
  fc.assert(
    fc.property(fc.nat({ max: 2 ** 40 }), (now) => {
      const q = new RateLimiter({ store: new MemoryCounterStore(1), limit: 1, windowSeconds: 60, policy: 'p', now: () => now }).take('x');
      assert.ok(q.reset >= 1 && q.reset <= 65);
    }),
  );
});

test('the in-process store forgets the oldest clients past its bound, and slots older than asked', () => {
  const store = new MemoryCounterStore(2);
  store.increment('a', 0, 0, 1);
  store.increment('b', 0, 0, 1);
  store.increment('c', 0, 0, 1);
  assert.deepEqual(store.increment('a', 0, 0, 1), [{ start: 0, count: 1 }]);
  assert.deepEqual(store.increment('a', 5000, 0, 2), [{ start: 0, count: 1 }, { start: 5000, count: 2 }]);
  assert.deepEqual(store.increment('a', 70_000, 5000, 1), [{ start: 5000, count: 2 }, { start: 70_000, count: 1 }]);
});

test('X-Forwarded-For is believed only from trusted proxies, right-most untrusted hop first', () => {
  const trusted = trustedProxiesFromEnv('10.0.0.1, 10.0.0.2');
  assert.equal(clientAddress('203.0.113.9', '198.51.100.1', trusted), '203.0.113.9');
  assert.equal(clientAddress('10.0.0.1', 'spoofed, 198.51.100.1', trusted), '198.51.100.1');
  assert.equal(clientAddress('10.0.0.1', '198.51.100.1, 10.0.0.2', trusted), '198.51.100.1');
  assert.equal(clientAddress('10.0.0.1', null, trusted), '10.0.0.1');
});

test('a scheduled retirement sends Deprecation, Sunset and a deprecation link; nothing otherwise', () => {
  const schedule = [{ path: '/api/tweets.json', deprecatedAt: new Date('2027-01-01T00:00:00Z'), sunsetAt: new Date('2027-07-01T00:00:00Z'), info: '/docs/tweets-retired' }];
  const signalled = lifecycleHeaders('/api/tweets.json', schedule);
  assert.equal(signalled.headers.Deprecation, '@1798761600');
  assert.equal((parseItem(signalled.headers.Deprecation)[0] as Date).toISOString(), '2027-01-01T00:00:00.000Z', 'an RFC 9651 date');
  assert.equal(signalled.headers.Sunset, 'Thu, 01 Jul 2027 00:00:00 GMT');
  assert.equal(signalled.link, '</docs/tweets-retired>; rel="deprecation"; type="text/html"');
  assert.deepEqual(lifecycleHeaders('/api/movies.json', schedule), { headers: {} });
  assert.deepEqual(lifecycleHeaders('/api/tweets.json'), { headers: {} });
});
