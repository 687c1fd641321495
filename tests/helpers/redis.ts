/**
 * The machine's Redis for the shared-quota tests, and a TCP proxy to cut it off. The tests
 * use the Redis at `REDIS_URL` (default redis://127.0.0.1:6379); when none answers they
 * are skipped with a plain message, unless `REQUIRE_REDIS=1` (CI), when they fail. They
 * never stop that Redis (others use it): "Redis away" is this proxy refusing or holding
 * traffic. Each run writes under a prefix of its own, so parallel runs do not collide.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { REDIS_URL, redisProblem } from '../../bench/replica-harness.ts';
import { config } from '../../src/config.ts';

export { REDIS_URL };

/** A key prefix no other run uses. */
export const runPrefix = (): string => `collections-test:${randomUUID()}:`;

/** Undefined when Redis answers; otherwise why the Redis tests are skipped (or, under REQUIRE_REDIS=1, a thrown error). */
export async function redisMissing(): Promise<string | undefined> {
  const problem = await redisProblem(REDIS_URL, 2000);
  const reason = problem && `no Redis answers at ${REDIS_URL} (${problem}): the shared-quota tests are skipped; start Redis or set REDIS_URL`;
  if (reason && config().REQUIRE_REDIS) throw new Error(`REQUIRE_REDIS=1 but ${reason}`);
  if (reason) console.log(`# ${reason}`);
  return reason;
}

/** A proxy between the limiter and Redis: `cut('refuse')` drops and refuses connections, `cut('hold')` keeps them but forwards nothing (a slow Redis). */
export class RedisProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private mode: 'open' | 'refuse' | 'hold' = 'open';
  url = '';

  private constructor() {
    const target = new URL(REDIS_URL);
    this.server = createServer((client) => {
      if (this.mode === 'refuse') return client.destroy();
      const upstream = new Socket();
      upstream.connect(Number(target.port || 6379), target.hostname);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('data', (chunk) => this.mode === 'open' && upstream.write(chunk));
      upstream.on('data', (chunk) => this.mode === 'open' && client.write(chunk));
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
  }

  static async start(): Promise<RedisProxy> {
    const proxy = new RedisProxy();
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `redis://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    return proxy;
  }

  cut(how: 'refuse' | 'hold'): void {
    this.mode = how;
    if (how === 'refuse') for (const [client, upstream] of this.pairs) (client.destroy(), upstream.destroy());
  }

  restore(): void {
    // Held connections lost bytes: drop them, so the client reconnects on a clean stream.
    if (this.mode === 'hold') for (const [client, upstream] of this.pairs) (client.destroy(), upstream.destroy());
    this.mode = 'open';
  }

  async stop(): Promise<void> {
    this.cut('refuse');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A `redis-server` of the test's own, on a free port, which the test may kill, restart on
 * the same port, or freeze (`DEBUG SLEEP`, allowed from loopback): what the machine's
 * shared Redis must never be put through. Undefined, with the reason printed, when no
 * `redis-server` is on the PATH (a machine with only Node and npm), unless
 * `REQUIRE_REDIS=1`, where that is a failure.
 */
export class OwnRedis {
  private child: ChildProcess | undefined;
  readonly port: number;

  private constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis | undefined> {
    const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
    if (found.error) {
      const reason = 'no redis-server on the PATH: the tests that kill and restart a Redis of their own are skipped';
      if (config().REQUIRE_REDIS) throw new Error(`REQUIRE_REDIS=1 but ${reason}`);
      console.log(`# ${reason}`);
      return undefined;
    }
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const redis = new OwnRedis(port);
    await redis.restart();
    return redis;
  }

  /** Starts it (again, on the same port) and resolves once it answers PING. */
  async restart(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--enable-debug-command', 'local'],
      { stdio: 'ignore' },
    );
    for (;;) {
      if ((await redisProblem(this.url, 200)) === undefined) return;
      await delay(20);
    }
  }

  /** SIGKILL: gone at once, as a crash. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
