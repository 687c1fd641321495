/**
 * Every bound of the public read surfaces, in one place. Each input is checked against
 * these before any work is done, and a breach names the limit it broke. Units are in the
 * names; the comment on each says what it protects and why the value.
 */
export const LIMITS = {
  /** Items per page when `limit` is absent (SPEC §4.1). */
  pageSizeDefault: 50,
  /** Largest page (SPEC §4.1, §8): bounds rows read and bytes encoded per request. */
  pageSizeMax: 100,
  /** Raw query string length in bytes: no legitimate query needs more; stops parsing-cost attacks. */
  queryStringBytesMax: 4096,
  /** Length of one filter value in characters: names and titles are shorter; bounds fold/compare work. */
  filterValueCharsMax: 200,
  /** Length of `q` in characters: a substring search longer than this is not a search. */
  searchCharsMax: 200,
  /** Length of a cursor token in characters: real cursors are a few hundred; bounds decode work. */
  cursorCharsMax: 1024,
  /** Keys in a `sort` list: each adds a comparison per row; four covers every real ordering. */
  sortKeysMax: 4,
  /** Values listed per facet dimension, most frequent first: keeps `meta.facets` small on wide fields. */
  facetValuesMax: 50,
  /** Distinct (collection, filter) results whose counts and facets are remembered; bounds memory. */
  countCacheEntries: 5000,
} as const;
