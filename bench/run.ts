/**
 * `npm run bench`: the one benchmark. It generates a content set once (cached under
 * `.bench/`), builds it (compile time, whole build time, peak RSS under GNU time, image
 * size), then loads every surface with one load generator (bench/load.ts: wrk if it is on
 * PATH, else autocannon). Each server runs alone, and each run loads, in turn:
 *
 * 1. the runtime as deployed (answer and page caches on), a fresh server for each target;
 * 2. the runtime with both caches off (cold: every request does its work), likewise;
 * 3. a bare node:http server answering a body of each target's size (the runtime's limit);
 * 4. nginx serving the static target's file, where nginx is installed (the static limit).
 *
 * Every target gets a short first pass before it is measured (it fills the caches, as
 * repeated traffic would, and warms the JIT). The server's VmRSS is sampled under load.
 * After `--runs` runs (3) each figure is the median with its spread; every request is
 * checked once before loading, and every non-2xx answer or error under load is counted.
 * Results merge into `bench/results.json` (`npm run docs` turns it into the README's
 * tables); a run with `--only` writes `.bench/results-only.json` instead, so a subset
 * never replaces the record.
 *
 * Usage: npm run bench [-- --records 100000 --seconds 8 --connections 16 --runs 3
 *        --only <text> --build-only --reuse-build --note <text> --out <file>]
 * `--only rebuild` measures the dev loop alone (bench/rebuild.ts; a full run measures it after
 * the load, on the same build, and records it by record count); `--only import` the
 * importers (bench/import.ts: `--tweets 100000 --activities 10000 --points 120`);
 * `--only replicas` several replicas (bench/replicas.ts), which a full run measures last.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loopTables } from '../src/compile/docs/bench-loop.ts';
import { benchTables, type BuildFigures, type TargetRow } from '../src/compile/docs/bench-readme.ts';
import { targetTable } from '../src/compile/docs/bench-targets.ts';
import { loadGenerator, type LoadRequest } from './load.ts';
import { measureHeaderCost } from './header-cost.ts';
import { measureRebuild } from './rebuild.ts';
import { figures, RESULTS_PATH, runFacts, writeResults, type Measured } from './results.ts';
import { cpuSeconds, hasNginx, rssMb, startNginx, startNode, type Running } from './servers.ts';
import { targets, type Target } from './targets.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    collection: { type: 'string', default: 'tweets' },
    'build-only': { type: 'boolean', default: false },
    'reuse-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    note: { type: 'string' },
    out: { type: 'string' },
    tweets: { type: 'string', default: '100000' },
    activities: { type: 'string', default: '10000' },
    points: { type: 'string', default: '120' },
  },
});
const records = Number(args.records);
if (args.only === 'import') {
  // The importers alone (bench/import.ts): no content set or build is needed.
  const { importTable, measureImports } = await import('./import.ts');
  const options = { tweets: Number(args.tweets), activities: Number(args.activities), points: Number(args.points) };
  const text = importTable(measureImports(options), options.points);
  console.log(text);
  writeFileSync(join('.bench', 'results-import.md'), `${text}\n`);
  process.exit(0);
}
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const runs = Number(args.runs);
const root = resolve('.bench');
const content = join(root, `content-${records}`);
const dist = join(root, `dist-${records}`);
const imagePath = join(dist, 'image/site.db');
const out = args.out ?? (args.only === undefined ? RESULTS_PATH : join(root, 'results-only.json'));
mkdirSync(root, { recursive: true });
const log = (line: string) => console.error(`· ${line}`);

// 1. Content, generated once per size.
if (!existsSync(join(content, '.generated'))) {
  log(`generating ${records} records`);
  const generated = spawnSync(process.execPath, ['bench/generate.ts', '--records', String(records), '--out', content], { stdio: 'inherit' });
  if (generated.status !== 0) process.exit(1);
}

// 2. The build, under GNU time for the peak RSS of the whole build process.
function build(): BuildFigures {
  log(`building ${records} records`);
  const start = performance.now();
  const built = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, 'node_modules/astro/bin/astro.mjs', 'build'], {
    env: { ...process.env, CONTENT_DIR: content, DIST_DIR: dist },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const buildSeconds = (performance.now() - start) / 1000;
  const text = `${built.stdout}${built.stderr}`;
  if (built.status !== 0) {
    console.error(text);
    process.exit(1);
  }
  return {
    ...runFacts(),
    records,
    compileSeconds: Number(/compiled \d+ records in (\d+) ms/.exec(text)?.[1]) / 1000,
    buildSeconds: Math.round(buildSeconds * 100) / 100,
    peakRssMb: Math.round(Number(/maxrss_kb=(\d+)/.exec(text)?.[1]) / 1024),
    imageMb: Math.round((statSync(imagePath).size / 2 ** 20) * 10) / 10,
  };
}
const reuse = args['reuse-build'] && existsSync(imagePath);
const built = reuse ? undefined : build();

/** The dev loop on the build of this size (bench/rebuild.ts), recorded by record count. */
async function recordLoop(path: string): Promise<void> {
  const edits = await measureRebuild(content, dist, log);
  const results = writeResults(path, { ...(built ? { build: { [records]: built } } : {}), rebuild: { [records]: { ...runFacts(), records, edits } } });
  console.log(loopTables({ [records]: results.rebuild![records]! }));
}
if (args.only === 'rebuild') {
  await recordLoop(args.out ?? RESULTS_PATH);
  process.exit(0);
}
if (args['build-only']) {
  if (built) writeResults(out, { build: { [records]: built } });
  console.log(JSON.stringify(built ?? 'build reused: nothing measured', null, 2));
  process.exit(0);
}

