/**
 * The SQL image: a separate SQLite database, built at compile time from the published
 * writing records, holding exactly the three public relations and nothing else (no
 * owner records, no other collection). Rows are inserted in a fixed order (writing by
 * canonical_id; the information_schema ones by schema, table and position), so the same
 * records always give the same bytes. Tags are stored as JSON array text; date columns
 * are indexed.
 */
import { SQL } from './engine.ts';
import { RELATIONS, type SqlRelation } from './relations.ts';

const AFFINITY: Record<string, string> = { integer: 'INTEGER', real: 'REAL' };

function createTable(relation: SqlRelation): string {
  const columns = relation.columns.map((c) => `"${c.name}" ${AFFINITY[c.type] ?? 'TEXT'}${c.nullable ? '' : ' NOT NULL'}`);
  return `CREATE TABLE "${relation.physical}" (${columns.join(', ')})`;
}

function cellOf(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) || typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as string | number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function rowsOf(relation: SqlRelation, writing: readonly Record<string, unknown>[]): (string | number | null)[][] {
  if (relation.name === 'writing') {
    return [...writing]
      .sort((a, b) => compare(String(a.canonicalId), String(b.canonicalId)))
      .map((record) => relation.columns.map((c) => cellOf(record[c.field!])));
  }
  if (relation.name === 'tables') return RELATIONS.map((r) => [r.schema, r.name, r.kind]);
  return RELATIONS.flatMap((r) => r.columns.map((c, i) => [r.schema, r.name, c.name, i + 1, c.type, c.nullable ? 'YES' : 'NO']));
}

export function sqlImageBytes(writing: readonly Record<string, unknown>[]): Uint8Array {
  const db = new SQL.Database();
  try {
    db.run('BEGIN');
    for (const relation of RELATIONS) {
      db.run(createTable(relation));
      const insert = db.prepare(`INSERT INTO "${relation.physical}" VALUES (${relation.columns.map(() => '?').join(', ')})`);
      for (const row of rowsOf(relation, writing)) insert.run(row);
      insert.free();
      // The date orders the usual question ("the latest ten"): an index turns its sort
      // over every row into a walk of the first rows.
      for (const column of relation.columns.filter((c) => c.type === 'date'))
        db.run(`CREATE INDEX "${relation.physical}:${column.name}" ON "${relation.physical}" ("${column.name}")`);
    }
    db.run('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}
