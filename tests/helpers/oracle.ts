/**
 * An independent reading of the image for tests: every record of a collection as plain
 * objects, and the answer a query should give computed in JavaScript from those records
 * (filter, search, order), to compare against what the SQL core returns.
 */
import { DatabaseSync } from 'node:sqlite';
import type { CollectionDeclaration, SortKey } from '../../src/collections/define.ts';
import { fold } from '../../src/core/fold.ts';
import { instantKey, sortKey } from '../../src/core/image.ts';

export type Item = Record<string, unknown> & { canonicalId: string };

export function allItems(imagePath: string, collection: string): Item[] {
  const db = new DatabaseSync(imagePath, { readOnly: true });
  try {
    return (db.prepare(`SELECT json FROM "${collection}"`).all() as { json: string }[]).map((r) => JSON.parse(r.json) as Item);
  } finally {
    db.close();
  }
}

const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

export interface OracleQuery {
  filters: Record<string, string>;
  q?: string;
  sort: readonly SortKey[];
}

function compare(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

export function expectedIds(collection: CollectionDeclaration, items: readonly Item[], query: OracleQuery): string[] {
  const matching = items.filter((item) => {
    for (const [param, value] of Object.entries(query.filters)) {
      const spec = collection.filters[param]!;
      if (spec.kind.type === 'since') {
        if (!(String(sortKey('date', item[spec.field])) >= instantKey(value.trim()))) return false;
        continue;
      }
      // Several values of a repeatable filter are joined by U+0001: any may match.
      const wanted = value.split('\u0001').map((v) => fold(v.trim()));
      if (!values(item[spec.field]).some((v) => wanted.includes(fold(String(v))))) return false;
    }
    if (query.q) {
      const text = collection.search
        .flatMap((f) => values(item[f]))
        .map((v) => fold(String(v)))
        .join('\n');
      if (!text.includes(fold(query.q.trim()))) return false;
    }
    return true;
  });
  const tie = query.sort[query.sort.length - 1]?.direction ?? 'asc';
  return matching
    .sort((a, b) => {
      for (const key of query.sort) {
        const type = collection.sort[key.field]!;
        const c = compare(sortKey(type, a[key.field]), sortKey(type, b[key.field]));
        if (c !== 0) return key.direction === 'asc' ? c : -c;
      }
      const c = compare(a.canonicalId, b.canonicalId);
      return tie === 'asc' ? c : -c;
    })
    .map((i) => i.canonicalId);
}