// Several replicas alone (bench/replicas.ts): their own section of the record, which replaces only itself.
if (args.only === 'replicas') {
  const { recordReplicas } = await import('./replicas.ts');
  await recordReplicas({ dist, content, records, collection: args.collection, runs, seconds, connections, scratch: root, log }, args.out ?? RESULTS_PATH);
  process.exit(0);
}

// 3. Targets, drawn from the built image; `--only` keeps the matching ones and the REST rows they compare with.
const all = targets(imagePath, args.collection);
const wanted = all.targets.filter((t) => args.only === undefined || `${t.id} ${t.label}`.includes(args.only));
const chosen = all.targets.filter((t) => wanted.includes(t) || wanted.some((w) => w.sameQuestionAs === t.id));
if (chosen.length === 0) throw new Error(`--only ${args.only}: no target matches`);
const generator = loadGenerator();
log(`load generator: ${generator.name}; ${chosen.length} targets, ${runs} runs, ${seconds} s each, ${connections} connections`);

// The quotas are lifted (one load generator is one client), but still counted on every request.
const LIFTED = String(Number.MAX_SAFE_INTEGER);
const runtimeEnv = {
  DIST_DIR: dist,
  RATE_LIMIT_REQUESTS: LIFTED,
  SQL_RATE_LIMIT_REQUESTS: LIFTED,
  GRAPHQL_COST_BUDGET: LIFTED,
  MCP_RATE_LIMIT_REQUESTS: LIFTED,
  MCP_TOOL_WORK_BUDGET: LIFTED,
  RPC_SESSION_LIMIT: LIFTED,
  // The SQL targets name many clients through X-Forwarded-For; the load generator is the proxy.
  TRUSTED_PROXIES: '127.0.0.1, ::1, ::ffff:127.0.0.1',
};
// The same V8 flags as `npm run serve` (package.json).
const serve = ['--max-semi-space-size=4', 'server.ts'];

/** Every request answers 2xx with what was asked, once, before any load: returns the mean body size. */
async function preflight(base: string, target: Target): Promise<number> {
  let bytes = 0;
  for (const r of target.requests) {
    const response = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok || (target.ok && !target.ok(body.toString())))
      throw new Error(`${target.label}: ${r.method} ${r.path} answered ${response.status}: ${body.toString().slice(0, 500)}`);
    bytes += body.length;
  }
  return Math.round(bytes / target.requests.length);
}

/** A short pass, then the measured one, sampling the server's RSS every 100 ms and counting its CPU time per answer. */
async function measure(server: Running, requests: LoadRequest[], loadConnections = connections): Promise<Measured> {
  const options = { connections: loadConnections, seconds };
  await generator.run(server.base, requests, { ...options, seconds: Math.max(1, Math.round(seconds / 4)) });
  // The warm-up's last requests are cut off, not finished: let the server finish them, or
  // they still count against one client's concurrency (SQL) when the measured pass starts.
  await sleep(500);
  let peak = 0;
  const sample = () =>
    (peak = Math.max(
      peak,
      server.pids().reduce((n, pid) => n + rssMb(pid), 0),
    ));
  const cpu = () => server.pids().reduce((n, pid) => n + cpuSeconds(pid), 0);
  const timer = setInterval(sample, 100);
  const cpuBefore = cpu();
  const loaded = await generator.run(server.base, requests, options);
  const cpuUs = ((cpu() - cpuBefore) * 1e6) / Math.max(1, loaded.requests);
  clearInterval(timer);
  sample();
  return { ...loaded, rssMb: peak, cpuUs };
}

