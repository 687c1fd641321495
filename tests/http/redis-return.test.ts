/**
 * Issue 38, item 1: the status tells the truth when Redis comes back. Two served replicas
 * share a `redis-server` of the test's own (tests/helpers/redis.ts, `OwnRedis`), which is
 * killed and restarted on the same port, or frozen with `DEBUG SLEEP`. Nothing but the
 * status page is asked while Redis is away or frozen, so no metered request meets Redis:
 * the replicas learn of it from their own heartbeat (src/http/redis-counters.ts). Within
 * 5 s of Redis answering again both say `ok`, and they share one quota again: 60 admitted
 * across both at a quota of 60, the 61st refused.
 *
 * @alone: it holds a wall-clock promise (ok within 5 s of Redis answering again), which a
 * loaded machine breaks (scripts/test.ts).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { OwnRedis, runPrefix } from '../helpers/redis.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/** The promise of item 1: every replica says `ok` within this of Redis answering again. */
const BACK_WITHIN_MS = 5000;
const QUOTA = 60;

const own = await OwnRedis.start();
after(() => own?.kill());

async function statusOf(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.base}/api/status.json`);
  return ((await response.json()) as { status: string }).status;
}

/** A liveness bound, not a speed target: a status that never turns fails the test instead of hanging it. */
const GIVE_UP_MS = 30_000;

/** Polls the status pages until every one says `state`; resolves with the time it did (performance.now()). */
async function until(servers: RunningServer[], state: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    const states = await Promise.all(servers.map(statusOf));
    if (states.every((s) => s === state)) return performance.now();
    assert.ok(performance.now() - start < GIVE_UP_MS, `the replicas say ${states.join(', ')}, not ${state}, ${GIVE_UP_MS} ms on`);
    await delay(50);
  }
}

async function twoReplicas(url: string): Promise<RunningServer[]> {
  const env = { REDIS_URL: url, REDIS_KEY_PREFIX: runPrefix(), REPLICAS: '2', RATE_LIMIT_REQUESTS: String(QUOTA), TRUSTED_PROXIES: '127.0.0.1' };
  return Promise.all([startServer(env), startServer(env)]);
}

/** QUOTA + 1 requests of one new client, alternating between the replicas: their statuses. */
async function spendAcross(servers: RunningServer[], client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= QUOTA; i++) {
    const response = await fetch(`${servers[i % 2]!.base}/api/movies.json?limit=1`, { headers: { 'X-Forwarded-For': client } });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

const oneQuota = [...Array<number>(QUOTA).fill(200), 429];

test(
  'Redis killed, then restarted on the same port: with only the status page asked, both replicas say degraded, then ok within 5 s, and share one quota again',
  { skip: !own },
  async () => {
    const servers = await twoReplicas(own!.url);
    try {
      let at = performance.now();
      const mark = (what: string) => (console.log(`# ${what}: ${Math.round(performance.now() - at)} ms`), (at = performance.now()));
      await until(servers, 'ok');
      mark('ok');
      await own!.kill();
      await until(servers, 'degraded');
      mark('degraded');
      // Long enough for ioredis's reconnection attempts to back off as far as they go.
      await delay(2000);
      assert.deepEqual(await Promise.all(servers.map(statusOf)), ['degraded', 'degraded'], 'still degraded while Redis is away');
      await own!.restart();
      const answeredAt = performance.now();
      const took = (await until(servers, 'ok')) - answeredAt;
      mark('ok again');
      assert.ok(took < BACK_WITHIN_MS, `both say ok ${Math.round(took)} ms after Redis answers again`);
      assert.deepEqual(await spendAcross(servers, '198.51.100.60'), oneQuota, 'one quota across both replicas again');
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  },
);

test(
  'Redis frozen by DEBUG SLEEP, then answering: with only the status page asked, both replicas say degraded, then ok within 5 s, and share one quota again',
  { skip: !own },
  async () => {
    const servers = await twoReplicas(own!.url);
    const freezer = new Redis(own!.url);
    try {
      await until(servers, 'ok');
      let answeredAt = 0;
      const frozen = freezer.call('DEBUG', 'SLEEP', '4').then(() => (answeredAt = performance.now()));
      await until(servers, 'degraded');
      await frozen;
      const took = (await until(servers, 'ok')) - answeredAt;
      assert.ok(took < BACK_WITHIN_MS, `both say ok ${Math.round(took)} ms after Redis answers again`);
      assert.deepEqual(await spendAcross(servers, '198.51.100.61'), oneQuota, 'one quota across both replicas again');
    } finally {
      freezer.disconnect();
      await Promise.all(servers.map((s) => s.stop()));
    }
  },
);
