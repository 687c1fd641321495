/**
 * Where a new record of a collection goes, decided in one place for every writer. A
 * record that comes from a service (an importer or a sync, which declare a `Placement`)
 * goes into that service's YAML list of the collection (`movies/letterboxd-2024.yaml`) at
 * its sorted place, every other byte of the file kept; a record the owner adds by hand
 * through the owner lane or Micropub gets a file of its own named after its title
 * (`movies/heat.yaml`; `-2`, `-3`… when taken). Either way its text is the one rendering
 * (src/compile/content/render.ts): the list item and the single file are the same lines.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectionDeclaration } from '../collections/define.ts';
import { joinList, parseYaml, splitList } from '../compile/content/record-text.ts';
import { renderItem } from '../compile/content/render.ts';

/** How a service files its records: the list file (relative to the collection's folder) and the sort key within it. */
export interface Placement {
  fileOf(fields: Record<string, unknown>): string;
  sortKeyOf(fields: Record<string, unknown>): string;
}

/** A slug of a record's title or name, for its own file's name. */
export function slugOf(fields: Record<string, unknown>): string {
  const named = String(fields.title ?? fields.name ?? 'record');
  return (
    named
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'record'
  );
}

/** A new file of its own for a record (relative to the content folder), not taken by a file on disk nor by one of `taken`. */
export function ownFile(contentDir: string, collection: string, fields: Record<string, unknown>, taken: ReadonlySet<string> = new Set()): string {
  const slug = slugOf(fields);
  const free = (file: string) => !taken.has(file) && !existsSync(join(contentDir, file)) && !existsSync(join(contentDir, file.replace(/\.yaml$/, '.md')));
  let file = `${collection}/${slug}.yaml`;
  for (let n = 2; !free(file); n++) file = `${collection}/${slug}-${n}.yaml`;
  return file;
}

/**
 * Where `npm run new` (src/setup/new.ts) writes a record the owner starts by hand: its
 * own file, as the owner lane's `taste.log` places one, in the extension asked for.
 */
export function newRecordFile(contentDir: string, collection: string, fields: Record<string, unknown>, extension: 'yaml' | 'md' = 'yaml'): string {
  const file = ownFile(contentDir, collection, fields);
  return extension === 'yaml' ? file : file.replace(/\.yaml$/, `.${extension}`);
}

/**
 * A list file's text with new items merged in at their sorted places: each goes before
 * the first existing item with a greater key (ties after), so the file's own order and
 * every byte of its items stay.
 */
export function mergeItems(text: string, items: { key: string; text: string }[], sortKeyOf: (fields: Record<string, unknown>) => string): string {
  const list = splitList(text);
  if (items.length === 0) return joinList(list);
  const keys = list.items.map((item) => sortKeyOf((parseYaml(item) as Record<string, unknown>[] | undefined)?.[0] ?? {}));
  const sorted = [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const merged: string[] = [];
  let next = 0;
  list.items.forEach((existing, i) => {
    for (; next < sorted.length && sorted[next]!.key < keys[i]!; next++) merged.push(sorted[next]!.text);
    merged.push(existing);
  });
  for (; next < sorted.length; next++) merged.push(sorted[next]!.text);
  list.items = merged;
  return joinList(list);
}

/** A new record as its service's list item, with its sort key. */
export const placedItem = (declaration: CollectionDeclaration, placement: Placement, fields: Record<string, unknown>) => ({
  key: placement.sortKeyOf(fields),
  text: renderItem(declaration, fields),
});
