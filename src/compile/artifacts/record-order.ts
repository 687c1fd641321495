/**
 * Every record of a collection as JSON text, in the collection's default order: what the
 * whole-collection documents (the map exports, the calendars) are assembled from. A full
 * build reads them from the image (`QueryCore.all`). A rebuild under a running server
 * keeps them from one generation to the next and reads back only the records its edit
 * changed, each placed at its rank in the default order — the number of rows whose
 * position is below its own (positions number a collection's rows in that order:
 * src/core/image.ts) — so an edit of one concert reads one record and counts one index
 * range instead of reading every concert. The bytes are the same either way
 * (tests/compile/incremental.test.ts compares rebuilds with full builds). The same is kept
 * of the record sitemaps' lines, in canonicalId order (`SITEMAP_LINES`), so a record that
 * comes or goes costs one line, not fifty thousand URLs per sitemap file.
 *
 * Lists are kept for one build output: a rebuild starts from the output it follows
 * (`begin`), and what it reads is kept only once its image has committed (`commit`), as
 * the lists of the output it made; any other output (a failed rebuild, an adopted
 * release) finds nothing kept and reads whole.
 */
import { collection } from '../../collections/index.ts';
import { recordsTable } from '../../core/image.ts';
import { recordLine } from '../../site/sitemap.ts';
import { parseQuery } from '../../core/params.ts';
import type { QueryCore } from '../../core/query.ts';

interface Order {
  ids: string[];
  values: string[];
}

/** A kind of kept list: how it is read whole, and where one record stands in it and what it shows. */
export interface ListKind {
  name: string;
  whole(core: QueryCore, collection: string): Order;
  /** The record's rank in the list as `core`'s image holds it, and its value; undefined when the image does not hold it. */
  place(core: QueryCore, collection: string, id: string): { at: number; value: string } | undefined;
}

/**
 * Above this many changed records in one collection the list is read whole: each change
 * costs a lookup, an index count and an array splice, and a bulk edit (a folder renamed,
 * an import) is cheaper to read once.
 */
const MOST_PATCHED = 2000;

const idOf = (text: string) => /^\{"canonicalId":"([^"]+)"/.exec(text)?.[1] ?? String((JSON.parse(text) as { canonicalId: unknown }).canonicalId);

/** Every record's published JSON, in the collection's default order (the order of `pos`). */
export const DEFAULT_ORDER: ListKind = {
  name: 'default order',
  whole: (core, name) => {
    const values = [...core.all(parseQuery(collection(name)!, new URLSearchParams()))];
    return { ids: values.map(idOf), values };
  },
  place: (core, name, id) => {
    const table = recordsTable(name);
    const found = core.image.statement(`SELECT pos, json FROM ${table} WHERE cid = ?`).get(id) as { pos: number; json: string } | undefined;
    if (found === undefined) return undefined;
    const { n } = core.image.statement(`SELECT count(*) AS n FROM ${table} WHERE pos < ?`).get(found.pos) as { n: number };
    return { at: Number(n), value: found.json };
  },
};

/** Every record's line in the record sitemaps, in canonicalId order (src/site/sitemap.ts). */
export const SITEMAP_LINES: ListKind = {
  name: 'sitemap lines',
  whole: (core, name) => {
    const ids = (core.image.statement(`SELECT cid FROM ${recordsTable(name)} ORDER BY cid`).all() as { cid: string }[]).map((r) => r.cid);
    return { ids, values: ids.map((id) => recordLine(core.image.siteUrl, name, id)) };
  },
  place: (core, name, id) => {
    const table = recordsTable(name);
    if (core.image.statement(`SELECT 1 AS x FROM ${table} WHERE cid = ?`).get(id) === undefined) return undefined;
    const { n } = core.image.statement(`SELECT count(*) AS n FROM ${table} WHERE cid < ?`).get(id) as { n: number };
    return { at: Number(n), value: recordLine(core.image.siteUrl, name, id) };
  },
};

/** `kept` with the records `changed` read again from `core`'s image: removed ones dropped, the others (re)placed at their rank. */
function patched(kind: ListKind, core: QueryCore, name: string, kept: Order, changed: ReadonlySet<string>): Order {
  const ids: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < kept.ids.length; i++) {
    if (changed.has(kept.ids[i]!)) continue;
    ids.push(kept.ids[i]!);
    values.push(kept.values[i]!);
  }
  const placed: { at: number; id: string; value: string }[] = [];
  for (const id of changed) {
    const found = kind.place(core, name, id);
    if (found) placed.push({ ...found, id });
  }
  // In rank order, each insert has every row before it in place already.
  placed.sort((a, b) => a.at - b.at);
  for (const { at, id, value } of placed) {
    ids.splice(at, 0, id);
    values.splice(at, 0, value);
  }
  return { ids, values };
}

const keyOf = (kind: ListKind, name: string) => `${kind.name}\u0000${name}`;

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

  /** The records of `name` in default order (their published JSON) as `core`'s image holds them. */
  texts(core: QueryCore, name: string): readonly string[] {
    return this.list(core, name, DEFAULT_ORDER);
  }

  /** The list of `kind` of the collection `name` as `core`'s image holds it. */
  list(core: QueryCore, name: string, kind: ListKind): readonly string[] {
    const rebuild = this.rebuild;
    const key = keyOf(kind, name);
    if (rebuild !== undefined && core === rebuild.core) {
      let order = rebuild.staged.get(key);
      if (order === undefined) {
        const kept = this.kept.get(key);
        const changed = rebuild.changed.get(name);
        if (kept === undefined || (changed?.size ?? 0) > MOST_PATCHED) order = kind.whole(core, name);
        else order = changed === undefined || changed.size === 0 ? kept : patched(kind, core, name, kept, changed);
        rebuild.staged.set(key, order);
      }
      return order.values;
    }
    if (rebuild === undefined && core === this.baseCore) {
      let order = this.kept.get(key);
      if (order === undefined) this.kept.set(key, (order = kind.whole(core, name)));
      return order.values;
    }
    return kind.whole(core, name).values;
  }

  /** The rebuild's image committed as the output `built`: what it read is kept for it. */
  commit(built: Output): void {
    const rebuild = this.rebuild;
    this.rebuild = undefined;
    if (rebuild === undefined) return;
    // A list whose collection the rebuild changed without reading it is stale.
    for (const key of [...this.kept.keys()]) {
      const name = key.slice(key.indexOf('\u0000') + 1);
      if ((rebuild.changed.get(name)?.size ?? 0) > 0 && !rebuild.staged.has(key)) this.kept.delete(key);
    }
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
