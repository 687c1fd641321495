import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseItem } from 'structured-headers';
import { quotaContract } from '../helpers/quota-contract.ts';
import { clientAddress } from '../../src/http/client.ts';
import { readConfig } from '../../src/config.ts';
import { lifecycleHeaders } from '../../src/http/lifecycle.ts';
import { MemoryCounterStore, metered, RateLimiter } from '../../src/http/rate-limit.ts';

quotaContract('in-process store', { fresh: () => new MemoryCounterStore(10) });

test('the in-process store answers synchronously: no Promise on the warm path', () => {
  const limiter = new RateLimiter({ limit: 2, windowSeconds: 60, policy: 'p', now: () => 0 });
  assert.ok(!(limiter.take('a') instanceof Promise));
  const answer = metered(limiter, 'a', () => ({ status: 200, headers: {}, body: null }));
  assert.ok(!(answer instanceof Promise));
});

test('the in-process store forgets the oldest clients past its bound, and slots whose last unit left the window', () => {
  const store = new MemoryCounterStore(2);
  const spend = { amount: 1, limit: 10, windowMs: 60_000 };
  store.spend('a', spend, 0);
  store.spend('b', spend, 0);
  store.spend('c', spend, 0);
  assert.equal(store.spend('a', spend, 0).remaining, 9, 'a was forgotten');
  assert.equal(store.spend('a', { ...spend, amount: 2 }, 5_000).remaining, 7);
  assert.equal(store.spend('a', spend, 60_000).remaining, 7, 'the units of 0 ms left; those of 5 s are still counted');
  assert.equal(store.spend('a', spend, 65_000).remaining, 8);
});

test('X-Forwarded-For is believed only from trusted proxies, right-most untrusted hop first', () => {
  const trusted = new Set(readConfig({ TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2' }).TRUSTED_PROXIES);
  assert.equal(clientAddress('203.0.113.9', '198.51.100.1', trusted), '203.0.113.9');
  assert.equal(clientAddress('10.0.0.1', 'spoofed, 198.51.100.1', trusted), '198.51.100.1');
  assert.equal(clientAddress('10.0.0.1', '198.51.100.1, 10.0.0.2', trusted), '198.51.100.1');
  assert.equal(clientAddress('10.0.0.1', null, trusted), '10.0.0.1');
});

test('a scheduled retirement sends Deprecation, Sunset and a deprecation link; nothing otherwise', () => {
  const schedule = [
    { path: '/api/tweets.json', deprecatedAt: new Date('2027-01-01T00:00:00Z'), sunsetAt: new Date('2027-07-01T00:00:00Z'), info: '/docs/tweets-retired' },
  ];
  const signalled = lifecycleHeaders('/api/tweets.json', schedule);
  assert.equal(signalled.headers.Deprecation, '@1798761600');
  assert.equal((parseItem(signalled.headers.Deprecation)[0] as Date).toISOString(), '2027-01-01T00:00:00.000Z', 'an RFC 9651 date');
  assert.equal(signalled.headers.Sunset, 'Thu, 01 Jul 2027 00:00:00 GMT');
  assert.equal(signalled.link, '</docs/tweets-retired>; rel="deprecation"; type="text/html"');
  assert.deepEqual(lifecycleHeaders('/api/movies.json', schedule), { headers: {} });
  assert.deepEqual(lifecycleHeaders('/api/tweets.json'), { headers: {} });
});
