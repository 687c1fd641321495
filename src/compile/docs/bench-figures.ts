/**
 * The figures every section of `bench/results.json` shares: a spread over runs, and where
 * a section was measured. Their own module, so the README's tables (src/compile/docs/bench-readme.ts)
 * and the replica tables (src/compile/docs/bench-replicas.ts) both read them without importing
 * each other.
 */

/** A figure over the runs of one target: the median and the spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Where and with what a section of the results was measured. */
export interface RunFacts {
  date: string;
  node: string;
  machine: string;
}
