/**
 * Asking the trigram FTS5 indexes (each collection's `:fts` table and search's
 * `search:fts`) for a substring: whether the index can answer, and the search text as an
 * FTS5 string that no text can turn into query syntax.
 */

/** Trigram search needs three characters; shorter searches scan the folded text instead. */
export const TRIGRAM = 3;

/**
 * Whether the trigram index can answer a substring search for the folded `key`: three
 * characters at least, and no NUL, which FTS5 cannot hold in a string (the query-string
 * parsers refuse every control character; this keeps the core whole for any other caller,
 * which then gets the scan, the same substring test).
 */
export const indexable = (key: string): boolean => !key.includes('\u0000') && [...key].length >= TRIGRAM;

/**
 * `key` as one FTS5 string: in double quotes, inner quotes doubled, the only escape FTS5
 * strings have. Inside a string nothing is syntax — AND, OR, NOT, NEAR, `*`, `^`, `+`,
 * `-`, parentheses and `column:` filters are text — so it is one phrase, which the trigram
 * tokenizer matches as a substring. Callers check `indexable` first.
 */
export function ftsPhrase(key: string): string {
  if (!indexable(key)) throw new Error('ftsPhrase: the trigram index cannot answer this search; scan instead');
  return `"${key.replaceAll('"', '""')}"`;
}
