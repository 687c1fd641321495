/**
 * Writing the owner's content files so that nothing — the content watcher, a rebuild
 * reading the file, a crash or a power loss — ever sees one half-written: the bytes go to
 * a temporary file beside it (named so the watcher and the compiler ignore it), which is
 * flushed to disk, renamed over the file (atomic on POSIX file systems), and then the
 * folder is flushed too, so the rename itself is durable. The files stay the single
 * source of truth; a rebuild derives everything else from them.
 */
import { randomBytes, type Hash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Flushes a folder's entries (a rename or an unlink in it) to disk. */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` whole to a temporary file beside `path` (dot-named, so the watcher and the
 * compiler ignore it), flushed to disk, and returns its name for the caller to rename
 * into place; on a failure nothing is left behind. The importer stages all its files so
 * before renaming any (src/owner/writer.ts `StagedBatch`); it hands a large file over in pieces, and
 * `hash` is given every byte written (the journal's digest of the file).
 */
export function stageFile(path: string, data: string | Uint8Array | Iterable<string>, hash?: Hash): string {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      for (const piece of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        // The digest the journal names is of the bytes written, taken as they pass (a large file is never held whole).
        hash?.update(bytes);
        for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return temporary;
}

/** Replaces (or creates) the file at `path` with `data`, atomically and durably. */
export function writeContentFile(path: string, data: string | Uint8Array): void {
  const temporary = stageFile(path, data);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** Removes the file at `path`, durably. */
export function removeContentFile(path: string): void {
  unlinkSync(path);
  syncFolder(dirname(path));
}
