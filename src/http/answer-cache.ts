/**
 * Remembered list answers. The image never changes under a running process, so the
 * answer to a canonical query (collection, filters, search, sort, size, cursor) is a
 * pure function of it: computing it once and replaying the bytes is exact, not an
 * approximation. Least recently used entries go first once the byte budget is spent;
 * a budget of 0 turns the cache off (the benchmark measures both).
 */
import type { ListAnswer } from './list.ts';

export class AnswerCache {
  private readonly entries = new Map<string, ListAnswer>();
  private bytes = 0;
  private readonly budget: number;

  constructor(budgetBytes: number) {
    this.budget = budgetBytes;
  }

  get(key: string): ListAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, answer: ListAnswer): void {
    const size = answer.body.length + key.length;
    if (size > this.budget || this.entries.has(key)) return;
    this.entries.set(key, answer);
    this.bytes += size;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length + oldest.length;
    }
  }
}
