/**
 * The content lock (`STATE_DIR/content-writer.lock`): one writer at a time across
 * processes. A running server's writes (owner tools, Micropub, its scheduled sync) and a
 * command-line import or sync each take it for one write or one batch — from reading the
 * files they change to the end of the rebuild — so a write can never land between
 * another's planning and its commit. The file is created exclusively (`O_EXCL`) and holds
 * who took it (`LockHolder`); a second writer waits for it (polling: a file has no
 * wake-up) up to `contentLockWaitMs`, then is refused with the holder's name. A lock whose
 * process is gone (same host, no such pid) is stale and taken over, so a crash never
 * blocks the owner.
 *
 * Within one process the writer's queue (src/owner/writer.ts) already orders the writes;
 * the lock is what orders processes.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIMITS } from '../core/limits.ts';

export const LOCK_FILE = 'content-writer.lock';

/** Who holds the lock: named in every message a waiting or refused writer prints. */
export interface LockHolder {
  pid: number;
  host: string;
  /** What the process is: `the server (owner writes)`, `npm run import letterboxd`. */
  holder: string;
  /** When it took the lock (ISO). */
  since: string;
}

/** A writer refused because another held the content lock past the wait. */
export class ContentLocked extends Error {
  readonly code = 'content-locked';
  readonly holder: LockHolder | undefined;
  constructor(holder: LockHolder | undefined, waitedMs: number) {
    super(
      `The content is being written by ${describeHolder(holder)}; waited ${Math.round(waitedMs / 1000)} s (contentLockWaitMs) and wrote nothing. Try again when it is done.`,
    );
    this.holder = holder;
  }
}

export const describeHolder = (holder: LockHolder | undefined) =>
  holder ? `${holder.holder} (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : 'another process (its lock file cannot be read)';

function readHolder(path: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? (value as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a holder's process is gone: only knowable on this host. */
function gone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface LockOptions {
  stateDir: string;
  /** What this process is, as others will read it. */
  holder: string;
  /** Called once when the lock is found held, before waiting (a command line says so). */
  onWait?: (holder: LockHolder | undefined) => void;
  waitMs?: number;
}

/** Takes the content lock, waiting for another holder up to the limit; returns its release. */
export async function takeContentLock(options: LockOptions): Promise<() => void> {
  const path = join(options.stateDir, LOCK_FILE);
  const waitMs = options.waitMs ?? LIMITS.contentLockWaitMs;
  const started = Date.now();
  let told = false;
  for (;;) {
    const mine: LockHolder = { pid: process.pid, host: hostname(), holder: options.holder, since: new Date().toISOString() };
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(mine)}\n`);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Only this process's own lock is removed (a stale takeover elsewhere never loses its file to us).
        if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder && gone(holder)) {
      // A crashed writer's lock: removed only if it is still that one (another waiter may have taken it over first).
      if (JSON.stringify(readHolder(path)) === JSON.stringify(holder)) rmSync(path, { force: true });
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new ContentLocked(holder, waited);
    if (!told) options.onWait?.(holder);
    told = true;
    await sleep(LIMITS.contentLockPollMs);
  }
}
