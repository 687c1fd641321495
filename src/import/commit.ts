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
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

function stage(path: string, text: string | Buffer): string {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', 0o644);
  try {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temporary;
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `files` (paths relative to `contentDir` → text) all or none. */
export function commitFiles(contentDir: string, files: ReadonlyMap<string, string | Buffer>): void {
  const staged: [string, string][] = [];
  try {
    for (const [file, text] of files) {
      const target = join(contentDir, file);
      staged.push([stage(target, text), target]);
    }
  } catch (error) {
    for (const [temporary] of staged) rmSync(temporary, { force: true });
    throw error;
  }
  for (const [temporary, target] of staged) renameSync(temporary, target);
  for (const dir of new Set(staged.map(([, target]) => dirname(target)))) syncFolder(dir);
}
