/**
 * Remembered list answers. The image never changes under a running process, so the
 * answer to a canonical query (collection, filters, search, sort, size, cursor) is a
 * pure function of it: computing it once and replaying the bytes is exact, not an
 * approximation. Least recently used entries go first once the byte budget is spent;
 * a budget of 0 turns the cache off (the benchmark measures both).
 *
 * An entry is charged everything it keeps alive: the key, the body's bytes, every header
 * name and value, and the objects around them (src/core/memo.ts). Bodies are kept as
 * rendered: a small one is a slice of Node's 8 KiB Buffer pool, which consecutive answers
 * fill together; copying each into a buffer of its own was measured to cost more (a
 * malloc per body, freed out of order: 4–8 MB more RSS after 60,000 distinct searches at
 * the default 32 MiB).
 */
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

export class AnswerCache {
  private readonly entries: BoundedCache<ListAnswer>;

  constructor(budgetBytes: number) {
    this.entries = new BoundedCache({ bytes: budgetBytes, valueBytes: answerBytes });
  }

  get(key: string): ListAnswer | undefined {
    return this.entries.get(key);
  }

  /** Remembers an answer unless it is already held or larger than the whole budget. */
  set(key: string, answer: ListAnswer): void {
    if (this.entries.has(key)) return;
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
