/**
 * `bench/results.json`, the record of a benchmark run: figures over runs reduced to a
 * median and a spread, the file merged section by section (a 1M `--build-only` run adds
 * its build figures beside the 100k ones and leaves the load figures alone; the dev loop's
 * figures merge by record count too) and written
 * with sorted keys, so the same figures are always the same bytes.
 */
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { BENCH_RESULTS_PATH, readBenchResults, type BenchResults, type LoadFigures, type RunFacts, type Spread } from '../src/compile/docs/bench-readme.ts';
import type { Loaded } from './load.ts';

export const RESULTS_PATH = BENCH_RESULTS_PATH;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function spread(values: readonly number[], digits: number): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: round(median, digits), min: round(sorted[0]!, digits), max: round(sorted.at(-1)!, digits) };
}

/** One measured pass: the load generator's figures, the server's peak RSS and, where counted, its CPU time per answer. */
export type Measured = Loaded & { rssMb: number; cpuUs?: number };

/** One figure of every run, as its median and range. */
export const spreadOf = <T>(runs: readonly T[], figure: (run: T) => number, digits: number): Spread => spread(runs.map(figure), digits);

/** One count summed over every run. */
export const total = <T>(runs: readonly T[], count: (run: T) => number): number => runs.reduce((n, r) => n + count(r), 0);

/** One target's runs, each with the peak RSS sampled under its load. */
export function figures(runs: readonly Measured[]): LoadFigures {
  const cpu = runs.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
  return {
    rps: spreadOf(runs, (r) => r.rps, 0),
    ...(cpu.length === runs.length && cpu.length > 0 ? { cpuUs: spread(cpu, 1) } : {}),
    p50Ms: spreadOf(runs, (r) => r.p50Ms, 2),
    p99Ms: spreadOf(runs, (r) => r.p99Ms, 2),
    rssMb: spreadOf(runs, (r) => r.rssMb, 0),
    requests: total(runs, (r) => r.requests),
    non2xx: total(runs, (r) => r.non2xx),
    errors: total(runs, (r) => r.errors),
  };
}

/** The machine, Node and date of this run. */
export function runFacts(): RunFacts {
  const cores = cpus();
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    machine: `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB`,
  };
}

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;

/** Merges `update` into the file at `path` section by section; `note: undefined` removes a note. */
export function writeResults(path: string, update: Partial<BenchResults>): BenchResults {
  const old = readBenchResults(path);
  const merged: BenchResults = { ...old, ...update, build: { ...old.build, ...update.build } };
  if (old.rebuild || update.rebuild) merged.rebuild = { ...old.rebuild, ...update.rebuild };
  if ('note' in update && update.note === undefined) delete merged.note;
  writeFileSync(path, `${JSON.stringify(sorted(merged), null, 2)}\n`);
  return merged;
}
