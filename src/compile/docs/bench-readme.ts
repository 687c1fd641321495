/**
 * The README's performance tables, generated from `bench/results.json` (what `npm run
 * bench` wrote), so the figures in the README are always those of one recorded run.
 * `npm run bench` prints the same tables; `src/compile/docs/readme.ts` puts them between the
 * README's `bench` markers. The types below are the file's contract.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { RunFacts, Spread } from './bench-figures.ts';

export type { RunFacts, Spread } from './bench-figures.ts';

/** The record of the last benchmark run, committed with the README it generates. */
export const BENCH_RESULTS_PATH = 'bench/results.json';

export function readBenchResults(path = BENCH_RESULTS_PATH): BenchResults {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as BenchResults) : { build: {} };
}

/** One target under load: throughput, latency, the server's RSS, and every answer that was not a 2xx. */
export interface LoadFigures {
  rps: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** The highest VmRSS of the server process sampled while it was under load. */
  rssMb: Spread;
  /** The server's CPU time (user and system, all its threads) per answer under load, in µs. */
  cpuUs?: Spread;
  /** Requests answered over all runs. */
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export interface BuildFigures extends RunFacts {
  records: number;
  compileSeconds: number;
  buildSeconds: number;
  peakRssMb: number;
  imageMb: number;
}

export interface TargetRow {
  id: string;
  label: string;
  /** What is sent, e.g. `GET /api/tweets.json?q=…`. */
  request: string;
  bodyBytes: number;
  /** The REST row asking the same question (GraphQL, MCP, RPC and site pages rendered on request). */
  sameQuestionAs?: string;
  /** Connections, when the surface bounds one client below the run's (SQL); the bare baseline used the same. */
  connections?: number;
  /** The runtime as deployed: answer and page caches on. */
  warm: LoadFigures;
  /** Answer and page caches off (`ANSWER_CACHE_BYTES=0`, `PAGE_CACHE_BYTES=0`): every request does the work. */
  cold: LoadFigures;
  /** A bare node:http server answering a body of `bodyBytes`: the runtime's limit. */
  bare: LoadFigures;
  /** nginx serving the same file (static rows only), or why not. */
  nginx?: LoadFigures | 'absent';
}

/** REST page one's exact header block replayed by the bare server, beside the bare server's two headers (bench/header-cost.ts). */
export interface HeaderCost {
  path: string;
  bodyBytes: number;
  headers: number;
  headerBytes: number;
  bareRps: number;
  headersRps: number;
}

export interface LoadResults extends RunFacts {
  loadGenerator: string;
  records: number;
  collection: string;
  collectionRecords: number;
  connections: number;
  seconds: number;
  runs: number;
  rows: TargetRow[];
  /** Measured after the rows, in the same run, where REST page one was loaded. */
  headerCost?: HeaderCost;
}

export interface BenchResults {
  /** Present when the file is not the record (a smoke run of the harness). */
  note?: string;
  /** Keyed by the number of records generated. */
  build: Record<string, BuildFigures>;
  load?: LoadResults;
  /** Several replicas (src/compile/docs/bench-replicas.ts): its own table, in the README's "Several replicas". */
  replicas?: import('./bench-replicas.ts').ReplicaResults;
  /** The dev loop, keyed by the number of records (src/compile/docs/bench-loop.ts): its own tables, in docs/dev-loop.md. */
  rebuild?: import('./bench-loop.ts').LoopResults;
  /** The cold answers beside their statements (`npm run bench:cold`, `coldTable`). */
  cold?: ColdResults;
}

/** One cold target in process (bench/cold.ts): CPU µs per answer through the REST handler, and per run of its statements alone. */
export interface ColdRow {
  id: string;
  label: string;
  request: string;
  /** SQLite statements one answer runs, on average over the target's requests. */
  statements: number;
  answerUs: Spread;
  statementsUs: Spread;
}

export interface ColdResults extends RunFacts {
  records: number;
  collection: string;
  /** Alternating rounds of answers and statements; each figure is over them. */
  rounds: number;
  rows: ColdRow[];
}

const count = (n: number) => Math.round(n).toLocaleString('en');
const spread = (s: Spread, f: (n: number) => string) => (s.min === s.max ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`);
const rps = (s: Spread) => spread(s, count);
const ms = (s: Spread) => spread(s, (n) => n.toFixed(2));
const mb = (s: Spread) => spread(s, (n) => String(Math.round(n)));
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');

function buildTable(results: BenchResults): string[] {
  const builds = Object.values(results.build).sort((a, b) => a.records - b.records);
  return [
    '| records | compile (content → image → page-one files) | whole `astro build` | peak RSS of the build | image size | measured |',
    '| ---: | ---: | ---: | ---: | ---: | --- |',
    ...builds.map((b) => `| ${count(b.records)} | ${b.compileSeconds.toFixed(2)} s | ${b.buildSeconds.toFixed(2)} s | ${count(b.peakRssMb)} MB | ${b.imageMb.toFixed(1)} MB | ${b.date}, node ${b.node}, ${b.machine} |`),
  ];
}

function loadTables(load: LoadResults): string[] {
  const byId = new Map(load.rows.map((r) => [r.id, r]));
  const versusRest = (r: TargetRow) => {
    const rest = r.sameQuestionAs === undefined ? undefined : byId.get(r.sameQuestionAs);
    return rest ? `${ratio(r.warm.rps.median, rest.warm.rps.median)} / ${ratio(r.cold.rps.median, rest.cold.rps.median)} (${rest.label})` : '';
  };
  const cpuUs = (r: TargetRow) => [r.warm, r.cold, r.bare].map((f) => (f.cpuUs === undefined ? '—' : f.cpuUs.median.toFixed(1))).join(' / ');
  const failures = (r: TargetRow) => [r.warm, r.cold, r.bare].reduce((n, f) => n + f.non2xx + f.errors, 0);
  const nginx = load.rows.find((r) => r.nginx !== undefined)?.nginx;
  return [
    `${count(load.records)} generated records (${load.collection}: ${count(load.collectionRecords)}), ${load.date}, node ${load.node}, ${load.machine}; ${load.loadGenerator}, ${load.connections} connections, ${load.seconds} s per run; each target alone, ${load.runs} runs, median (min–max). *Caches*: the server as deployed, answer and page caches on; *cold*: both off, so every request does its work.`,
    '',
    '| request | body bytes | req/s, caches | req/s, cold | bare node:http req/s | ÷ bare, caches / cold | ÷ REST for the same question, caches / cold (target ≥ 0.5) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...load.rows.map((r) => `| ${r.label} | ${count(r.bodyBytes)} | ${rps(r.warm.rps)} | ${rps(r.cold.rps)} | ${rps(r.bare.rps)} | ${ratio(r.warm.rps.median, r.bare.rps.median)} / ${ratio(r.cold.rps.median, r.bare.rps.median)} | ${versusRest(r)} |`),
    '',
    ...headerCostLines(load),
    '| request | p50 ms, caches | p50 ms, cold | p99 ms, caches | p99 ms, cold | server RSS under load MB, caches / cold | CPU µs per answer, caches / cold / bare | non-2xx and errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...load.rows.map((r) => `| ${r.label} | ${ms(r.warm.p50Ms)} | ${ms(r.cold.p50Ms)} | ${ms(r.warm.p99Ms)} | ${ms(r.cold.p99Ms)} | ${mb(r.warm.rssMb)} / ${mb(r.cold.rssMb)} | ${cpuUs(r)} | ${failures(r)} |`),
    '',
    nginx === undefined
      ? 'nginx serving the same static file (the static limit): no static target in this run.'
      : nginx === 'absent'
      ? 'nginx serving the same static file (the static limit): not installed on the machine of this run.'
      : `nginx serving the same static file (the static limit): ${rps(nginx.rps)} req/s, p50 ${ms(nginx.p50Ms)} ms, p99 ${ms(nginx.p99Ms)} ms.`,
    '',
    ...sqlRefusals(load.rows),
    '| request | what is sent |',
    '| --- | --- |',
    // Markdown would take `<id>` or `a < b` for HTML, and `|` for a cell's end.
    ...load.rows.map((r) => `| ${r.label} | ${r.request.replaceAll('<', '&lt;').replaceAll('|', '\\|')} |`),
  ];
}

/** The header block's own cost, so the runtime's cost shows apart from it (issue 31). */
function headerCostLines(load: LoadResults): string[] {
  const cost = load.headerCost;
  const page = load.rows.find((r) => r.id === 'rest-page-one');
  if (cost === undefined || page === undefined) return [];
  return [
    `The header block alone: a bare node:http server sending REST page one's exact ${cost.headers} headers (${count(cost.headerBytes)} bytes) and body answers ${count(cost.headersRps)} req/s, ${ratio(cost.headersRps, cost.bareRps)} of the same server sending the body with two headers (${count(cost.bareRps)} req/s, medians of ${load.runs} alternating runs). REST page one with caches is ${ratio(page.warm.rps.median, cost.headersRps)} of the server sending its exact bytes through \`writeHead\`, which checks and joins every field on every answer; the runtime writes the fields a remembered answer keeps as serialized once (src/runtime/node.ts), so this ratio may pass 1.`,
    '',
  ];
}

