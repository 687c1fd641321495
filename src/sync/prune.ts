/**
 * `--prune`: after a complete read of a service that lists everything (Mastodon's
 * statuses, Strava's activities), the records it no longer lists were deleted upstream.
 * Only records a sync wrote (their ledger entry says `via: sync`) and nobody edited since
 * (the item's revision is still the ledger's) are removed; a record the owner edited, or
 * imported from an archive, stays, and is named. The files and the ledger are staged and
 * put in place all or none by the content writer (src/owner/writer.ts: its lock, its
 * journal, and a server's rebuild), every other byte as it was. Without a writer (a dry
 * run) nothing is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectionDeclaration } from '../collections/define.ts';
import { ledgerEntry, ledgerFile, ledgerText } from '../import/ledger.ts';
import type { ImportSource } from '../import/source.ts';
import { joinList, splitList } from '../compile/content/record-text.ts';
import { itemHashes } from '../import/yaml-file.ts';
import { StagedBatch, type ContentWriter } from '../owner/writer.ts';

/** Removes what the sync wrote, nobody edited, and the service no longer lists; returns one line per record removed or kept. */
export async function prune(
  contentDir: string,
  declaration: CollectionDeclaration,
  importer: ImportSource,
  listed: ReadonlySet<string>,
  writer: ContentWriter | undefined,
): Promise<string[]> {
  return writer
    ? writer.exclusive(() => pruneNow(contentDir, declaration, importer, listed, writer))
    : pruneNow(contentDir, declaration, importer, listed, undefined);
}

async function pruneNow(
  contentDir: string,
  declaration: CollectionDeclaration,
  importer: ImportSource,
  listed: ReadonlySet<string>,
  writer: ContentWriter | undefined,
): Promise<string[]> {
  const ledgerPath = join(contentDir, ledgerFile(importer.name));
  if (!existsSync(ledgerPath)) return [];
  const records = ((JSON.parse(readFileSync(ledgerPath, 'utf8')) as { records?: Record<string, unknown> }).records ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  const removals = new Map<string, { id: string; revision: string }[]>();
  for (const [id, value] of Object.entries(records)) {
    const entry = ledgerEntry(value);
    if (!entry || entry.via !== 'sync' || listed.has(id) || !entry.file.startsWith(`${declaration.name}/`)) continue;
    const list = removals.get(entry.file) ?? [];
    list.push({ id, revision: entry.revision });
    removals.set(entry.file, list);
  }
  if (removals.size === 0) return [];
  const staging = writer ? new StagedBatch(contentDir) : undefined;
  const remaining = { ...records };
  try {
    for (const [file, gone] of [...removals].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const path = join(contentDir, file);
      if (!existsSync(path)) continue;
      const list = splitList(readFileSync(path, 'utf8'));
      let changed = false;
      for (const { id, revision } of gone) {
        const at = list.items.findIndex((item) => itemHashes(item).revision === revision);
        if (at === -1) {
          lines.push(`kept     ${id} (${file}): gone upstream, but edited by you since the sync wrote it`);
          continue;
        }
        list.items.splice(at, 1);
        delete remaining[id];
        changed = true;
        lines.push(`pruned   ${id} (${file}): gone upstream`);
      }
      if (changed) staging?.stage(file, joinList(list));
    }
    if (Object.keys(remaining).length !== Object.keys(records).length)
      staging?.stage(ledgerFile(importer.name), ledgerText(importer.name, Object.entries(remaining)));
    if (staging)
      await writer!.commitBatch(
        { client: 'sync', tool: `sync.${importer.name}.prune`, collection: declaration.name, canonicalId: '', change: {}, revision: '' },
        staging,
      );
  } catch (error) {
    staging?.discard();
    throw error;
  }
  return lines;
}
