/**
 * The README's replica figures (section "Several replicas", between its `bench-replicas`
 * markers), generated from the `replicas` section of `bench/results.json`, which `npm run
 * bench` writes (bench/replicas.ts): REST through two replicas sharing Redis quotas behind
 * nginx beside one replica with in-process quotas, the Redis round trip of a metered
 * request while they are loaded, and the time from a release or an owner write to every
 * replica serving it. The types below are that section's contract.
 */
import { LIMITS } from '../../core/limits.ts';
import type { RunFacts, Spread } from './bench-figures.ts';

/** One configuration under one target's load, over the runs. */
export interface ReplicaLoad {
  rps: Spread;
  p99Ms: Spread;
  requests: number;
  /** Non-2xx answers, connection errors and timeouts. */
  failed: number;
}

/** The quota script's round trip (src/http/redis-counters.ts), timed by a probe client (bench/redis-probe.ts), over the runs. */
export interface RedisRoundTrip {
  p50Ms: Spread;
  p99Ms: Spread;
  calls: number;
  failed: number;
  /** Calls slower than `redisCallTimeoutMs`, which a replica would have counted in process instead. */
  overTimeout: number;
}

export interface ReplicaRow {
  id: string;
  label: string;
  /** Answer and page caches on (as deployed), or off (every request does its work). */
  variant: 'warm' | 'cold';
  /** One replica, quotas in process, loaded directly. */
  one: ReplicaLoad;
  /** The same replica behind the same nginx (absent with the balancer). */
  oneBehind?: ReplicaLoad;
  /** Two replicas sharing quotas in Redis (`REDIS_URL`, `REPLICAS=2`) behind nginx. */
  two?: ReplicaLoad;
  /** The Redis round trip while `two` was loaded. */
  redis?: RedisRoundTrip;
}

export interface PropagationFigures {
  /** Replicas following releases (the writer aside). */
  replicas: number;
  /** How they learn of a release: the Redis notice, or only their periodic check. */
  fastPath: string;
  rounds: number;
  /** `npm run release` of an edited build: its whole run, then from its return to every replica serving it. */
  release: { publishMs: Spread; servedMs: Spread };
  /** `music.set_stance` at the writer: its answer, then from the answer to every replica serving the write. */
  ownerWrite: { answerMs: Spread; servedMs: Spread };
}

export interface ReplicaResults extends RunFacts {
  loadGenerator: string;
  /** nginx's version with docs/deploy/nginx.conf, or why no balancer ran. */
  balancer: string;
  /** Why two replicas were not loaded (no nginx, no Redis); absent when they were. */
  skipped?: string;
  records: number;
  collection: string;
  connections: number;
  seconds: number;
  runs: number;
  cores: number;
  /** The one-minute load average as each measured pass began: the machine is shared. */
  loadAverage: Spread;
  rows: ReplicaRow[];
  /** The round trip with nothing loading the replicas, for comparison. */
  redisIdle?: RedisRoundTrip;
  /** Times a loaded replica switched its quotas to in-process counting (Redis slower than its call timeout). */
  fallbacks: number;
  propagation: PropagationFigures;
}

const count = (n: number) => Math.round(n).toLocaleString('en');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const spread = (s: Spread, f: (n: number) => string) => (s.min === s.max ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`);
const rps = (l: ReplicaLoad | undefined) => (l ? spread(l.rps, count) : '—');
const ms = (s: Spread) => spread(s, (n) => n.toFixed(2));
const seconds = (s: Spread) => spread(s, (n) => (n / 1000).toFixed(2));
const ratio = (a: ReplicaLoad | undefined, b: ReplicaLoad | undefined) => (a && b && b.rps.median > 0 ? (a.rps.median / b.rps.median).toFixed(2) : '—');
const roundTrip = (r: RedisRoundTrip | undefined) => (r ? `${ms(r.p50Ms)} / ${ms(r.p99Ms)}` : '—');

/** The generated Markdown of the replica figures; a line saying so when there are none. */
export function replicaTables(results: ReplicaResults | undefined): string {
  if (!results) return 'Not measured yet: `npm run bench -- --only replicas` measures it.';
  const r = results;
  const loads = r.rows.flatMap((row) => [row.one, row.oneBehind, row.two]).filter((l) => l !== undefined);
  const failed = loads.reduce((n, l) => n + l.failed, 0);
  const timed = r.rows.flatMap((row) => (row.redis ? [row.redis] : []));
  const p = r.propagation;
  return [
    `${count(r.records)} generated records (${r.collection}), ${r.date}, node ${r.node}, ${r.machine}; ${r.loadGenerator}, ${r.connections} connections, ${r.seconds} s per run, ${plural(r.runs, 'run')}, median (min–max); balancer: ${r.balancer}. The load generator, nginx, the replicas and Redis share the ${r.cores} cores; the one-minute load average as the measured passes began: ${spread(r.loadAverage, (n) => n.toFixed(1))}.`,
    '',
    '| request | one replica, quotas in process, req/s | one replica behind nginx, req/s | two replicas behind nginx, quotas in Redis, req/s | two ÷ one | two ÷ one behind nginx | p99 ms: one / behind nginx / two | Redis round trip during the two-replica load, p50 / p99 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.rows.map(
      (row) =>
        `| ${row.label}, ${row.variant === 'warm' ? 'caches' : 'cold'} | ${rps(row.one)} | ${rps(row.oneBehind)} | ${rps(row.two)} | ${ratio(row.two, row.one)} | ${ratio(row.two, row.oneBehind)} | ${[row.one, row.oneBehind, row.two].map((l) => (l ? ms(l.p99Ms) : '—')).join(' / ')} | ${roundTrip(row.redis)} |`,
    ),
    '',
    ...(r.skipped ? [`Two replicas: not measured (${r.skipped}).`, ''] : []),
    `Non-2xx answers and errors under load: ${count(failed)} of ${count(loads.reduce((n, l) => n + l.requests, 0))}. ` +
      `The Redis round trip is the quota script call a replica makes per metered request, timed by a probe client every 5 ms (${count(timed.reduce((n, t) => n + t.calls, 0))} calls, ` +
      `${count(timed.reduce((n, t) => n + t.overTimeout, 0))} over the ${LIMITS.redisCallTimeoutMs} ms call timeout, ${count(timed.reduce((n, t) => n + t.failed, 0))} failed); with nothing loading the replicas: ${roundTrip(r.redisIdle)} ms. ` +
      `Loaded replicas switched to in-process counting ${count(r.fallbacks)} times.`,
    '',
    `| ${p.replicas} replicas following releases, ${plural(p.rounds, 'round')}; fast path: ${p.fastPath} | seconds, median (min–max) |`,
    '| --- | ---: |',
    `| \`npm run release\` of an edited build (start to return: hashing, copying the changed objects, the notice) | ${seconds(p.release.publishMs)} |`,
    `| its return → every replica serves the release | ${seconds(p.release.servedMs)} |`,
    `| an owner write (\`music.set_stance\`) at the writer: request → answer | ${seconds(p.ownerWrite.answerMs)} |`,
    `| the answer → every replica serves the write (the writer publishes its rebuilt generation as a release) | ${seconds(p.ownerWrite.servedMs)} |`,
  ].join('\n');
}
