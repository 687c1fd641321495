/**
 * Writing an import's files all or none. Every file is first staged whole beside its
 * target (a dot-named temporary file, which neither the compiler nor the content watcher
 * reads) and flushed to disk; only when all are staged are they renamed into place, one
 * atomic rename each, and the folders flushed. A failure while staging (a full disk, a
 * permission) removes the staged files and leaves the content exactly as it was. The
 * renames themselves take microseconds; should the process die between two of them, the
 * files already renamed are whole, and running the same import again completes the rest
 * (records are matched by their source IDs, so nothing is written twice).
 */
import { renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stageFile, syncFolder } from '../owner/content-file.ts';

/** Writes `files` (paths relative to `contentDir` → text) all or none. */
export function commitFiles(contentDir: string, files: ReadonlyMap<string, string | Buffer>): void {
  const staged: [string, string][] = [];
  try {
    for (const [file, text] of files) {
      const target = join(contentDir, file);
      staged.push([stageFile(target, text), target]);
    }
  } catch (error) {
    for (const [temporary] of staged) rmSync(temporary, { force: true });
    throw error;
  }
  for (const [temporary, target] of staged) renameSync(temporary, target);
  for (const dir of new Set(staged.map(([, target]) => dirname(target)))) syncFolder(dir);
}
