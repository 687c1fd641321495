/**
 * The sync frame, the same for every source, in this order for each source named (one
 * at a time, so a service is never asked twice at once and the writes never overlap):
 *
 * 1. read what the source remembers in `STATE_DIR`: its cursor (src/import/cursor.ts),
 *    taken before the service is asked so it is asked only for what is newer, and its
 *    validators and a rotated refresh token (src/sync/state.ts);
 * 2. ask the service through a polite client of its own (src/sync/client.ts) and map
 *    what it answers with the importer's mapping (src/sync/sources/*);
 * 3. hand the mapped records to the import frame (src/import/run.ts) as an import of no
 *    export, with skip-and-report and updates on: matched by source ID through the
 *    importers' ledger, a record the sync wrote and nobody edited is updated, one the
 *    owner edited is reported as a conflict and left as is, the owner's own records are
 *    kept, and a run with nothing new changes no byte;
 * 4. with `--prune` and a complete read, remove what the sync wrote, nobody edited, and
 *    the service no longer lists (src/sync/prune.ts);
 * 5. only then keep the new cursor and validators (a failed write must not hide new
 *    items behind a `304` or a cursor next time), and the time of the success.
 *
 * Any failure in 2–4 is the source's own: a message naming the source and what was
 * wrong, nothing written for it, its failure kind kept in its state (for the status
 * document), and the next source runs.
 */
import { collection as collectionNamed } from '../collections/index.ts';
import type { Config } from '../config.ts';
import { describeRefusal, ImportRefused, type ImportProblem } from '../import/problems.ts';
import type { ExportInput } from '../import/archive.ts';
import { runImport, type ImportReport } from '../import/run.ts';
import type { Candidate, ImportSource, ReadContext } from '../import/source.ts';
import { DEFAULT_CLIENT_LIMITS, SourceClient, SyncFailure, type ClientLimits, type FailureKind } from './client.ts';
import type { SourceConfig, SourceName, SyncConfig } from './config.ts';
import { prune } from './prune.ts';
import type { SyncRead, SyncSecrets, SyncSource } from './source.ts';
import { SYNC_SOURCES } from './sources/index.ts';
import { loadState, saveState } from './state.ts';
import { cursorOf, setCursor } from '../import/cursor.ts';
import { ContentLocked, type LockHolder } from '../owner/lock.ts';
import { ContentWriter } from '../owner/writer.ts';

/** The User-Agent every request sends: the project, and the site it keeps current (services ask for a way to reach the caller). */
export const userAgentOf = (settings: Config) => `collections-sync/1 (+${settings.SITE_URL ?? 'http://localhost:4321'})`;

export const secretsOf = (settings: Config): SyncSecrets => ({
  stravaClientId: settings.STRAVA_CLIENT_ID,
  stravaClientSecret: settings.STRAVA_CLIENT_SECRET,
  stravaRefreshToken: settings.STRAVA_REFRESH_TOKEN,
  githubToken: settings.GITHUB_TOKEN,
});

export interface SyncOptions {
  contentDir: string;
  stateDir: string;
  /**
   * The running server's content writer (a scheduled sync): its writes join the owner
   * lane's queue, journal and lock, and are rebuilt and swapped in. Absent (the command
   * line): the sync writes through a content writer of its own, which takes the same lock
   * in `STATE_DIR` and waits while a server holds it.
   */
  writer?: ContentWriter;
  /** Called once if another process holds the content lock, before the sync waits for it. */
  onWait?: (holder: LockHolder | undefined) => void;
  dryRun?: boolean;
  /** `YYYY-MM-DD`: read from this day on, whatever the cursor says. */
  since?: string;
  prune?: boolean;
  /** The User-Agent: the project and the site. */
  userAgent: string;
  secrets: SyncSecrets;
  /** Shorter bounds (tests); the named limits otherwise. */
  limits?: Partial<ClientLimits>;
  now?: () => Date;
  /** Each report line (`new  Aftersun (…)`), as the import prints them. */
  onLine?: (line: string) => void | Promise<void>;
}

export type SourceOutcome =
  | {
      source: SourceName;
      ok: true;
      report: ImportReport;
      /** Requests sent. */
      requests: number;
      /** The read stopped at a budget: run again for the rest. */
      partial: boolean;
      pruned: string[];
      notices: string[];
    }
  | { source: SourceName; ok: false; kind: FailureKind; message: string };

/** The importer with the mapped records as its "export", carrying fields from the records this sync wrote before. */
function importerOf(source: SyncSource<SourceName>, candidates: Candidate[]): ImportSource {
  const { importer, carry } = source;
  return {
    ...importer,
    reusesRecords: importer.reusesRecords === true || carry !== undefined,
    async *read(context: ReadContext) {
      // A later item of a record carries from the earlier one of this read, else from the record the sync wrote before.
      const earlier = new Map<string, Record<string, unknown>>();
      for (const candidate of candidates) {
        const id = importer.sourceIdOf(candidate.fields);
        const previous = carry && id !== undefined ? (earlier.get(id) ?? context.previous?.(id)?.fields) : undefined;
        const fields = previous ? carry!(previous, candidate.fields) : candidate.fields;
        if (carry && id !== undefined) earlier.set(id, fields);
        yield { ...candidate, fields };
      }
    },
  };
}

