/**
 * The owner's files of the collection, indexed into the import's store: every record's
 * source ID, canonicalId (its identity), file and place, and the hashes of its item's
 * text — never the text, and one file in memory at a time. Matching (src/import/run.ts)
 * finds a record by its source ID (the first with it) else by its identity (the last),
 * as the frame always has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectionDeclaration } from '../collections/define.ts';
import { contentFiles, loadFile } from '../compile/content/load.ts';
import { identityOf, splitList } from '../compile/content/record-text.ts';
import type { ImportSource } from './source.ts';
import type { ImportStore } from './store.ts';
import { itemHashes } from './yaml-file.ts';

/** Indexes the collection's files into `store`; returns the files (relative to the collection's folder) that are YAML lists. */
export function indexExisting(contentDir: string, declaration: CollectionDeclaration, source: ImportSource, store: ImportStore): Set<string> {
  const folder = join(contentDir, declaration.name);
  const lists = new Set<string>();
  for (const path of contentFiles(folder)) {
    const file = path
      .slice(folder.length + 1)
      .split('\\')
      .join('/');
    const { entries } = loadFile(contentDir, path, '.');
    const list = !path.endsWith('.md') && entries.length > 0 && entries[0]!.origin.endsWith(']');
    let items: string[] = [];
    if (list || (!path.endsWith('.md') && entries.length === 0)) {
      lists.add(file);
      items = splitList(readFileSync(path, 'utf8')).items;
    }
    entries.forEach((e, i) => {
      if (typeof e.data !== 'object' || e.data === null) return;
      const { id: _, ...data } = e.data as Record<string, unknown>;
      const identity = identityOf(declaration, e.data as Record<string, unknown>, e.body);
      const item = list ? items[i] : undefined;
      store.addExisting(source.sourceIdOf(data), identity, {
        file,
        entry: list ? i : null,
        ...(item !== undefined ? { hashes: itemHashes(item) } : {}),
        ...(source.reusesRecords ? { fields: data } : {}),
      });
    });
  }
  return lists;
}
