/**
 * The write journal (`STATE_DIR/owner-writes.jsonl`): one JSON line per step of every
 * write to the content folder, by every writer — the owner lane's tools, Micropub, a sync
 * in the server, and a command-line import or sync in a process of its own (the lock,
 * src/owner/lock.ts, lets only one append at a time). A write is two lines: its intent
 * (`pending`, naming the file and the digest of the bytes it will hold), flushed before
 * the file is touched, then the same entry without `pending` once the file holds them. A
 * put-back after a refused build is journaled the same way. Why the intent comes first:
 * a process killed between the file's rename and a line written after it would leave a
 * changed file no entry names, and a client's retry would apply the change twice; with
 * the intent on disk, a restart settles the write that was in flight (`settle`).
 *
 * The journal is also how one writer learns what another wrote: a server reads the lines
 * appended since it last looked (`readSince`) when it takes the lock, and rebuilds the
 * files they name before its own write.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

export const JOURNAL_FILE = 'owner-writes.jsonl';

export interface JournalEntry {
  at: string;
  client: string;
  /** The grant the write was made under: a `requestId` is unique within it. */
  grant?: string;
  requestId?: string;
  /** SHA-256 (hex) of the tool and its arguments: a reused `requestId` with other arguments is a conflict. */
  argsDigest?: string;
  tool: string;
  collection: string;
  canonicalId: string;
  file: string;
  change: Record<string, unknown>;
  revisionBefore?: string;
  revision: string;
  /** A write the build refused: the file was put back, and the entry it follows is void. */
  reverted?: boolean;
  /** SHA-256 (hex) of the content file's bytes after the write: how a restart tells whether an intent reached the file. */
  digest?: string;
  /** The intent, journaled before the file changes; the same entry without it follows once the file holds the change. */
  pending?: boolean;
  /** On a put-back's intent (`reverted` and `pending`): the bytes the file is put back to, null to remove it, so a restart can finish it. */
  before?: string | null;
  /** On a put-back's intent of a batch: the file (relative to the content folder) holding the bytes to put back, instead of `before`. */
  backup?: string;
  /** The batch a line belongs to: the files of one import or sync, written all or none. */
  batch?: string;
}

/** SHA-256 (hex) of bytes: what an intent names. */
export const digestOf = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The journal's lines as entries; a line cut short (a crash mid-append, or one being appended now) is skipped. */
function entriesOf(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      continue;
    }
  }
  return entries;
}

export class Journal {
  readonly path: string;
  private readonly contentDir: string;
  /** Bytes of the journal this process has read or written: what lies past it another process appended. */
  private known = 0;

  constructor(options: { contentDir: string; stateDir: string }) {
    this.contentDir = resolve(options.contentDir);
    mkdirSync(options.stateDir, { recursive: true });
    this.path = join(options.stateDir, JOURNAL_FILE);
  }

  /** Whether a journal's relative `file` resolves inside the content folder: a line naming one outside it was not written by this code, and is never acted on. */
  inContent(file: unknown): file is string {
    return typeof file === 'string' && resolve(this.contentDir, file).startsWith(`${this.contentDir}${sep}`);
  }

  /** Every entry naming a content file, from the start; what this process knows from then on. */
  readAll(): JournalEntry[] {
    if (!existsSync(this.path)) return [];
    const text = readFileSync(this.path, 'utf8');
    this.known = Buffer.byteLength(text);
    return entriesOf(text).filter((entry) => this.inContent(entry.file));
  }

  /** The entries other processes appended since this one last read or wrote (complete lines only). */
  readSince(): JournalEntry[] {
    if (!existsSync(this.path)) return [];
    const size = statSync(this.path).size;
    // A journal shorter than what was read was replaced (restored from a backup, cut by hand): read it again from the start.
    if (size < this.known) this.known = 0;
    if (size <= this.known) return [];
    const fd = openSync(this.path, 'r');
    try {
      const bytes = Buffer.alloc(size - this.known);
      for (let read = 0; read < bytes.length;) {
        const n = readSync(fd, bytes, read, bytes.length - read, this.known + read);
        if (n === 0) break;
        read += n;
      }
      const text = bytes.toString('utf8');
      // Only whole lines: a line without its break is still being written (or was cut by a crash), and is read next time.
      const whole = text.lastIndexOf('\n') + 1;
      this.known += Buffer.byteLength(text.slice(0, whole));
      return entriesOf(text.slice(0, whole)).filter((entry) => this.inContent(entry.file));
    } finally {
      closeSync(fd);
    }
  }

  /** One line, flushed to disk before the step it records is taken or acknowledged. */
  append(entry: JournalEntry): void {
    // Appends happen under the content lock, after `readSince`: `known` stays the end of what this process has seen.
    const line = `${JSON.stringify(entry)}\n`;
    appendFileSync(this.path, line, { mode: 0o600 });
    const fd = openSync(this.path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.known += Buffer.byteLength(line);
  }

  /**
   * Settles the intents a crash left without their outcome, and returns every entry as the
   * journal then holds it (applied and reverted ones; intents dropped). An intent is
   * settled by a later line naming the same file and digest. One left unsettled is
   * decided by the file: a write whose bytes the file holds happened (its outcome is
   * appended now); one it does not hold never happened. A put-back cut short is finished
   * (`restore`), unless the file no longer holds the refused bytes (someone edited it since:
   * it is theirs).
   */
  settle(fileHolds: (entry: JournalEntry) => boolean, restore: (entry: JournalEntry) => void): JournalEntry[] {
    const settled: JournalEntry[] = [];
    const open = new Map<string, JournalEntry>();
    const keyOf = (entry: JournalEntry) => `${entry.file}\u0000${entry.digest ?? ''}`;
    for (const entry of this.readAll()) {
      if (entry.pending) {
        open.set(keyOf(entry), entry);
        continue;
      }
      open.delete(keyOf(entry));
      settled.push(entry);
    }
    for (const intent of open.values()) {
      // A put-back is journaled as done either way: the write it voids must not be answered to a retry.
      if (intent.reverted) {
        if (fileHolds(intent)) restore(intent);
      } else if (!fileHolds(intent)) continue;
      const { pending: _, before: __, backup: ___, ...outcome } = intent;
      this.append(outcome);
      settled.push(outcome);
    }
    return settled;
  }
}