function candidatesOf(read: SyncRead, skipped: ImportProblem[], dropped: Record<string, number>): Candidate[] {
  const candidates: Candidate[] = [];
  for (const { origin, mapped } of read.items) {
    if ('fields' in mapped) candidates.push({ origin, fields: mapped.fields });
    else if ('skip' in mapped) dropped[mapped.skip] = (dropped[mapped.skip] ?? 0) + 1;
    else skipped.push({ origin, ...mapped.problem });
  }
  return candidates;
}

/** The content writer of a command-line sync: the lock and journal of `stateDir`, no rebuild (a running server rebuilds at its next write). */
function ownWriter(name: string, options: SyncOptions): ContentWriter {
  return new ContentWriter({ contentDir: options.contentDir, stateDir: options.stateDir, holder: `npm run sync ${name}`, onWait: options.onWait });
}

/** Syncs one source; never throws for the source's own failure (it is the outcome). */
export async function syncSource<N extends SourceName>(name: N, config: SourceConfig<N>, options: SyncOptions): Promise<SourceOutcome> {
  const source = SYNC_SOURCES[name] as unknown as SyncSource<N>;
  const now = options.now ?? (() => new Date());
  const state = loadState(options.stateDir, name);
  const dryRun = options.dryRun ?? false;
  const notices: string[] = [];
  const configured = (config as { baseUrl?: string }).baseUrl;
  const client = new SourceClient({
    userAgent: options.userAgent,
    allowPrivate: configured !== undefined,
    limits: { ...DEFAULT_CLIENT_LIMITS, ...options.limits },
    validators: state.validators ?? {},
    conditional: options.since === undefined && !options.prune,
  });
  const fail = (kind: FailureKind, message: string): SourceOutcome => {
    if (!dryRun) saveState(options.stateDir, name, { ...loadState(options.stateDir, name), lastFailure: { at: now().toISOString(), kind } });
    return { source: name, ok: false, kind, message: `${name}: ${message}` };
  };
  try {
    const read = await source.read({
      config,
      base: new URL(configured ?? source.defaultBase),
      client,
      cursor: options.since !== undefined || options.prune ? undefined : cursorOf(name, options.stateDir),
      since: options.since,
      secrets: options.secrets,
      refreshToken: state.refreshToken,
      // Kept at once, dry run or not: the service has already retired the old one.
      keepRefreshToken: (token) => saveState(options.stateDir, name, { ...loadState(options.stateDir, name), refreshToken: token }),
      notice: (message) => void notices.push(message),
    });
    const skipped: ImportProblem[] = [];
    const dropped: Record<string, number> = {};
    const candidates = candidatesOf(read, skipped, dropped);
    const writer = dryRun ? undefined : (options.writer ?? ownWriter(name, options));
    const feed: ExportInput = { shown: `${name}'s feed`, entries: [], close: () => undefined };
    const report = await runImport(importerOf(source as unknown as SyncSource<SourceName>, candidates), feed, {
      contentDir: options.contentDir,
      stateDir: options.stateDir,
      ...(writer ? { writer } : {}),
      dryRun,
      update: true,
      mode: 'skip-and-report',
      via: 'sync',
      ...(options.since ? { since: options.since } : {}),
      ...(options.onLine ? { onLine: options.onLine } : {}),
    });
    report.skipped = [...skipped, ...(report.skipped ?? [])];
    for (const [what, n] of Object.entries(dropped)) report.dropped[what] = (report.dropped[what] ?? 0) + n;
    let pruned: string[] = [];
    if (options.prune) {
      if (!source.prunable) notices.push(`--prune: ${name} lists only its latest items, so what it no longer lists was not deleted; nothing pruned`);
      else if (!read.complete) notices.push(`--prune: the read stopped at a request budget before the end of the listing; nothing pruned (run again)`);
      else {
        const declaration = collectionNamed(source.importer.collection)!;
        const ids = new Set(candidates.map((c) => source.importer.sourceIdOf(c.fields)).filter((id): id is string => id !== undefined));
        pruned = await prune(options.contentDir, declaration, source.importer, ids, writer);
      }
    }
    if (!dryRun) {
      if (read.cursor !== undefined) setCursor(name, read.cursor, options.stateDir);
      const latest = loadState(options.stateDir, name);
      saveState(options.stateDir, name, {
        ...latest,
        validators: client.validators(),
        lastSuccess: now().toISOString(),
      });
    }
    return { source: name, ok: true, report, requests: client.sent, partial: client.stoppedShort, pruned, notices };
  } catch (error) {
    if (error instanceof SyncFailure) return fail(error.kind, error.message);
    if (error instanceof ImportRefused) return fail('write', describeRefusal(error));
    if (error instanceof ContentLocked) return fail('locked', error.message);
    throw error;
  }
}

/** Syncs the named sources (all configured ones when none is named), one after another. */
export async function syncAll(config: SyncConfig, names: readonly SourceName[], options: SyncOptions): Promise<SourceOutcome[]> {
  const outcomes: SourceOutcome[] = [];
  for (const name of names) {
    const entry = config[name];
    if (entry === undefined) {
      outcomes.push({ source: name, ok: false, kind: 'config', message: `${name}: not configured in sync.yaml` });
      continue;
    }
    outcomes.push(await syncSource(name, entry as SourceConfig<typeof name>, options));
  }
  return outcomes;
}
