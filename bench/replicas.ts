/**
 * Several replicas, measured (part of `npm run bench`; alone with `--only replicas`).
 * Each run loads REST page one and a filtered list, caches on and off, through three
 * set-ups started afresh in turn, with the same requests and the same load generator:
 *
 * 1. one replica, quotas in process, loaded directly (the one-machine default);
 * 2. the same behind nginx (the balancer's own cost);
 * 3. two replicas sharing their quotas in Redis (`REDIS_URL`, `REPLICAS=2`, a key prefix
 *    of this run's) behind nginx, configured by docs/deploy/nginx.conf itself with its
 *    upstreams on loopback (`balancerConf`).
 *
 * The REST quota is lifted (the load generator is one client) but still counted on every
 * request, in Redis for the third. While the third is loaded a probe client times the
 * quota script call itself (bench/redis-probe.ts), so the replicas' request path does no
 * work for the measurement; it also runs once with the replicas idle. A replica that fell
 * back to in-process counting says so on stderr, and those lines are counted. Without
 * nginx or without Redis the set-ups that need them are skipped, and the results say why.
 * Then bench/propagation.ts times releases and owner writes on the same build.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { replicaTables, type RedisRoundTrip, type ReplicaLoad, type ReplicaResults, type ReplicaRow } from '../src/compile/docs/bench-replicas.ts';
import { loadGenerator, type LoadRequest, type Loaded } from './load.ts';
import { measurePropagation } from './propagation.ts';
import type { ProbeResult } from './redis-probe.ts';
import { REDIS_URL, redisProblem, startReplica, type Replica } from './replica-harness.ts';
import { runFacts, spread, spreadOf, total, writeResults } from './results.ts';
import { freePort, hasNginx, runNginx } from './servers.ts';
import { targets } from './targets.ts';

export const DEPLOY_NGINX_CONF = 'docs/deploy/nginx.conf';
/** The targets loaded through the replicas: REST page one and a filtered list. */
const TARGET_IDS = ['rest-page-one', 'rest-filtered'];
const LIFTED = String(Number.MAX_SAFE_INTEGER);
const CACHES_OFF = { ANSWER_CACHE_BYTES: '0', PAGE_CACHE_BYTES: '0' };
/** The fallback's log line (src/http/redis-counters.ts). */
const FELL_BACK = /quotas: Redis did not answer/g;

export interface ReplicaOptions {
  dist: string;
  content: string;
  records: number;
  collection: string;
  runs: number;
  seconds: number;
  connections: number;
  /** Where nginx keeps its files (the benchmark's `.bench/`). */
  scratch: string;
  log: (line: string) => void;
}

/**
 * docs/deploy/nginx.conf on this machine: its replicas' upstream on `replicas` (one
 * `server` line each, the file's parameters kept), its writer's on the first replica (no
 * writer runs under this load), listening on loopback `port`, in the foreground with its
 * pid and temporary files under `prefix`. Everything else is the file as deployed; a
 * change of its shape fails here rather than measuring something else.
 */
