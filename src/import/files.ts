/**
 * The files an import writes, planned one at a time from what the import's store holds
 * (src/import/store.ts): each touched file is read, its replaced items put in place, its
 * new items merged in at their sorted place (every other byte as it was), checked as the
 * build will read it, and staged. The check is the build's, over the whole collection:
 * the files the import does not touch are read first (their own problems are not this
 * import's), then each planned file; a record of a planned file that the build would
 * refuse — a second record with one identity, above all — refuses the import, and the
 * staged files are removed. Attachments (a photo's image) and the ledger come last. The
 * staged files are committed all or none by the content writer (src/owner/writer.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectionDeclaration } from '../collections/define.ts';
import { contentFiles, loadFile, type LoadProblem } from '../compile/content/load.ts';
import { recordChecker } from '../compile/content/records.ts';
import { StagedBatch, type ContentWriter, type WriteMeta } from '../owner/writer.ts';
import { ledgerFile, ledgerText } from './ledger.ts';
import { ImportRefused } from './problems.ts';
import type { ImportSource } from './source.ts';
import type { ImportStore } from './store.ts';
import { itemCore, joinList, parseYaml, splitList } from '../compile/content/record-text.ts';
import { mergeItems } from '../owner/placement.ts';

/** What matching planned, beside the items in the store. */
export interface Plan {
  /** The collection's files that are YAML lists (relative to its folder). */
  lists: Set<string>;
  /** Files with a new or replaced item. */
  touched: Set<string>;
  /** Files with a new item, in the order each got its first. */
  insertFiles: Set<string>;
  /** Records written (new, or replaced with `--update`) that have a source ID: the ledger is written when there is one. */
  applied: number;
}

/** One planned file's text: the file as it is, its replaced items in place, its new items merged in (src/owner/placement.ts). */
function planFile(folder: string, file: string, source: ImportSource, store: ImportStore): string {
  const path = join(folder, file);
  const list = existsSync(path) ? splitList(readFileSync(path, 'utf8')) : { head: '', items: [] };
  for (const { entry, text } of store.replacementsOf(file)) {
    const current = list.items[entry]!;
    const core = itemCore(current);
    list.items[entry] = text + (current.startsWith(core) ? current.slice(core.length) : '');
  }
  return mergeItems(joinList(list), store.insertsOf(file), (fields) => source.sortKeyOf(fields));
}

/**
 * Plans, checks and (unless a dry run: `writer` undefined) writes the import's files, all
 * or none, through the content writer (src/owner/writer.ts: journaled, and rebuilt when
 * the writer serves); returns the files written. Call inside the writer's `exclusive`.
 */
export async function writePlan(
  contentDir: string,
  declaration: CollectionDeclaration,
  source: ImportSource,
  store: ImportStore,
  plan: Plan,
  writer: { writer: ContentWriter; meta: WriteMeta } | undefined,
): Promise<string[]> {
  const folder = join(contentDir, declaration.name);
  for (const file of plan.insertFiles) {
    if (!plan.lists.has(file) && existsSync(join(folder, file)))
      throw new ImportRefused(`${declaration.name}/${file} exists but is not a YAML list; move it aside and import again.`);
  }
  const planned = [...plan.touched].sort();
  const staging = writer ? new StagedBatch(contentDir) : undefined;
  const written: string[] = [];
  try {
    if (planned.length) {
      store.clearSeen();
      const check = recordChecker(declaration, 0, store.seen);
      const names = new Set(planned);
      for (const path of contentFiles(folder)) {
        if (
          names.has(
            path
              .slice(folder.length + 1)
              .split('\\')
              .join('/'),
          )
        )
          continue;
        for (const entry of loadFile(contentDir, path, '.').entries) check(entry);
      }
      const problems: LoadProblem[] = [];
      for (const file of planned) {
        const text = planFile(folder, file, source, store);
        const shown = `${declaration.name}/${file}`;
        const data = parseYaml(text);
        (Array.isArray(data) ? data : [data]).forEach((item, i) => problems.push(...check({ origin: `${shown}[${i}]`, data: item }).problems));
        staging?.stage(shown, text);
        written.push(shown);
      }
      if (problems.length) throw new ImportRefused(`The ${declaration.name} collection would not build after this import; nothing was written.`, problems);
    }
    for (const path of store.attachmentPaths()) {
      const bytes = store.attachment(path);
      const target = join(contentDir, path);
      if (existsSync(target)) {
        if (readFileSync(target).equals(bytes)) continue;
        throw new ImportRefused(`${path} already exists with other content; move it aside and import again. Nothing was written.`);
      }
      staging?.stage(path, bytes);
      written.push(path);
    }
    if (plan.applied) {
      staging?.stage(ledgerFile(source.name), ledgerText(source.name, store.ledgerEntries()));
      written.push(ledgerFile(source.name));
    }
    if (staging?.files.length) await writer!.writer.commitBatch(writer!.meta, staging);
  } catch (error) {
    staging?.discard();
    throw error;
  }
  return writer ? written : [];
}
