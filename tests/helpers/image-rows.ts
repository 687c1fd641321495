/**
 * An image's rows as a comparable value: what an incremental rebuild must agree on with
 * a full build of the same content. Rids and positions are physical numbers whose only
 * promise is their order, so each table is listed in rid order without them (filter values
 * by the canonicalId of their record), and a collection's canonicalIds once more in
 * position order; the meta values and the sources exactly. The full-text
 * indexes are checked against their tables by FTS5's own integrity check.
 */
import { DatabaseSync } from 'node:sqlite';
import { collections } from '../../src/collections/index.ts';
import { recordsTable, searchTable, SOURCES_TABLE, tagsTable } from '../../src/core/image.ts';
import { SEARCH_INDEX, SEARCH_TABLE } from '../../src/core/search.ts';

export interface ImageRows {
  meta: Record<string, string>;
  tables: Record<string, unknown[]>;
}

export function imageRows(path: string): ImageRows {
  // Writable only because FTS5's integrity check is spelled as an INSERT; nothing is written.
  const db = new DatabaseSync(path);
  try {
    const all = (sql: string) => db.prepare(sql).all() as Record<string, unknown>[];
    const meta = Object.fromEntries(all('SELECT key, value FROM meta ORDER BY key').map((r) => [r.key, r.value])) as Record<string, string>;
    const tables: Record<string, unknown[]> = {};
    for (const c of collections) {
      tables[c.name] = all(`SELECT * FROM ${recordsTable(c.name)} ORDER BY rid`).map(({ rid: _rid, pos: _pos, ...rest }) => rest);
      // Positions, like rids, promise only their order: the default order.
      tables[`${c.name}:positions`] = all(`SELECT cid FROM ${recordsTable(c.name)} ORDER BY pos`).map((r) => r.cid);
      tables[`${c.name}:tags`] = all(
        `SELECT r.cid AS cid, t.* FROM ${tagsTable(c.name)} AS t JOIN ${recordsTable(c.name)} AS r ON r.rid = t.rid ORDER BY t.dim, t.key, r.cid, t.label`,
      ).map(({ rid: _rid, ...rest }) => rest);
      const missing = all(`SELECT count(*) AS n FROM ${tagsTable(c.name)} WHERE rid NOT IN (SELECT rid FROM ${recordsTable(c.name)})`)[0]!.n;
      tables[`${c.name}:orphan-tags`] = [missing];
      db.exec(`INSERT INTO ${searchTable(c.name)} (${searchTable(c.name)}, rank) VALUES ('integrity-check', 1)`);
    }
    tables.search = all(`SELECT * FROM ${SEARCH_TABLE} ORDER BY rid`).map(({ rid: _rid, ...rest }) => rest);
    db.exec(`INSERT INTO ${SEARCH_INDEX} (${SEARCH_INDEX}, rank) VALUES ('integrity-check', 1)`);
    tables.sources = all(`SELECT * FROM ${SOURCES_TABLE} ORDER BY collection, cid`);
    return { meta, tables };
  } finally {
    db.close();
  }
}
