/**
 * Writing an import's files all or none. Every file is first staged whole beside its
 * target (a dot-named temporary file, which neither the compiler nor the content watcher
 * reads) and flushed to disk, as soon as it is planned, so that no more than one file is
 * held in memory; only when all are staged are they renamed into place, one atomic rename
 * each, and the folders flushed. A failure before that (a full disk, a permission, a
 * refusal found after some files were staged) removes the staged files and leaves the
 * content exactly as it was. The renames themselves take microseconds; should the process
 * die between two of them, the files already renamed are whole, and running the same
 * import again completes the rest (records are matched by their source IDs, so nothing
 * is written twice).
 */
import { renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stageFile, syncFolder } from '../owner/content-file.ts';

export class Staging {
  private readonly staged: [string, string][] = [];
  private readonly contentDir: string;
  constructor(contentDir: string) {
    this.contentDir = contentDir;
  }

  /** Stages `file` (relative to the content folder). */
  stage(file: string, data: string | Buffer | Iterable<string>): void {
    const target = join(this.contentDir, file);
    this.staged.push([stageFile(target, data), target]);
  }

  /** Puts every staged file in place. */
  commit(): void {
    for (const [temporary, target] of this.staged) renameSync(temporary, target);
    for (const dir of new Set(this.staged.map(([, target]) => dirname(target)))) syncFolder(dir);
    this.staged.length = 0;
  }

  /** Removes every staged file: nothing is written. */
  discard(): void {
    for (const [temporary] of this.staged) rmSync(temporary, { force: true });
    this.staged.length = 0;
  }
}
