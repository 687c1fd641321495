/**
 * The dev loop's figures in `bench/results.json` (`npm run bench -- --only rebuild`, and
 * the end of a full run): per record count, each edit timed from the file's write to every
 * surface answering the new data, beside the server's own figure. Rendered into
 * docs/dev-loop.md between its `bench-loop` markers, so the loop's figures are those of a
 * recorded run, as the load tables are.
 */
import type { RunFacts } from './bench-figures.ts';

/** One edit of the loop (bench/rebuild.ts). */
export interface LoopEdit {
  label: string;
  /** File written → every surface that shows the record answers the new data. */
  ms: number;
  /** The server's own figure: content change seen → new generation serving. */
  serverMs: number;
  /** The documents whose bytes changed, as the server logged them. */
  changed: string;
}

export interface LoopFigures extends RunFacts {
  records: number;
  edits: LoopEdit[];
}

/** Keyed by the number of records generated. */
export type LoopResults = Record<string, LoopFigures>;

const count = (n: number) => Math.round(n).toLocaleString('en');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The slowest edit of a record count: what "a saved edit is served everywhere in ≤ 2 s" is judged on. */
export const slowestEditMs = (figures: LoopFigures | undefined): number | undefined =>
  figures === undefined || figures.edits.length === 0 ? undefined : Math.max(...figures.edits.map((e) => e.ms));

export function loopTables(loop: LoopResults | undefined): string {
  const runs = Object.values(loop ?? {}).sort((a, b) => a.records - b.records);
  if (runs.length === 0) return 'No dev-loop figures recorded yet: `npm run bench -- --only rebuild`.';
  return runs
    .flatMap((r) => [
      `${count(r.records)} records, ${r.date}, node ${r.node}, ${r.machine}:`,
      '',
      `| edit | save → every surface answers | server: change seen → serving | documents whose bytes changed |`,
      '| --- | ---: | ---: | --- |',
      ...r.edits.map((e) => `| ${e.label} | ${seconds(e.ms)} | ${seconds(e.serverMs)} | ${e.changed.split(' ').filter(Boolean).map((p) => `\`${p}\``).join(' ')} |`),
      '',
    ])
    .join('\n')
    .trimEnd();
}
