/**
 * The content writer: the one path by which anything changes a file of the content
 * folder — the owner lane's tools and Micropub (src/owner/writes.ts), the importers and a
 * sync (src/import/run.ts). It gives every write, in this order:
 *
 * 1. one queue: the writes of one process run one at a time, in arrival order;
 * 2. the content lock (src/owner/lock.ts): one process at a time, so a command-line import
 *    and a running server never interleave a plan and a commit;
 * 3. catch-up: the first write settles what a crash left in the journal; every write reads
 *    the journal lines another process appended since this one last looked, and rebuilds
 *    the files they name, before it reads anything;
 * 4. the journal (src/owner/journal.ts): an intent per file, flushed before the file is
 *    touched, then its outcome;
 * 5. the atomic write (src/owner/content-file.ts): one file, or a batch of files staged
 *    whole and renamed into place all or none;
 * 6. the rebuild and swap, when a server is attached; a build that refuses the change puts
 *    every file of it back as it was (journaled too), rebuilds again and refuses the write.
 *
 * A binary file no record is compiled from (an uploaded image, `writeBinary`) stops after
 * step 5 too: the full build publishes it.
 *
 * A command-line process has no server: its writes stop after step 5, and the server
 * rebuilds them at its next write (step 3) or its next start (`OwnerWrites.catchUp`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isContentFile } from '../compile/content/load.ts';
import { removeContentFile, stageFile, syncFolder, writeContentFile } from './content-file.ts';
import { digestOf, Journal, type JournalEntry } from './journal.ts';
import { takeContentLock, type LockHolder } from './lock.ts';

/** Rebuilds what the content files at `paths` change and swaps it in (src/runtime/generations.ts). */
export type Rebuild = (paths: readonly string[]) => Promise<{ swapped: boolean }>;

/** What a journal line of a write says besides its file, digest and time. */
export type WriteMeta = Omit<JournalEntry, 'at' | 'file' | 'digest' | 'pending' | 'before' | 'backup' | 'batch' | 'reverted'>;

/** A build refused a write: every file was put back. `problems` as the build gave them. */
export class BuildRefused extends Error {
  readonly code = 'build-refused';
  readonly detail: string;
  constructor(detail: string) {
    super(`The build refused the change (${detail.slice(0, 500)}); nothing was changed.`);
    this.detail = detail;
  }
}

const detailOf = (error: unknown) =>
  error instanceof Error && 'problems' in error
    ? (error as { problems: { field: string; reason: string }[] }).problems.map((p) => `${p.field}: ${p.reason}`).join('; ')
    : 'the rebuild failed';

/** One file staged for a batch: its temporary file beside the target, and the digest of its bytes. */
interface StagedFile {
  file: string;
  temporary: string;
  target: string;
  digest: string;
}

/**
 * Files staged whole, one at a time as they are planned (only one is held in memory),
 * then committed by the writer all or none (`ContentWriter.commitBatch`), or discarded.
 */
export class StagedBatch {
  readonly files: StagedFile[] = [];
  private readonly contentDir: string;
  constructor(contentDir: string) {
    this.contentDir = contentDir;
  }

  /** Stages `file` (relative to the content folder). */
  stage(file: string, data: string | Uint8Array | Iterable<string>): void {
    const target = join(this.contentDir, file);
    const hash = createHash('sha256');
    const temporary = stageFile(target, data, hash);
    this.files.push({ file, temporary, target, digest: hash.digest('hex') });
  }

  /** Removes every staged file: nothing is written. */
  discard(): void {
    for (const { temporary } of this.files) rmSync(temporary, { force: true });
    this.files.length = 0;
  }
}

export interface ContentWriterOptions {
  contentDir: string;
  stateDir: string;
  /** What this process is, as the lock names it to another writer: `the server (owner writes)`, `npm run import letterboxd`. */
  holder: string;
  /** Called once per write that finds the lock held by another process, before it waits. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Reported faults of a catch-up rebuild (the write itself goes on). */
  log?: (error: unknown) => void;
}

export class ContentWriter {
  readonly contentDir: string;
  readonly stateDir: string;
  readonly journal: Journal;
  private readonly options: ContentWriterOptions;
  private rebuild: Rebuild | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly foreignListeners: ((entries: readonly JournalEntry[]) => void)[] = [];
  private readonly startListeners: ((entries: readonly JournalEntry[]) => void)[] = [];
  /** Whether the journal was settled: done once, by the first write, under the lock (another process may be mid-write before). */
  private started = false;

