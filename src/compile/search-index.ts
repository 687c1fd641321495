/**
 * Writing the cross-collection search index into the image: one row per published
 * record of every content collection (a blog post composed into writing is indexed once,
 * as a blog post), with its collection, year, date key, the folded text of each searched
 * field, and the hit as published; then a trigram index over the first searched field
 * (`head`) and all of them (`body`). Rows are numbered in canonicalId order, so ordering
 * ties by rid is ordering them by canonicalId, as in the collection tables.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { CollectionDeclaration } from '../collections/define.ts';
import { yearOf } from '../collections/fields.ts';
import { HAPPENED, headline, linkOf } from '../collections/headline.ts';
import { fold } from '../core/fold.ts';
import { sortKey } from '../core/image.ts';
import { SEARCH_INDEX, SEARCH_TABLE } from '../core/search.ts';
import type { PublishedRecord } from './records.ts';

export interface SearchSource {
  collection: CollectionDeclaration;
  records: readonly PublishedRecord[];
}

const folded = (value: unknown): string => (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => fold(String(v))).join('\n');

export function writeSearchIndex(db: DatabaseSync, sources: readonly SearchSource[], siteUrl: string): number {
  db.exec(`CREATE TABLE ${SEARCH_TABLE} (rid INTEGER PRIMARY KEY, cid TEXT NOT NULL, collection TEXT NOT NULL, year INTEGER, d TEXT NOT NULL, head TEXT NOT NULL, body TEXT NOT NULL, fields TEXT NOT NULL, json TEXT NOT NULL)`);
  const rows: { cid: string; values: (string | number | null)[] }[] = [];
  for (const { collection, records } of sources) {
    for (const { canonicalId, fields } of records) {
      const texts = collection.search.map((f) => [f, folded(fields[f])] as [string, string]);
      const date = HAPPENED[collection.name]?.(fields) ?? (typeof fields[collection.dateField] === 'string' ? String(fields[collection.dateField]) : undefined);
      const hit: Record<string, unknown> = { canonicalId, collection: collection.name, title: headline(collection.name, fields), url: linkOf(collection.name, fields, siteUrl) };
      if (date !== undefined) Object.assign(hit, { date, year: yearOf(date) });
      rows.push({
        cid: canonicalId,
        values: [canonicalId, collection.name, yearOf(date) ?? null, String(sortKey('date', date)), texts[0]?.[1] ?? '', texts.map(([, t]) => t).join('\n'), JSON.stringify(texts), JSON.stringify(hit)],
      });
    }
  }
  rows.sort((a, b) => (a.cid < b.cid ? -1 : 1));
  const insert = db.prepare(`INSERT INTO ${SEARCH_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  rows.forEach((row, i) => insert.run(i + 1, ...row.values));
  db.exec(`CREATE UNIQUE INDEX "search:cid" ON ${SEARCH_TABLE} (cid)`);
  db.exec(`CREATE INDEX "search:d" ON ${SEARCH_TABLE} (d, rid)`);
  db.exec(`CREATE INDEX "search:collection:d" ON ${SEARCH_TABLE} (collection, d, rid)`);
  db.exec(`CREATE VIRTUAL TABLE ${SEARCH_INDEX} USING fts5(head, body, tokenize = 'trigram case_sensitive 1', content = ${SEARCH_TABLE}, content_rowid = 'rid')`);
  db.exec(`INSERT INTO ${SEARCH_INDEX} (${SEARCH_INDEX}) VALUES ('rebuild')`);
  return rows.length;
}