/** The SQL targets' refusals (sql-busy, sql-client-busy, any other non-2xx) of all the requests they sent, caches on and off. */
function sqlRefusals(rows: readonly TargetRow[]): string[] {
  const sql = rows.filter((r) => r.id === 'sql' || r.id.startsWith('sql-'));
  if (sql.length === 0) return [];
  const refused = (f: LoadFigures) => `${count(f.non2xx + f.errors)} of ${count(f.requests)} (${f.requests > 0 ? (((f.non2xx + f.errors) / f.requests) * 100).toFixed(1) : '—'} %)`;
  return [
    '| SQL load (the SPEC example statement) | req/s, caches | refused, caches | refused, cold |',
    '| --- | ---: | ---: | ---: |',
    ...sql.map((r) => `| ${r.label} | ${rps(r.warm.rps)} | ${refused(r.warm)} | ${refused(r.cold)} |`),
    '',
  ];
}

/** `npm run bench:cold`'s table: each cold answer beside the statements it runs, and their ratio (issue 42: at most 2). */
export function coldTable(cold: ColdResults): string[] {
  const us = (s: Spread) => spread(s, (n) => n.toFixed(1));
  return [
    `${count(cold.records)} generated records (${cold.collection}), ${cold.date}, node ${cold.node}, ${cold.machine}; in process, answer and page caches off, CPU µs per answer, median (min–max) of ${cold.rounds} alternating rounds. *Statements*: the SQLite statements the answer ran, captured from its code path and run alone with the same parameters, prepared: the floor no answer can beat.`,
    '',
    '| request | statements per answer | answer µs | statements µs | answer ÷ statements (target ≤ 2) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...cold.rows.map((r) => `| ${r.label} | ${r.statements} | ${us(r.answerUs)} | ${us(r.statementsUs)} | ${ratio(r.answerUs.median, r.statementsUs.median)} |`),
  ];
}

/** The generated Markdown: a warning when the results are not the record, the load tables, the build table (the targets are src/compile/docs/bench-targets.ts). */
export function benchTables(results: BenchResults): string {
  return [
    ...(results.note ? [`**${results.note}**`, ''] : []),
    ...(results.load ? [...loadTables(results.load), ''] : []),
    ...buildTable(results),
  ].join('\n');
}
