/**
 * Issue 29, items 1 and 2: quotas shared in Redis, and failing open when Redis is away.
 * The quota contract (tests/helpers/quota-contract.ts) runs here against the Redis store,
 * as it runs against the in-process one; then the fail-open path, with a TCP proxy we cut
 * and restore under load; then two replicas (two built servers) sharing one quota.
 * Skipped with a plain message when no Redis answers at REDIS_URL, failed under
 * REQUIRE_REDIS=1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { RateLimiter, type CounterStore } from '../../src/http/rate-limit.ts';
import { quotaConnection, RedisCounterStore, SharedQuotas } from '../../src/http/redis-counters.ts';
import { quotaContract } from '../helpers/quota-contract.ts';
import { REDIS_URL, RedisProxy, redisMissing, runPrefix } from '../helpers/redis.ts';
import { startServer } from '../helpers/server.ts';

const missing = await redisMissing();

describe('shared quotas in Redis', { skip: missing }, () => {
  let redis: Redis;
  const prefix = runPrefix();
  let stores = 0;
  before(() => {
    redis = quotaConnection(REDIS_URL);
  });
  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  // The same contract as the in-process store, on the limiter's fake clock (sent to the script).
  quotaContract('Redis store', {
    fresh: () => new RedisCounterStore(redis, `${prefix}contract:${stores++}:`, { clock: 'caller', timeoutMs: () => 5000 }),
    numRuns: 25,
  });

  test('on Redis’s own clock: one round trip counts, keys expire within a window of their last use, and no key grows with the client', async () => {
    const store = new RedisCounterStore(redis, `${prefix}clock:`, { timeoutMs: () => 5000 });
    const limiter = new RateLimiter({ store, limit: 3, windowSeconds: 60, policy: 'p', now: () => 0 });
    const taken = [await limiter.take('a'), await limiter.take('a'), await limiter.take('a'), await limiter.take('a')];
    assert.deepEqual(
      taken.map((q) => q.allowed),
      [true, true, true, false],
      'the limiter’s (wrong) clock moves nothing',
    );
    assert.equal(taken[3]!.reset, 60);
    const ttl = await redis.pttl(`${prefix}clock:a`);
    assert.ok(ttl > 0 && ttl <= 60_000, `expires within the window (${ttl} ms)`);
    const long = `198.51.100.1, ${'x'.repeat(5000)}`;
    for (let i = 0; i < 200; i++) await limiter.take(long);
    const keys = await redis.keys(`${prefix}clock:*`);
    assert.equal(keys.length, 2);
    for (const key of keys) {
      assert.ok(key.length <= prefix.length + 'clock:'.length + 64, `key ${key.slice(0, 80)}… is bounded`);
      assert.ok(((await redis.get(key)) ?? '').length <= 13 * 45, 'a counter holds at most 13 slots');
    }
  });

  test('two replicas sharing Redis enforce one quota per client', async () => {
    const replicas = [new SharedQuotas({ url: REDIS_URL, prefix }), new SharedQuotas({ url: REDIS_URL, prefix })];
    const limiters = replicas.map((q) => new RateLimiter({ store: q.store('shared'), limit: 10, windowSeconds: 60, policy: 'p' }));
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2]!.take('198.51.100.2')));
      assert.equal(answers.filter((q) => q.allowed).length, 10);
      for (const q of replicas) assert.deepEqual(q.health(), { store: 'redis', state: 'ok' });
    } finally {
      for (const q of replicas) q.close();
    }
  });

  for (const how of ['refuse', 'hold'] as const) {
    test(`Redis ${how === 'refuse' ? 'down' : 'slow'} under load: requests fail open at the quota divided by REPLICAS, logged once, degraded; back on Redis when it answers`, async () => {
      const proxy = await RedisProxy.start();
      const logged: string[] = [];
      const quotas = new SharedQuotas({ url: proxy.url, prefix: `${prefix}${how}:`, replicas: 2, probeIntervalMs: 20, log: (line) => logged.push(line) });
      const store: CounterStore = quotas.store('rest');
      const limiter = new RateLimiter({ store, limit: 10, windowSeconds: 60, policy: 'p' });
      after(async () => {
        quotas.close();
        await proxy.stop();
      });
      assert.ok((await limiter.take('warm')).allowed);
      proxy.cut(how);
      // Under load: 40 clients at once, then one client past its divided quota.
      const load = await Promise.all(Array.from({ length: 40 }, (_, i) => limiter.take(`192.0.2.${i}`)));
      assert.ok(
        load.every((q) => q.allowed),
        'no one is refused because Redis is away',
      );
      const alone = [];
      for (let i = 0; i < 7; i++) alone.push(await limiter.take('198.51.100.3'));
      assert.deepEqual(
        alone.map((q) => q.allowed),
        [true, true, true, true, true, false, false],
        'each replica allows 10 / 2',
      );
      const health = quotas.health();
      assert.equal(health.state, 'degraded');
      assert.match(health.reason!, /Redis/);
      assert.equal(logged.length, 1, 'the switch is logged once');
      proxy.restore();
      // Back by itself: keep asking (as traffic would) until a request counts in Redis again.
      while (quotas.health().state !== 'ok') {
        await limiter.take('192.0.2.200');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok((await limiter.take('198.51.100.4')).allowed);
      assert.ok((await redis.exists(`${prefix}${how}:rest:198.51.100.4`)) === 1, 'counted in Redis again');
      assert.equal(logged.length, 2);
    });
  }

  test('two served replicas with REDIS_URL: the quota is one across them, and /api/status.json says where it counts', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `${prefix}served:`, RATE_LIMIT_REQUESTS: '6', TRUSTED_PROXIES: '127.0.0.1' };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) {
        const response = await fetch(`${servers[i % 2]!.base}/api/movies.json?limit=1`, { headers: { 'X-Forwarded-For': '198.51.100.5' } });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
      const status = (await (await fetch(`${servers[0]!.base}/api/status.json`)).json()) as { status: string; quotas: { store: string; state: string } };
      assert.equal(status.status, 'ok');
      assert.deepEqual(status.quotas, { store: 'redis', state: 'ok' });
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });

  test('a served replica whose Redis is away answers, fails open, and says degraded', async () => {
    const proxy = await RedisProxy.start();
    const server = await startServer({
      REDIS_URL: proxy.url,
      REDIS_KEY_PREFIX: `${prefix}away:`,
      REPLICAS: '2',
      RATE_LIMIT_REQUESTS: '6',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    try {
      assert.equal((await fetch(`${server.base}/api/movies.json?limit=1`)).status, 200);
      proxy.cut('refuse');
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${server.base}/api/movies.json?limit=1`, { headers: { 'X-Forwarded-For': '198.51.100.6' } });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429], 'never a 5xx; the quota divided by REPLICAS');
      const status = (await (await fetch(`${server.base}/api/status.json`)).json()) as { status: string; reason: string; quotas: { state: string } };
      assert.equal(status.status, 'degraded');
      assert.match(status.reason, /quotas: Redis did not answer/);
    } finally {
      await server.stop();
      await proxy.stop();
    }
  });
});
