/**
 * How an import says no. `ImportRefused` stops the whole import with nothing written: an
 * export that is not the one named, a bad archive, a breached limit, or the list of every
 * record that fails its collection's schema (each naming the export's file, row and
 * field, as the build names a content file's entry and field).
 */
export interface ImportProblem {
  /** Where in the export: `diary.csv row 4`, `data/tweets.js[12]`. */
  origin: string;
  field: string;
  reason: string;
}

export class ImportRefused extends Error {
  readonly problems: readonly ImportProblem[];
  constructor(message: string, problems: readonly ImportProblem[] = []) {
    super(message);
    this.problems = problems;
  }
}

/** The refusal as the owner reads it: the message, then one line per problem. */
export function describeRefusal(error: ImportRefused): string {
  return [error.message, ...error.problems.map((p) => `  ${p.origin}: ${p.field}: ${p.reason}`)].join('\n');
}
