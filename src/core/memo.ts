/**
 * A bounded memo of a pure function of text: checked SQL statements, validated GraphQL
 * documents. The first `max` distinct keys are kept, oldest dropped first, so a flood of
 * distinct inputs costs memory only up to the bound. `max` 0 remembers nothing.
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();
  private readonly max: number;
  private readonly compute: (key: string) => V;

  constructor(max: number, compute: (key: string) => V) {
    this.max = max;
    this.compute = compute;
  }

  get(key: string): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = this.compute(key);
    if (this.max > 0) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
    }
    return value;
  }
}