  constructor(options: ContentWriterOptions) {
    this.options = options;
    this.contentDir = resolve(options.contentDir);
    this.stateDir = options.stateDir;
    this.journal = new Journal(options);
  }

  /** Connects the writer to a server's generations: every write is then rebuilt and swapped in. */
  attach(rebuild: Rebuild): void {
    this.rebuild = rebuild;
  }

  /** Whether writes are rebuilt (a server is attached). */
  get rebuilds(): boolean {
    return this.rebuild !== undefined;
  }

  /** Called once, with every entry of the journal as settled (`settle`), when the first write takes the lock. */
  onStart(listener: (entries: readonly JournalEntry[]) => void): void {
    this.startListeners.push(listener);
  }

  /** Called with the journal entries another process appended, each time the writer catches up (step 3). */
  onForeign(listener: (entries: readonly JournalEntry[]) => void): void {
    this.foreignListeners.push(listener);
  }

  /** The content folder's relative, `/`-separated name of a path. */
  fileOf(path: string): string {
    return relative(this.contentDir, path).split(sep).join('/');
  }

  /**
   * Runs `work` alone (steps 1 to 3): after this process's earlier writes, holding the
   * content lock, once the files other processes wrote since are rebuilt. Every write
   * below runs inside one.
   */
  exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    const next = this.queue.then(async () => {
      const release = await takeContentLock({ stateDir: this.stateDir, holder: this.options.holder, onWait: this.options.onWait });
      try {
        if (!this.started) {
          // A crash's leftovers are settled under the lock: an import holding it now may be between its intents and its renames.
          this.started = true;
          const entries = this.settle();
          for (const listener of this.startListeners) listener(entries);
        }
        const foreign = this.journal.readSince();
        if (foreign.length) {
          for (const listener of this.foreignListeners) listener(foreign);
          const paths = [...new Set(foreign.filter((e) => !e.pending && isContentFile(e.file)).map((e) => join(this.contentDir, e.file)))];
          if (paths.length && this.rebuild) await this.rebuild(paths).catch(this.options.log ?? console.error);
        }
        return await work();
      } finally {
        release();
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Writes one file (steps 4 to 6): journals the intent (flushed), replaces the file
   * atomically, journals that the file holds it — from here on the write is durable —
   * then rebuilds; on a refused build, puts the file back (`before`; undefined: no file)
   * and throws BuildRefused. Call inside `exclusive`.
   */
  async writeFile(meta: WriteMeta, path: string, before: string | undefined, after: string): Promise<{ swapped: boolean; entry: JournalEntry }> {
    const entry: JournalEntry = { at: new Date().toISOString(), ...meta, file: this.fileOf(path), digest: digestOf(after) };
    this.journal.append({ ...entry, pending: true });
    try {
      writeContentFile(path, after);
    } catch (error) {
      this.journal.append({ ...entry, at: new Date().toISOString(), reverted: true });
      throw error;
    }
    this.journal.append(entry);
    if (!this.rebuild) return { swapped: false, entry };
    try {
      return { ...(await this.rebuild([path])), entry };
    } catch (error) {
      // The put-back is journaled the same way: its intent (with the bytes to restore), then its outcome.
      const putBack: JournalEntry = { ...entry, at: new Date().toISOString(), reverted: true };
      this.journal.append({ ...putBack, pending: true, before: before ?? null });
      this.restore(putBack, before);
      this.journal.append(putBack);
      await this.rebuild([path]).catch(() => undefined);
      throw new BuildRefused(detailOf(error));
    }
  }

  /**
   * Writes one binary file that no record is compiled from — an image under the content's
   * media folder (src/compile/content/media.ts publishes it at the next full build) — with
   * steps 4 and 5 only: the journaled intent, the atomic write, the outcome. There is no
   * rebuild to refuse it: a rebuild compiles records, and the media build reads images
   * only when the site is built whole. A file already holding exactly these bytes is left
   * as it is, unjournaled (`written: false`): a file named after its bytes' hash is then a
   * retry's. Call inside `exclusive`.
   */
  writeBinary(meta: WriteMeta, path: string, bytes: Uint8Array): { written: boolean; entry: JournalEntry } {
    const entry: JournalEntry = { at: new Date().toISOString(), ...meta, file: this.fileOf(path), digest: digestOf(bytes) };
    if (this.fileHolds(entry)) return { written: false, entry };
    this.journal.append({ ...entry, pending: true });
    try {
      writeContentFile(path, bytes);
    } catch (error) {
      this.journal.append({ ...entry, at: new Date().toISOString(), reverted: true });
      throw error;
    }
    this.journal.append(entry);
    return { written: true, entry };
  }

  /**
   * Commits a staged batch, all or none (steps 4 to 6 for many files): an intent per file,
   * then every rename, the folders flushed, an outcome per file; then one rebuild of them
   * all. With a server attached, each replaced file is first kept as a hard link, so a
   * refused build can put every file back without holding any in memory. Call inside
   * `exclusive`; the batch is emptied either way.
   */
  async commitBatch(meta: WriteMeta, batch: StagedBatch): Promise<{ swapped: boolean }> {
    const id = randomBytes(8).toString('hex');
    const staged = batch.files.splice(0);
    const at = new Date().toISOString();
    // A batch may span collections: each line names its file's (the folder it is in), unless the meta names one.
    const entries = staged.map((s): JournalEntry => ({
      at,
      ...meta,
      collection: meta.collection || s.file.split('/')[0]!,
      file: s.file,
      digest: s.digest,
      batch: id,
    }));
    const backups = new Map<string, string>();
    try {
      for (const entry of entries) this.journal.append({ ...entry, pending: true });
      if (this.rebuild) {
        for (const { target, file } of staged) {
          if (!existsSync(target)) continue;
          const backup = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.before`);
          linkSync(target, backup);
          backups.set(file, backup);
        }
      }
      for (const { temporary, target } of staged) renameSync(temporary, target);
    } catch (error) {
      for (const { temporary } of staged) rmSync(temporary, { force: true });
      for (const backup of backups.values()) rmSync(backup, { force: true });
      for (const entry of entries) this.journal.append({ ...entry, at: new Date().toISOString(), reverted: true });
      throw error;
    }
    for (const dir of new Set(staged.map(({ target }) => dirname(target)))) syncFolder(dir);
    for (const entry of entries) this.journal.append(entry);
    if (!this.rebuild) return { swapped: false };
    const paths = staged.filter(({ file }) => isContentFile(file)).map(({ target }) => target);
    try {
      return await this.rebuild(paths);
    } catch (error) {
      for (const entry of entries) {
        const backup = backups.get(entry.file);
        const putBack: JournalEntry = { ...entry, at: new Date().toISOString(), reverted: true };
        this.journal.append({ ...putBack, pending: true, ...(backup ? { backup: this.fileOf(backup) } : { before: null }) });
        this.restore({ ...putBack, ...(backup ? { backup: this.fileOf(backup) } : {}) }, undefined);
        this.journal.append(putBack);
      }
      backups.clear();
      await this.rebuild(paths).catch(() => undefined);
      throw new BuildRefused(detailOf(error));
    } finally {
      for (const backup of backups.values()) rmSync(backup, { force: true });
    }
  }

  /**
   * Puts a file back as it was before a write: from its batch's kept copy (`backup`), or to
   * `before` (undefined or null: no file). A restart finishing a put-back calls it with the
   * intent's own `before`.
   */
  restore(entry: JournalEntry, before: string | null | undefined = entry.before): void {
    const path = join(this.contentDir, entry.file);
    if (entry.backup !== undefined && this.journal.inContent(entry.backup)) {
      const backup = join(this.contentDir, entry.backup);
      if (existsSync(backup)) {
        renameSync(backup, path);
        syncFolder(dirname(path));
        return;
      }
    }
    if (typeof before === 'string') writeContentFile(path, before);
    else if (existsSync(path)) removeContentFile(path);
  }

  /** Whether the content file holds the bytes an intent was about to write. */
  fileHolds(intent: JournalEntry): boolean {
    try {
      return intent.digest !== undefined && digestOf(readFileSync(join(this.contentDir, intent.file))) === intent.digest;
    } catch {
      return false;
    }
  }

  /**
   * Settles what a crash left in flight (src/owner/journal.ts `settle`), finishing a
   * put-back cut short; returns the journal's entries for the caller to index.
   */
  settle(): JournalEntry[] {
    return this.journal.settle(
      (intent) => this.fileHolds(intent),
      (intent) => this.restore(intent),
    );
  }
}
