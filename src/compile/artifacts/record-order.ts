/**
 * Every record of a collection as JSON text, in the collection's default order: what the
 * whole-collection documents (the map exports, the calendars) are assembled from. A full
 * build reads them from the image (`QueryCore.all`). A rebuild under a running server
 * keeps them from one generation to the next and reads back only the records its edit
 * changed, each placed at its rank in the default order — the number of rows whose
 * position is below its own (positions number a collection's rows in that order:
 * src/core/image.ts) — so an edit of one concert reads one record and counts one index
 * range instead of reading every concert. The bytes are the same either way
 * (tests/unit/incremental.test.ts compares rebuilds with full builds).
 *
 * Lists are kept for one build output: a rebuild starts from the output it follows
 * (`begin`), and what it reads is kept only once its image has committed (`commit`), as
 * the lists of the output it made; any other output (a failed rebuild, an adopted
 * release) finds nothing kept and reads whole.
 */
import { collection } from '../../collections/index.ts';
import { recordsTable } from '../../core/image.ts';
import { parseQuery } from '../../core/params.ts';
import type { QueryCore } from '../../core/query.ts';

interface Order {
  ids: string[];
  texts: string[];
}

/**
 * Above this many changed records in one collection the list is read whole: each change
 * costs a lookup, an index count and an array splice, and a bulk edit (a folder renamed,
 * an import) is cheaper to read once.
 */
const MOST_PATCHED = 2000;

const idOf = (text: string) => /^\{"canonicalId":"([^"]+)"/.exec(text)?.[1] ?? String((JSON.parse(text) as { canonicalId: unknown }).canonicalId);

function readWhole(core: QueryCore, name: string): Order {
  const texts = [...core.all(parseQuery(collection(name)!, new URLSearchParams()))];
  return { ids: texts.map(idOf), texts };
}

/** `kept` with the records `changed` read again from `core`'s image: removed ones dropped, the others (re)placed at their rank. */
function patched(core: QueryCore, name: string, kept: Order, changed: ReadonlySet<string>): Order {
  const ids: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < kept.ids.length; i++) {
    if (changed.has(kept.ids[i]!)) continue;
    ids.push(kept.ids[i]!);
    texts.push(kept.texts[i]!);
  }
  const table = recordsTable(name);
  const row = core.image.statement(`SELECT pos, json FROM ${table} WHERE cid = ?`);
  const rank = core.image.statement(`SELECT count(*) AS n FROM ${table} WHERE pos < ?`);
  const placed: { at: number; id: string; text: string }[] = [];
  for (const id of changed) {
    const found = row.get(id) as { pos: number; json: string } | undefined;
    if (found) placed.push({ at: Number((rank.get(found.pos) as { n: number }).n), id, text: found.json });
  }
  // In rank order, each insert has every row before it in place already.
  placed.sort((a, b) => a.at - b.at);
  for (const { at, id, text } of placed) {
    ids.splice(at, 0, id);
    texts.splice(at, 0, text);
  }
  return { ids, texts };
}

export class RecordOrders<Output = unknown> {
  private kept = new Map<string, Order>();
  /** The output the kept lists describe. */
  private base: Output | undefined;
  /** The core that reads `base`'s image outside a rebuild (`use`), whose reads are kept. */
  private baseCore: QueryCore | undefined;
  private rebuild: { core: QueryCore; changed: Map<string, Set<string>>; staged: Map<string, Order> } | undefined;

  /** Outside a rebuild: `core` reads the output `output`, and lists it reads are kept for it. */
  use(output: Output, core: QueryCore): void {
    if (this.rebuild !== undefined) return;
    if (this.base !== output) this.kept.clear();
    this.base = output;
    this.baseCore = core;
  }

  /** A rebuild of the output after `previous` starts: `core` reads its image, in which the records `changed` (canonicalIds by collection) differ. */
  begin(previous: Output, core: QueryCore, changed: ReadonlyMap<string, Iterable<string>>): void {
    if (this.base !== previous) this.kept.clear();
    this.base = previous;
    this.baseCore = undefined;
    this.rebuild = { core, changed: new Map([...changed].map(([name, ids]) => [name, new Set(ids)])), staged: new Map() };
  }

  /** The records of `name` in default order as `core`'s image holds them. */
  texts(core: QueryCore, name: string): readonly string[] {
    const rebuild = this.rebuild;
    if (rebuild !== undefined && core === rebuild.core) {
      let order = rebuild.staged.get(name);
      if (order === undefined) {
        const kept = this.kept.get(name);
        const changed = rebuild.changed.get(name);
        if (kept === undefined || (changed?.size ?? 0) > MOST_PATCHED) order = readWhole(core, name);
        else order = changed === undefined || changed.size === 0 ? kept : patched(core, name, kept, changed);
        rebuild.staged.set(name, order);
      }
      return order.texts;
    }
    if (rebuild === undefined && core === this.baseCore) {
      let order = this.kept.get(name);
      if (order === undefined) this.kept.set(name, (order = readWhole(core, name)));
      return order.texts;
    }
    return readWhole(core, name).texts;
  }

  /** The rebuild's image committed as the output `built`: what it read is kept for it. */
  commit(built: Output): void {
    const rebuild = this.rebuild;
    this.rebuild = undefined;
    if (rebuild === undefined) return;
    // A list the rebuild changed without reading it is stale.
    for (const [name, ids] of rebuild.changed) if (ids.size > 0 && !rebuild.staged.has(name)) this.kept.delete(name);
    for (const [name, order] of rebuild.staged) this.kept.set(name, order);
    this.base = built;
  }

  /** The rebuild failed: nothing it read is kept, nor anything before it (its image may be in either state). */
  abort(): void {
    this.rebuild = undefined;
    this.kept.clear();
    this.base = undefined;
    this.baseCore = undefined;
  }
}
