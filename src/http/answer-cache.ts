/**
 * Remembered list answers. The image never changes under a running process, so the
 * answer to a canonical query (collection, filters, search, sort, size, cursor) is a
 * pure function of it: computing it once and replaying the bytes is exact, not an
 * approximation. Least recently used entries go first once the byte budget is spent;
 * a budget of 0 turns the cache off (the benchmark measures both).
 *
 * An answer is remembered from the second time its query is asked: a fixed table of key
 * hashes (the doorkeeper of TinyLFU) notes first requests. A flood of distinct queries is
 * then never admitted, so it neither evicts the answers real traffic repeats nor churns
 * memory (each admitted-then-evicted answer is old-generation garbage, and its body
 * native memory V8 collects late): measured, see bench/flood.ts.
 *
 * An entry is charged everything it keeps alive: the key, the body's bytes, every header
 * name and value, and the objects around them (src/core/memo.ts). Bodies are kept as
 * rendered: a small one is a slice of Node's 8 KiB Buffer pool, which consecutive answers
 * fill together; copying each into a buffer of its own was measured to cost more (a
 * malloc per body, freed out of order: 4–8 MB more RSS after 60,000 distinct searches at
 * the default 32 MiB).
 */
import { LIMITS } from '../core/limits.ts';
import { BoundedCache, stringBytes } from '../core/memo.ts';
import type { ListAnswer } from './list.ts';

/**
 * Bytes an answer holds beyond its body bytes and header strings: the answer record, the
 * headers object with its 16 properties, the Buffer view and its share of the pool slab's
 * bookkeeping. Measured on Node 24 (x64, `--expose-gc --max-semi-space-size=4`, heap
 * used + external after a full GC): 100,000 list answers shaped like the runtime's (a
 * 533-byte body from `Buffer.from`, the list headers) hold 331 bytes each beyond the
 * body; rounded up for the slack of partly filled pool slabs.
 */
export const ANSWER_OVERHEAD_BYTES = 384;

/**
 * What one answer holds, as the cache charges it: body bytes, every header name and value
 * as UTF-16, and the fixed overhead. Header names and the values every answer shares
 * (`COMMON_HEADERS`) are held once in fact, so this overstates (2–2.5 times the measured
 * heap of an answer to a distinct search), never understates.
 */
export function answerBytes(answer: ListAnswer): number {
  let bytes = ANSWER_OVERHEAD_BYTES + answer.body.byteLength;
  for (const name in answer.headers) bytes += stringBytes(name) + stringBytes(answer.headers[name]!);
  return bytes;
}

/** FNV-1a over the key's UTF-16 code units, never 0 (0 marks an empty slot). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}

/** Remembered answers of one kind: list answers by default, or any value with a function that says what it holds. */
export class AnswerCache<V = ListAnswer> {
  private readonly entries: BoundedCache<V>;
  /** Hashes of keys asked for once, by slot; a power of two long, or empty to admit every answer at once. */
  private readonly seen: Uint32Array;
  /** A budget of 0: nothing is noted or weighed (a cold answer hashed its key and summed its headers only to be refused). */
  private readonly off: boolean;

  /** `admissionSlots` 0 remembers answers from their first request (tests of eviction use it). */
  constructor(
    budgetBytes: number,
    admissionSlots: number = LIMITS.answerCacheAdmissionSlots,
    valueBytes: (value: V) => number = answerBytes as unknown as (value: V) => number,
  ) {
    this.entries = new BoundedCache({ bytes: budgetBytes, valueBytes });
    this.off = !(budgetBytes > 0);
    this.seen = new Uint32Array(admissionSlots > 0 ? 2 ** Math.ceil(Math.log2(admissionSlots)) : 0);
  }

  /** Whether the key was asked for before (recently enough to still be in its slot); notes it if not. */
  private admit(key: string): boolean {
    if (this.seen.length === 0) return true;
    const hash = keyHash(key);
    const slot = hash & (this.seen.length - 1);
    if (this.seen[slot] === hash) return true;
    this.seen[slot] = hash;
    return false;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Remembers an answer asked for the second time, unless it is already held or larger than the whole budget. */
  set(key: string, answer: V): void {
    if (this.off || this.entries.has(key) || !this.admit(key)) return;
    this.entries.set(key, answer);
  }

  /** Bytes accounted to the answers held now; never more than the budget. */
  get bytes(): number {
    return this.entries.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