export function balancerConf(template: string, replicas: readonly string[], port: number, prefix: string): string {
  let conf = template;
  const edit = (pattern: RegExp, by: (...match: string[]) => string) => {
    if (!pattern.test(conf)) throw new Error(`${DEPLOY_NGINX_CONF} has changed its shape: nothing matches ${pattern}`);
    conf = conf.replace(pattern, by);
  };
  edit(/^([ \t]*)server replica\d+:\d+([^;\n]*);\n(?:[ \t]*server replica\d+:\d+[^;\n]*;\n)*/m, (_, indent, parameters) =>
    replicas.map((a) => `${indent}server ${a}${parameters};\n`).join(''),
  );
  edit(/server writer:\d+;/, () => `server ${replicas[0]};`);
  edit(/listen 80;/, () => `listen 127.0.0.1:${port};`);
  const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${prefix}/${kind};\n`).join('');
  edit(/^http \{\n/m, () => `http {\n${temporary}`);
  return `daemon off;\npid ${prefix}/nginx.pid;\n${conf}`;
}

/** nginx as docs/deploy/nginx.conf configures it, in front of `replicas`. */
async function startBalancer(replicas: readonly Replica[], scratch: string) {
  const port = await freePort();
  const prefix = resolve(scratch, 'nginx-replicas');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  writeFileSync(
    join(prefix, 'nginx.conf'),
    balancerConf(
      readFileSync(DEPLOY_NGINX_CONF, 'utf8'),
      replicas.map((r) => r.address),
      port,
      prefix,
    ),
  );
  return runNginx(prefix, `http://127.0.0.1:${port}`);
}

/** The probe client (bench/redis-probe.ts), calling from when it is ready, timing from `measure()` (or the start) until `stop()`. */
async function startProbe(prefix: string): Promise<{ measure(): void; stop(): Promise<ProbeResult> }> {
  const child = spawn(process.execPath, ['bench/redis-probe.ts', '--url', REDIS_URL, '--prefix', prefix], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  while (!out.includes('ready')) {
    if (child.exitCode !== null) throw new Error(`the Redis probe stopped: ${out}`);
    await sleep(20);
  }
  return {
    measure: () => child.stdin.write('measure\n'),
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
      return JSON.parse(out.trim().split('\n').at(-1)!) as ProbeResult;
    },
  };
}

/** Every request answers 2xx through `base` before it is loaded. */
async function preflight(base: string, requests: readonly LoadRequest[]): Promise<void> {
  for (const r of requests) {
    const response = await fetch(base + r.path, { method: r.method, headers: r.headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${r.method} ${base}${r.path} answered ${response.status}`);
  }
}

const reduceLoads = (runs: readonly Loaded[]): ReplicaLoad => ({
  rps: spreadOf(runs, (r) => r.rps, 0),
  p99Ms: spreadOf(runs, (r) => r.p99Ms, 2),
  requests: total(runs, (r) => r.requests),
  failed: total(runs, (r) => r.non2xx + r.errors),
});

const reduceProbes = (runs: readonly ProbeResult[]): RedisRoundTrip => ({
  p50Ms: spreadOf(runs, (r) => r.p50Ms, 2),
  p99Ms: spreadOf(runs, (r) => r.p99Ms, 2),
  calls: total(runs, (r) => r.calls),
  failed: total(runs, (r) => r.failed),
  overTimeout: total(runs, (r) => r.overTimeout),
});

type SetUp = 'one' | 'oneBehind' | 'two';

export async function measureReplicas(o: ReplicaOptions): Promise<ReplicaResults> {
  const chosen = targets(join(o.dist, 'image/site.db'), o.collection).targets.filter((t) => TARGET_IDS.includes(t.id));
  const generator = loadGenerator();
  const nginx = hasNginx() ? (/nginx\/\S+/.exec(spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr)?.[0] ?? 'nginx') : undefined;
  const redisAway = await redisProblem();
  const skipped =
    nginx === undefined ? 'nginx is not installed on this machine' : redisAway === undefined ? undefined : `no Redis answered at ${REDIS_URL}: ${redisAway}`;
  const setUps: SetUp[] = nginx === undefined ? ['one'] : redisAway === undefined ? ['one', 'oneBehind', 'two'] : ['one', 'oneBehind'];
  const prefix = `bench:${randomBytes(6).toString('hex')}:quota:`;
  const common = { DIST_DIR: o.dist, RATE_LIMIT_REQUESTS: LIFTED, RELEASES_DIR: '', TRUSTED_PROXIES: '127.0.0.1, ::1, ::ffff:127.0.0.1' };
  const envOf = (setUp: SetUp) => (setUp === 'two' ? { ...common, REDIS_URL, REPLICAS: '2', REDIS_KEY_PREFIX: prefix } : { ...common, REDIS_URL: '' });
  const samples = new Map<string, Record<SetUp, Loaded[]> & { redis: ProbeResult[] }>();
  const idle: ProbeResult[] = [];
  const loadAverages: number[] = [];
  let fallbacks = 0;
  o.log(`replicas: ${generator.name}; ${setUps.join(', ')}${skipped ? ` (two replicas skipped: ${skipped})` : ''}`);

  for (let run = 1; run <= o.runs; run++) {
    for (const variant of ['warm', 'cold'] as const) {
      for (const setUp of setUps) {
        const env = variant === 'warm' ? envOf(setUp) : { ...envOf(setUp), ...CACHES_OFF };
        const replicas = await Promise.all(Array.from({ length: setUp === 'two' ? 2 : 1 }, () => startReplica(env)));
        const balancer = setUp === 'one' ? undefined : await startBalancer(replicas, o.scratch);
        const base = balancer?.base ?? replicas[0]!.base;
        try {
          for (const target of chosen) {
            await preflight(base, target.requests);
            if (setUp === 'two' && variant === 'warm' && target === chosen[0]) {
              const probe = await startProbe(prefix);
              await sleep(2000);
              idle.push(await probe.stop());
            }
            o.log(`run ${run}, ${variant}, ${setUp}: ${target.label}`);
            // Started before the warm-up, so that no set-up idles longer than the others before its measured pass.
            const probe = setUp === 'two' ? await startProbe(prefix) : undefined;
            await generator.run(base, target.requests, { connections: o.connections, seconds: Math.max(1, Math.round(o.seconds / 4)) });
            await sleep(500);
            probe?.measure();
            loadAverages.push(loadavg()[0]!);
            const loaded = await generator.run(base, target.requests, { connections: o.connections, seconds: o.seconds });
            const key = `${target.id} ${variant}`;
            if (!samples.has(key)) samples.set(key, { one: [], oneBehind: [], two: [], redis: [] });
            samples.get(key)![setUp].push(loaded);
            if (probe) samples.get(key)!.redis.push(await probe.stop());
          }
        } finally {
          await balancer?.stop();
          await Promise.all(replicas.map((r) => r.stop()));
        }
        fallbacks += replicas.reduce((n, r) => n + (r.output().match(FELL_BACK)?.length ?? 0), 0);
      }
    }
  }

  const rows: ReplicaRow[] = chosen.flatMap((target) =>
    (['warm', 'cold'] as const).map((variant) => {
      const s = samples.get(`${target.id} ${variant}`)!;
      return {
        id: target.id,
        label: target.label,
        variant,
        one: reduceLoads(s.one),
        ...(s.oneBehind.length ? { oneBehind: reduceLoads(s.oneBehind) } : {}),
        ...(s.two.length ? { two: reduceLoads(s.two), redis: reduceProbes(s.redis) } : {}),
      };
    }),
  );
  const propagation = await measurePropagation({ dist: o.dist, content: o.content, rounds: o.runs, log: o.log });
  return {
    ...runFacts(),
    loadGenerator: generator.name,
    balancer: nginx === undefined ? 'none (nginx is not installed)' : `${nginx} configured by ${DEPLOY_NGINX_CONF} (its upstreams on loopback)`,
    ...(skipped ? { skipped } : {}),
    records: o.records,
    collection: o.collection,
    connections: o.connections,
    seconds: o.seconds,
    runs: o.runs,
    cores: cpus().length,
    loadAverage: spread(loadAverages, 1),
    rows,
    ...(idle.length ? { redisIdle: reduceProbes(idle) } : {}),
    fallbacks,
    propagation,
  };
}

/** Measures, merges the `replicas` section into the results file at `out`, and prints its tables. */
export async function recordReplicas(options: ReplicaOptions, out: string): Promise<void> {
  const replicas = await measureReplicas(options);
  writeResults(out, { replicas });
  console.log(`\n${replicaTables(replicas)}`);
  options.log(`replicas written to ${out}; \`npm run docs\` puts bench/results.json in the README`);
}