/** Starts a server, loads it, stops it: nothing else runs beside the target. */
async function alone(start: () => Promise<Running>, work: (server: Running) => Promise<void>): Promise<void> {
  const server = await start();
  try {
    await work(server);
  } finally {
    await server.stop();
  }
}

type Samples = Measured[];
const samples = new Map(chosen.map((t) => [t.id, { warm: [] as Samples, cold: [] as Samples, bare: [] as Samples, nginx: [] as Samples }]));
const bodyBytes = new Map<string, number>();
const nginx = hasNginx();
const CACHES_OFF = { ANSWER_CACHE_BYTES: '0', PAGE_CACHE_BYTES: '0' };
for (let run = 1; run <= runs; run++) {
  // The bare server answers idle beside each runtime and is loaded right after it, target by
  // target: a ratio compares two measurements seconds apart, not minutes, so a machine whose
  // load drifts (other work on its two cores) moves both sides of it alike.
  const bare = await startNode(['bench/baseline.ts']);
  try {
    // A fresh runtime per target, so its RSS under load is this target's and no cache carries over.
    for (const variant of ['warm', 'cold'] as const) {
      for (const target of chosen) {
        await alone(
          () => startNode(serve, variant === 'warm' ? runtimeEnv : { ...runtimeEnv, ...CACHES_OFF }),
          async (server) => {
            if (!bodyBytes.has(target.id)) bodyBytes.set(target.id, await preflight(server.base, target));
            log(`run ${run}, ${variant}: ${target.label}`);
            samples.get(target.id)![variant].push(await measure(server, target.requests, target.connections));
          },
        );
        if (variant === 'warm') {
          log(`run ${run}, bare node:http, ${bodyBytes.get(target.id)} bytes`);
          samples.get(target.id)!.bare.push(await measure(bare, [{ method: 'GET', path: `/${bodyBytes.get(target.id)}` }], target.connections));
        }
      }
    }
  } finally {
    await bare.stop();
  }
  const statics = chosen.filter((t) => t.staticPath !== undefined);
  if (nginx && statics.length > 0) {
    await alone(
      () => startNginx(join(dist, 'client'), root),
      async (server) => {
        for (const target of statics) {
          log(`run ${run}, nginx: ${target.staticPath}`);
          samples.get(target.id)!.nginx.push(await measure(server, target.requests, target.connections));
        }
      },
    );
  }
}

// REST's header block alone, beside the bare server, where REST page one was loaded (bench/header-cost.ts).
const page = chosen.find((t) => t.id === 'rest-page-one');
const headerCost =
  page &&
  (log("header block: bare node:http with and without REST page one's headers"),
  await measureHeaderCost({ dist, path: page.requests[0]!.path, seconds, connections, runs, generator }));

// 4. The record.
const rows: TargetRow[] = chosen.map((t) => {
  const s = samples.get(t.id)!;
  return {
    id: t.id,
    label: t.label,
    request: t.request,
    bodyBytes: bodyBytes.get(t.id)!,
    ...(t.sameQuestionAs ? { sameQuestionAs: t.sameQuestionAs } : {}),
    ...(t.connections ? { connections: t.connections } : {}),
    warm: figures(s.warm),
    cold: figures(s.cold),
    bare: figures(s.bare),
    ...(t.staticPath ? { nginx: nginx ? figures(s.nginx) : ('absent' as const) } : {}),
  };
});
const results = writeResults(out, {
  ...(built ? { build: { [records]: built } } : {}),
  note: args.note,
  load: {
    ...runFacts(),
    loadGenerator: generator.name,
    records,
    collection: args.collection,
    collectionRecords: all.collectionRecords,
    connections,
    seconds,
    runs,
    rows,
    ...(headerCost ? { headerCost } : {}),
  },
});
console.log(`${benchTables(results)}\n\n${targetTable(results)}`);
log(`written to ${out}; \`npm run docs\` puts ${out === RESULTS_PATH ? 'it' : RESULTS_PATH} in the README`);

// The cold answers' floor, the dev loop on this build, then several replicas (bench/replicas.ts): two behind nginx sharing quotas in Redis beside one, Redis's round trip, propagation.
if (args.only === undefined) {
  // Each cold answer in process beside the statements it runs (bench/cold.ts), on the same build.
  log('cold answers beside their statements (bench/cold.ts)');
  if (
    spawnSync(process.execPath, ['bench/cold.ts', '--records', String(records), '--collection', args.collection, '--out', out], { stdio: 'inherit' }).status !==
    0
  )
    process.exit(1);
  await recordLoop(out);
  const { recordReplicas } = await import('./replicas.ts');
  await recordReplicas({ dist, content, records, collection: args.collection, runs, seconds, connections, scratch: root, log }, out);
}
