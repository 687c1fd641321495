/**
 * The scheduled sync on the writer (the one process allowed to write, as in "Several
 * replicas"), on with `SYNC_INTERVAL` (seconds) and off by default. Each configured
 * source runs every interval, its first run staggered by its place in sync.yaml (the
 * interval divided among the sources, at most `syncStaggerMaxSeconds` apart), so the
 * services are never asked at once; runs go one at a time through one queue, so two
 * sources never write at once. The frame is the command's (src/sync/run.ts): a failure
 * is the source's own and is logged with its kind. What a run wrote is rebuilt and
 * swapped in by the generations (and published as a release by a writer that has
 * replicas), so a synced record is served within seconds. A scheduled run never prunes.
 *
 * `status()` is the status document's `sync` field (functions/status.ts): per source,
 * when it last succeeded and the kind of its last failure — never a URL, never a secret.
 * It starts from the state a previous process left in `STATE_DIR`.
 */
import type { ContentWriter } from '../owner/writer.ts';
import { join } from 'node:path';
import { LIMITS } from '../core/limits.ts';
import type { Config } from '../config.ts';
import { readSyncConfig, SOURCE_NAMES, SyncConfigError, type SourceConfig, type SourceName, type SyncConfig } from './config.ts';
import { describeOutcome } from './report.ts';
import { secretsOf, syncSource, userAgentOf, type SourceOutcome } from './run.ts';
import { loadState } from './state.ts';

/** One source's line of the status document. */
export interface SourceStatus {
  lastSuccess: string | null;
  lastFailure: { at: string; kind: string } | null;
}

export type SyncStatus = Record<string, SourceStatus>;

export interface ScheduledSync {
  status(): SyncStatus;
  stop(): void;
  /** Resolves when the runs under way are done (tests, shutdown). */
  idle(): Promise<void>;
}

export interface ScheduleOptions {
  settings: Config;
  intervalSeconds: number;
  /**
   * The server's content writer, when it has an owner lane: the sync's writes join its
   * queue and journal, and it rebuilds and swaps them in itself.
   */
  writer?: ContentWriter;
  /** Without a writer: rebuilds and swaps the generation for the content files a run wrote (absolute paths). */
  rebuild(paths: readonly string[]): Promise<unknown>;
  log?: (line: string) => void;
  /** The configuration (tests); read from `SYNC_CONFIG` otherwise. */
  config?: SyncConfig;
  /** Seconds between the sources' first runs (tests); `staggerSeconds` of the interval otherwise. */
  staggerSeconds?: number;
}

/**
 * The scheduled sync's configuration, read when the server starts: a `sync.yaml` that
 * cannot be used stops the server before it opens anything, with its problems on stderr
 * and exit status 2, as a bad environment variable does (src/config.ts).
 */
export function scheduleConfigOrExit(path: string): SyncConfig {
  try {
    return readSyncConfig(path);
  } catch (error) {
    if (!(error instanceof SyncConfigError)) throw error;
    process.stderr.write(`SYNC_INTERVAL is set, but ${error.message}\n`);
    process.exit(2);
  }
}

/** The delay before each source's first run: spread over the interval, at most `syncStaggerMaxSeconds` apart. */
export function staggerSeconds(intervalSeconds: number, sources: number): number {
  return sources <= 1 ? 0 : Math.min(LIMITS.syncStaggerMaxSeconds, Math.floor(intervalSeconds / sources));
}

export function startScheduledSync(options: ScheduleOptions): ScheduledSync {
  const { settings, intervalSeconds } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const config = options.config ?? readSyncConfig(settings.SYNC_CONFIG);
  const names = SOURCE_NAMES.filter((n) => config[n] !== undefined);
  const statuses: SyncStatus = {};
  for (const name of names) {
    const state = loadState(settings.STATE_DIR, name);
    statuses[name] = { lastSuccess: state.lastSuccess ?? null, lastFailure: state.lastFailure ?? null };
  }
  let queue: Promise<void> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const record = (outcome: SourceOutcome) => {
    const status = statuses[outcome.source]!;
    if (outcome.ok) status.lastSuccess = new Date().toISOString();
    else status.lastFailure = { at: new Date().toISOString(), kind: outcome.kind };
  };

  const runOne = (name: SourceName) => {
    queue = queue.then(async () => {
      if (stopped) return;
      try {
        const outcome = await syncSource(name, config[name] as SourceConfig<typeof name>, {
          contentDir: settings.CONTENT_DIR,
          stateDir: settings.STATE_DIR,
          ...(options.writer ? { writer: options.writer } : {}),
          userAgent: userAgentOf(settings),
          secrets: secretsOf(settings),
        });
        record(outcome);
        for (const line of describeOutcome(outcome, false)) log(`sync: ${line}`);
        const written = outcome.ok ? outcome.report.written.filter((f) => !f.startsWith('.import/')) : [];
        if (written.length && !options.writer?.rebuilds) await options.rebuild(written.map((f) => join(settings.CONTENT_DIR, f)));
      } catch (error) {
        // A rebuild the content refuses, or a fault of the frame: logged, and the schedule goes on.
        log(`sync: ${name}: ${(error as Error).message}`);
      }
    });
  };

  const gap = options.staggerSeconds ?? staggerSeconds(intervalSeconds, names.length);
  names.forEach((name, i) => {
    const first = setTimeout(
      () => {
        runOne(name);
        const every = setInterval(() => runOne(name), intervalSeconds * 1000);
        every.unref();
        timers.push(every);
      },
      i * gap * 1000,
    );
    first.unref();
    timers.push(first);
  });

  return {
    status: () => structuredClone(statuses),
    stop: () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
    idle: () => queue,
  };
}
