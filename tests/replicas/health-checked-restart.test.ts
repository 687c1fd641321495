/**
 * Issue 38, item 3: a rolling restart behind a balancer that health-checks
 * `/api/status.json` every second, sends requests round robin over kept-alive
 * connections and retries nothing (tests/replicas/balancer.ts with `health`). A stopping
 * replica must keep serving until the balancer has seen it draining and stopped sending,
 * and only then stop listening and close what is idle (src/runtime/drain.ts, step 2):
 * closing an idle kept-alive connection while a request is on its way to it is a reset
 * the client sees. Three restarts of both replicas under load, and not one failed request.
 * Needs `npm run build`.
 *
 * @alone: the balancer health-checks every second and the test fails on one failed request;
 * a loaded machine delays the checks past the drain's hand-off (scripts/test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { startReplica, type Replica } from '../../bench/replica-harness.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { LINKS } from '../../src/urls.ts';
import { startBalancer, type Balancer } from './balancer.ts';

const TARGETS = ['/api/movies.json?limit=5', '/api/places.json?sort=name&limit=20', '/movies/', '/api/books.json?q=the', '/api/movies.json?year=1999'];
const ROUNDS = 3;
const WORKERS = 6;
/** One test client is the whole load: this test is about restarts, not quotas. The hand-off is the default one (the harness turns it off). */
const LIFTED = { RATE_LIMIT_REQUESTS: '1000000', RPC_SESSION_LIMIT: '1000000', DRAIN_DELAY_MS: String(LIMITS.drainDelayMs) };

async function untilInRotation(balancer: Balancer, address: string): Promise<void> {
  while (!balancer.healthy.has(address)) await delay(20);
}

test('a rolling restart behind a balancer that health-checks every second and retries nothing fails no request, three times over', async () => {
  const replicas: Replica[] = [await startReplica(LIFTED), await startReplica(LIFTED)];
  const balancer = await startBalancer(
    replicas.map((r) => r.address),
    { path: LINKS.status, everyMs: 1000 },
  );
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  const worker = async (n: number) => {
    while (running) {
      const target = TARGETS[(sent + n) % TARGETS.length]!;
      sent += 1;
      try {
        const response = await fetch(balancer.base + target);
        const body = await response.text();
        if (response.status >= 400) failures.push(`${Math.round(performance.now())} ${target}: ${response.status} ${body.slice(0, 80)}`);
      } catch (error) {
        failures.push(`${target}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
      }
    }
  };
  try {
    for (const replica of replicas) await untilInRotation(balancer, replica.address);
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    const exits: (number | null)[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const index of [0, 1]) {
        const sentBefore = sent;
        while (sent < sentBefore + 100) await delay(5);
        exits.push(await replicas[index]!.stop());
        const fresh = await startReplica(LIFTED);
        replicas[index] = fresh;
        balancer.upstreams[index] = fresh.address;
        await untilInRotation(balancer, fresh.address);
      }
    }
    const sentAfter = sent;
    while (sent < sentAfter + 100) await delay(5);
    running = false;
    await load;
    assert.deepEqual(exits, Array(ROUNDS * 2).fill(0), 'each stopped replica exits 0');
    assert.deepEqual(failures, [], `no failed request of ${sent}`);
    console.log(`# ${sent} requests over ${ROUNDS} rolling restarts, ${failures.length} failed`);
  } finally {
    running = false;
    await balancer.close();
    await Promise.all(replicas.map((r) => r.stop()));
  }
});
