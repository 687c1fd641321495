/**
 * A rolling restart of two replicas behind a load balancer (tests/replicas/balancer.ts)
 * under a bounded load of REST, page and SQL requests and capnweb WebSocket sessions:
 * each replica in turn gets SIGTERM, drains and exits 0, and a new one takes its place.
 * No HTTP request fails, and every WebSocket session a stopping replica held ends with
 * 1001 (going away), none with 1006 (reset). Needs `npm run build`.
 *
 * @alone: a replica's drain is timed against the load balancer's view of it; a loaded
 * machine stretches those timings (scripts/test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { newWebSocketRpcSession } from 'capnweb';
import { startReplica } from '../../bench/replica-harness.ts';
import { createStatusHandler } from '../../functions/status.ts';
import { Image } from '../../src/core/image.ts';
import { paths } from '../../src/paths.ts';
import type { Root } from '../../src/rpc/api.d.ts';
import { startBalancer } from './balancer.ts';

const TARGETS = ['/api/movies.json?limit=5', '/api/places.json?sort=name&limit=20', '/movies/', '/api/books.json?q=the', '/api/movies.json?year=1999'];
/** The load is bounded in count as well as by the restart's end. */
const REQUESTS_MAX = 20_000;
const WORKERS = 6;

interface Session {
  closed: Promise<number>;
  code: number | undefined;
  dispose(): void;
}

/**
 * Resolves once nothing listens at `address` any more: the replica has taken its SIGTERM
 * and closed its listening socket. Until then a new connection may still reach it, and a
 * session it accepts in that instant is ended with 1001 before its first call returns,
 * as the drain promises; a real client then reconnects, which is not what this test is about.
 */
async function refusing(address: string): Promise<void> {
  const at = address.lastIndexOf(':');
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(address.slice(at + 1)), address.slice(0, at));
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await delay(5);
  }
}

async function openSession(wsUrl: string): Promise<Session> {
  const socket = new WebSocket(wsUrl);
  const session: Session = { code: undefined, closed: undefined as unknown as Promise<number>, dispose: () => undefined };
  session.closed = new Promise((resolve) => socket.addEventListener('close', (event) => resolve((session.code = event.code))));
  const api = newWebSocketRpcSession<Root>(socket);
  session.dispose = () => api[Symbol.dispose]();
  const records = await api.content.movies.first(1).records();
  assert.equal(records.length, 1, 'the session answers before the restart');
  return session;
}

test('status says draining, with a 503 a health check acts on', () => {
  const image = new Image(paths.image);
  try {
    const state = { draining: false };
    const status = createStatusHandler(image, state);
    const request = { method: 'GET', header: () => null } as unknown as Parameters<typeof status>[0];
    assert.equal(status(request).status, 200);
    state.draining = true;
    const draining = status(request);
    assert.equal(draining.status, 503);
    assert.equal(JSON.parse(Buffer.from(draining.body!).toString()).status, 'draining');
  } finally {
    image.close();
  }
});

/** One test client is the whole load, and on a fast machine it passes the REST quota: this test is about restarts, not quotas. */
const LIFTED = { RATE_LIMIT_REQUESTS: '1000000', RPC_SESSION_LIMIT: '1000000' };

test('a rolling restart of two replicas under load fails no request and ends every WebSocket with 1001', async () => {
  const replicas = [await startReplica(LIFTED), await startReplica(LIFTED)];
  const balancer = await startBalancer(replicas.map((r) => r.address));
  const wsUrl = `${balancer.base.replace('http', 'ws')}/api/rpc`;
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  const worker = async (n: number) => {
    while (running && sent < REQUESTS_MAX) {
      const target = TARGETS[(sent + n) % TARGETS.length]!;
      sent += 1;
      try {
        const response = await fetch(balancer.base + target);
        const body = await response.text();
        if (response.status >= 400) failures.push(`${target}: ${response.status} ${body.slice(0, 80)}`);
      } catch (error) {
        failures.push(`${target}: ${(error as Error).message}`);
      }
    }
  };
  const sessions: Session[] = [];
  try {
    for (let i = 0; i < 4; i += 1) sessions.push(await openSession(wsUrl));
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    const exits: (number | null)[] = [];
    for (const index of [0, 1]) {
      const sentBefore = sent;
      while (sent < sentBefore + 200) await new Promise((resolve) => setImmediate(resolve));
      const old = replicas[index]!;
      // Its SQL worker threads are running when it stops (exiting while they stopped once aborted Node).
      const sql = await fetch(`${old.base}/api/sql`, {
        method: 'QUERY',
        headers: { 'Content-Type': 'application/sql' },
        body: 'SELECT title FROM public.writing LIMIT 1',
      });
      assert.equal(sql.status, 200);
      const stopping = old.stop();
      // Sessions opened while a replica drains land on the other one.
      await refusing(old.address);
      sessions.push(await openSession(wsUrl));
      exits.push(await stopping);
      const fresh = await startReplica(LIFTED);
      replicas[index] = fresh;
      balancer.upstreams[index] = fresh.address;
      sessions.push(await openSession(wsUrl));
    }
    const sentAfter = sent;
    while (sent < sentAfter + 200 && sent < REQUESTS_MAX) await new Promise((resolve) => setImmediate(resolve));
    running = false;
    await load;
    assert.deepEqual(exits, [0, 0], 'each stopped replica exits 0');
    assert.deepEqual(failures, [], `no failed request of ${sent}`);
    // The four first sessions were on the two replicas that stopped, so all were ended by the server.
    const first = await Promise.all(sessions.slice(0, 4).map((s) => s.closed));
    assert.deepEqual(first, [1001, 1001, 1001, 1001]);
    const ended = sessions.filter((s) => s.code !== undefined).map((s) => s.code);
    assert.ok(
      ended.every((code) => code === 1001),
      `every session a replica ended closed with 1001: ${ended.join(', ')}`,
    );
    console.log(
      `# ${sent} requests, ${failures.length} failed; ${ended.length} of ${sessions.length} sessions ended by a restart, all 1001; balancer retries: ${JSON.stringify(balancer.retries)}`,
    );
  } finally {
    running = false;
    for (const session of sessions) session.dispose();
    await balancer.close();
    await Promise.all(replicas.map((r) => r.stop()));
  }
});
