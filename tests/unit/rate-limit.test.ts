import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseItem } from 'structured-headers';
import fc from '../helpers/fc.ts';
import { clientAddress, trustedProxiesFromEnv } from '../../src/http/client.ts';
import { lifecycleHeaders } from '../../src/http/lifecycle.ts';
import { MemoryCounterStore, RateLimiter } from '../../src/http/rate-limit.ts';

test('a window admits exactly its limit, then resets', () => {
  let now = 1_000_000;
  const limiter = new RateLimiter({ store: new MemoryCounterStore(10), limit: 3, windowSeconds: 60, policy: 'p', now: () => now });
  const seen = [1, 2, 3, 4].map(() => limiter.take('a'));
  assert.deepEqual(seen.map((q) => q.allowed), [true, true, true, false]);
  assert.deepEqual(seen.map((q) => q.remaining), [2, 1, 0, 0]);
  assert.match(seen[3]!.header, /^"p";r=0;t=\d+$/);
  assert.ok(limiter.take('b').allowed, 'clients are counted apart');
  now += 60_000;
  assert.ok(limiter.take('a').allowed);
});

test('reset is within the window, whatever the clock says', () => {
  fc.assert(
    fc.property(fc.nat({ max: 2 ** 40 }), (now) => {
      const q = new RateLimiter({ store: new MemoryCounterStore(1), limit: 1, windowSeconds: 60, policy: 'p', now: () => now }).take('x');
      assert.ok(q.reset >= 1 && q.reset <= 60);
    }),
  );
});

test('the in-process store forgets the oldest clients past its bound', () => {
  const store = new MemoryCounterStore(2);
  store.increment('a', 0, 1);
  store.increment('b', 0, 1);
  store.increment('c', 0, 1);
  assert.equal(store.increment('a', 0, 1), 1);
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
