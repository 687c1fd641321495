/**
 * Bounded in-process caches, all accounted the same way. Every long-lived map of the
 * runtime — list answers, counts and facets, prepared statements, checked GraphQL
 * documents, rate-limit counters, taste summaries — is a `BoundedCache`: each entry is
 * charged what it really holds (its key as UTF-16, the bytes its value reports, and a
 * measured fixed overhead for the map slot and bookkeeping), the total never exceeds the
 * byte budget, and the least recently used entries go first. A flood of distinct keys
 * therefore costs memory only up to the budget, whatever the keys and values look like.
 */

/**
 * Bytes one cache entry holds beyond its key's characters and its value's own bytes: the
 * Map's hash-table slot (up to twice its share just after the table grows), the entry
 * record `{key, value, bytes}`, a heap number, and the key string's header and slice
 * node (`ownedString`). Measured on Node 24 (x64, `node --expose-gc`, heap used +
 * external after a full GC, `process.memoryUsage()`): 65,536, 100,000 and 131,000
 * entries of a `BoundedCache<number>` keyed like the answer cache
 * (`application/json movies?q=…`, 8 or 190 random characters, built per entry) hold
 * 147–157 bytes each beyond the keys' one-byte characters. `stringBytes` charges the
 * key's header apart (24), so 160 here.
 */
export const ENTRY_OVERHEAD_BYTES = 160;

/** Heap bytes of a small JavaScript object or array header with a few fields (V8, x64: map, properties, elements, 2–3 slots). */
export const OBJECT_BYTES = 48;

/**
 * Heap bytes of a string's characters, counted as UTF-16 (V8 stores Latin-1 text in one
 * byte a character, so this is an upper bound), plus its header.
 */
export const stringBytes = (text: string): number => 24 + 2 * text.length;

/**
 * The text as a string holding only its own characters, for keys a cache keeps. A string
 * built piece by piece is a rope of one node per piece (Node's URLSearchParams serializer
 * appends every percent-escape: a 1,300-character key of non-Latin text held 11 kB), and
 * a slice keeps the whole string it was cut from (a client address cut from a long
 * `X-Forwarded-For`); a Map keeps either as it is. Prefixing and slicing again makes V8
 * copy the characters into one new string (measured: 11 kB → 1.4 kB, 8 kB → 75 bytes).
 */
export const ownedString = (text: string): string => ` ${text}`.slice(1);

export interface CacheBudget<V> {
  /** Bytes the cache may hold, entries and overheads included; 0 remembers nothing. */
  bytes: number;
  /** At most this many entries, whatever their size (optional second bound). */
  entries?: number;
  /** Bytes a value holds beyond the entry overhead and its key's characters (objects, strings, buffers it owns). */
  valueBytes: (value: V, key: string) => number;
}

/**
 * A string-keyed map bounded by a byte budget (and optionally an entry count), least
 * recently used first out. An entry larger than the whole budget is never stored.
 */
export class BoundedCache<V> {
  /** Each entry keeps its own copy of its key, so refreshing its recency never stores the caller's string instead. */
  private readonly entries = new Map<string, { key: string; value: V; bytes: number }>();
  private held = 0;
  /** The most recently used entry: getting it again changes no order, so it is not moved (a Map delete and insert per hit was a tenth of a remembered answer's cost). */
  private newest: { key: string; value: V; bytes: number } | undefined;
  private readonly budget: CacheBudget<V>;

  constructor(budget: CacheBudget<V>) {
    this.budget = budget;
  }

  /** The value remembered for `key`, now the most recently used; undefined if there is none. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry !== this.newest) {
      this.entries.delete(key);
      this.entries.set(entry.key, entry);
      this.newest = entry;
    }
    return entry.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Remembers `value` (replacing any value of `key`), evicting the least recently used until it fits. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = ENTRY_OVERHEAD_BYTES + stringBytes(key) + this.budget.valueBytes(value, key);
    const maxEntries = this.budget.entries ?? Number.POSITIVE_INFINITY;
    if (bytes > this.budget.bytes || maxEntries < 1) return;
    for (const [oldest, old] of this.entries) {
      if (this.held + bytes <= this.budget.bytes && this.entries.size < maxEntries) break;
      this.entries.delete(oldest);
      this.held -= old.bytes;
    }
    const owned = ownedString(key);
    this.newest = { key: owned, value, bytes };
    this.entries.set(owned, this.newest);
    this.held += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    if (entry === this.newest) this.newest = undefined;
    this.held -= entry.bytes;
  }

  /** Bytes accounted to the entries held now; never more than the budget. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A bounded memo of a pure function of text: checked SQL statements, validated GraphQL
 * documents. At most `max` distinct keys are kept, least recently used dropped first, and
 * — given a byte budget — at most that many bytes, so a flood of distinct inputs costs
 * memory only up to the bounds. `max` 0 remembers nothing.
 */
export class BoundedMemo<V> {
  private readonly cache: BoundedCache<V>;
  private readonly compute: (key: string) => V;

  /** Without `budget`, entries are charged their key and overhead only, with no byte bound. */
  constructor(max: number, compute: (key: string) => V, budget?: Omit<CacheBudget<V>, 'entries'>) {
    this.cache = new BoundedCache({ bytes: budget?.bytes ?? Number.POSITIVE_INFINITY, entries: max, valueBytes: budget?.valueBytes ?? (() => 0) });
    this.compute = compute;
  }

  get(key: string): V {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const value = this.compute(key);
    this.cache.set(key, value);
    return value;
  }

  /** Bytes accounted to what the memo holds now. */
  get bytes(): number {
    return this.cache.bytes;
  }
}
