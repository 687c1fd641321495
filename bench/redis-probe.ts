/**
 * The Redis round trip of one metered request, timed from outside the replicas: the very
 * call a replica makes (src/http/redis-counters.ts, `RedisCounterStore.spend`: one EVALSHA
 * of the quota script) on the REST counter the load is spending, one call every
 * `--interval-ms` while the replicas are under load, so the runtime's request path does no
 * work for the measurement. Runs in its own process, so the load generator (autocannon
 * runs in the benchmark's process) does not delay its clock. It prints `ready` once
 * connected and starts calling; each line on its stdin starts the count afresh (the
 * measured pass begins); when stdin ends it prints one JSON line of `ProbeResult`.
 * Usage: node bench/redis-probe.ts --url redis://… --prefix <REDIS_KEY_PREFIX> [--interval-ms 5]
 */
import { parseArgs } from 'node:util';
import { LIMITS } from '../src/core/limits.ts';
import { quotaConnection, RedisCounterStore } from '../src/http/redis-counters.ts';

export interface ProbeResult {
  /** Calls timed, and the ones that failed. */
  calls: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  /** Calls slower than LIMITS.redisCallTimeoutMs: a replica would have counted those requests in process. */
  overTimeout: number;
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

if (import.meta.main) {
  const { values: args } = parseArgs({ options: { url: { type: 'string' }, prefix: { type: 'string' }, 'interval-ms': { type: 'string', default: '5' } } });
  const redis = quotaConnection(args.url!);
  await new Promise((resolve) => redis.once('ready', resolve));
  // The REST counter the load spends (the client is the load generator); a key of its own before the first request.
  let key: string | undefined;
  for (let cursor = '0'; key === undefined;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${args.prefix}rest:*`, 'COUNT', 1000);
    key = keys[0]?.slice(`${args.prefix}rest:`.length);
    if ((cursor = next) === '0') break;
  }
  // The replicas' own timeout does not apply here: a slow call is timed to its end, and counted over it.
  const store = new RedisCounterStore(redis, `${args.prefix}rest:`, { timeoutMs: () => 10_000 });
  const spend = { amount: 1, limit: Number.MAX_SAFE_INTEGER, windowMs: LIMITS.restWindowSeconds * 1000 };
  const samples: number[] = [];
  let failed = 0;
  let running = true;
  process.stdin.on('data', () => ((samples.length = 0), (failed = 0)));
  process.stdin.on('end', () => (running = false));
  console.log('ready');
  while (running) {
    const started = performance.now();
    try {
      await store.spend(key ?? 'probe', spend, Date.now());
      samples.push(performance.now() - started);
    } catch {
      failed += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, Number(args['interval-ms'])));
  }
  redis.disconnect();
  const result: ProbeResult = {
    calls: samples.length + failed,
    failed,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    overTimeout: samples.filter((ms) => ms > LIMITS.redisCallTimeoutMs).length,
  };
  console.log(JSON.stringify(result));
}
