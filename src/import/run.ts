/**
 * The import frame, the same for every source, in this order:
 *
 * 1. index the owner's files of the collection and the ledger (src/import/existing.ts,
 *    src/import/ledger.ts);
 * 2. read the export into candidate records (the source's module), with `--since`, one
 *    at a time as the export streams in: each is put in the import's store on disk
 *    (src/import/store.ts), never all held in memory;
 * 3. validate every candidate with its collection's schema and rules, as the build does,
 *    and refuse with every problem at once (file, row, field);
 * 4. match each against the owner's files: by the source's own ID, else by the
 *    collection's identity — and sort it: new, same (not a byte would change), changed
 *    (the importer wrote it and the owner has not edited it since: the revision the
 *    ledger holds is the one the owner lane checks, src/owner/edit.ts), conflict (changed
 *    in the export and edited by the owner) or kept (the owner's own record);
 * 5. plan the files, one at a time (src/import/files.ts): new records at their sorted
 *    place in the source's files, changed ones (with `--update`) in place, every other
 *    byte as it was; check the collection as the build will read it (one record per
 *    identity); unless `--dry-run`, stage each file as it is planned, and put them all
 *    in place only when every one is staged — by the content writer (src/owner/writer.ts),
 *    which journals them and, in a server, rebuilds.
 *
 * Steps 1 to 5 run inside the content writer's `exclusive` (unless `--dry-run`): its queue
 * and the content lock in STATE_DIR, so no other write lands between the plan and the
 * commit. A command-line import finding the lock held by a running server waits for the
 * server's write to end (saying so, with the holder's name), up to contentLockWaitMs.
 *
 * An archive is all or none (`mode: 'all-or-none'`, the default): one bad row refuses
 * the import. A sync is `skip-and-report`: a bad record is left out and reported
 * (`report.skipped`), the others land.
 *
 * Steps 3 and 4 are one pass over the candidates; what it plans goes to the store too.
 * What stays in memory is a file at a time, the report's counts, and the problems.
 */
import type { CollectionDeclaration } from '../collections/define.ts';
import { collection as collectionNamed } from '../collections/index.ts';
import type { LoadProblem } from '../compile/content/load.ts';
import { canonicalIdOf } from '../compile/content/record-text.ts';
import { recordChecker } from '../compile/content/records.ts';
import { LIMITS } from '../core/limits.ts';
import { openExport, type ExportInput } from './archive.ts';
import { indexExisting } from './existing.ts';
import { writePlan, type Plan } from './files.ts';
import { ContentWriter } from '../owner/writer.ts';
import type { LockHolder } from '../owner/lock.ts';
import { ledgerEntry, loadLedger, type LedgerEntry } from './ledger.ts';
import { ImportRefused, type ImportProblem } from './problems.ts';
import type { Candidate, ImportSource, PreviousRecord, ReadContext } from './source.ts';
import { ImportStore } from './store.ts';
import { renderItem } from '../compile/content/render.ts';
import { itemHashes, revisionOf } from './yaml-file.ts';

export type Outcome = 'new' | 'same' | 'changed' | 'conflict' | 'kept';

export interface ImportOptions {
  contentDir: string;
  dryRun?: boolean;
  update?: boolean;
  /** `YYYY-MM-DD`: records dated before it are left out (and the source is told before it reads: `ReadContext.since`). */
  since?: string;
  /** Where the content lock and the write journal are (`STATE_DIR`); required unless `writer` or `dryRun` is given. */
  stateDir?: string;
  /** A running server's content writer (a sync inside the server): the import joins its queue, and is rebuilt and swapped in. */
  writer?: ContentWriter;
  /** Called once if another process holds the content lock, before the import waits for it. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** `all-or-none` (an archive; default) or `skip-and-report` (a sync: a bad record is skipped and reported, the others land). */
  mode?: 'all-or-none' | 'skip-and-report';
  privacyRadiusMeters?: number;
  /**
   * Each line of the report, one per record that is not `same` (`new  Aftersun (diary.csv
   * row 3)`), in the export's order, given once the import is done (never for a refused
   * one); the next waits for a returned promise (a slow reader of the output).
   */
  onLine?: (line: string) => void | Promise<void>;
  /** Marks the ledger entries this run writes as written by it (`via: 'sync'`), so `--prune` removes only those. */
  via?: 'sync';
}

export interface ImportReport {
  source: string;
  collection: string;
  counts: Record<Outcome, number>;
  notices: string[];
  dropped: Record<string, number>;
  /** Files written (relative to the content folder), none on a dry run. */
  written: string[];
  /** In `skip-and-report` mode: the records left out, and why. */
  skipped: ImportProblem[];
}

interface Frame {
  declaration: CollectionDeclaration;
  source: ImportSource;
  options: ImportOptions;
  radius: number;
  store: ImportStore;
  report: ImportReport;
}

/** The ledger's value for a record the importer writes now. */
function ledgerValue(frame: Frame, file: string, text: string): LedgerEntry {
  const entry: LedgerEntry = { file: `${frame.declaration.name}/${file}`, revision: itemHashes(text).revision };
  if (frame.source.reusesRecords && frame.radius !== LIMITS.importPrivacyRadiusMeters) entry.privacyRadiusMeters = frame.radius;
  if (frame.options.via) entry.via = frame.options.via;
  return entry;
}

/** `ReadContext.previous`: the record the importer last wrote for a source ID, if the owner has not edited it and the radius is this import's. */
function previousOf(frame: Frame, sourceId: string): PreviousRecord | undefined {
  const { declaration, store } = frame;
  const found = store.existingBySourceId(sourceId, true);
  const owned = ledgerEntry(store.ledgerGet(sourceId));
  if (!found?.hashes || !found.fields || !owned || owned.file !== `${declaration.name}/${found.file}` || owned.revision !== found.hashes.revision)
    return undefined;
  if ((owned.privacyRadiusMeters ?? LIMITS.importPrivacyRadiusMeters) !== frame.radius) return undefined;
  const { whole, revision } = found.hashes;
  return {
    fields: found.fields,
    sameAs: (fields) => {
      const hash = revisionOf(renderItem(declaration, fields));
      return hash === whole || hash === revision;
    },
  };
}

async function readCandidates(frame: Frame, from: string | ExportInput): Promise<void> {
  const { source, options, report, store } = frame;
  const input = typeof from === 'string' ? await openExport(from) : from;
  const problems: ImportProblem[] = [];
  let count = 0;
  try {
    const skip = options.mode === 'skip-and-report';
    const context: ReadContext = {
      input,
      ...(options.since ? { since: options.since } : {}),
      privacyRadiusMeters: frame.radius,
      problem: (p) => void (skip ? report.skipped : problems).push(p),
      notice: (m) => void report.notices.push(m),
      dropped: (what) => void (report.dropped[what] = (report.dropped[what] ?? 0) + 1),
      ...(source.reusesRecords ? { previous: (sourceId: string) => previousOf(frame, sourceId) } : {}),
    };
    for await (const candidate of source.read(context)) {
      if (count >= LIMITS.importRecordsMax)
        throw new ImportRefused(`${input.shown} holds more than ${LIMITS.importRecordsMax} records, the limit importRecordsMax.`);
      const date = source.dateOf(candidate.fields);
      if (options.since && date !== undefined && date.slice(0, 10) < options.since) continue;
      // A later row of the same record supersedes an earlier one (the export's own order).
      if (store.addCandidate(source.sourceIdOf(candidate.fields), candidate)) count++;
    }
  } finally {
    input.close();
  }
  if (problems.length) throw new ImportRefused(`${input.shown}: ${problems.length} row(s) cannot be imported; nothing was written.`, problems);
}

function describe(declaration: CollectionDeclaration, c: Candidate): string {
  const label = declaration.identity
    .map((f) => c.fields[f])
    .filter((v) => v !== undefined)
    .join(', ');
  return `${label} (${c.origin})`;
}

/** One candidate against the owner's files: its outcome, and what it adds to the plan. */
function matchOne(frame: Frame, plan: Plan, candidate: Candidate, parsed: Record<string, unknown>, replaced: Set<string>): Outcome {
  const { declaration, source, options, store } = frame;
  const text = renderItem(declaration, candidate.fields);
  const sourceId = source.sourceIdOf(candidate.fields);
  const found =
    (sourceId !== undefined ? store.existingBySourceId(sourceId) : undefined) ?? store.existingByIdentity(canonicalIdOf(declaration, undefined, parsed));
  if (!found) {
    const file = source.fileOf(candidate.fields);
    store.addInsert(file, source.sortKeyOf(candidate.fields), text);
    plan.insertFiles.add(file);
    plan.touched.add(file);
    if (sourceId !== undefined) {
      store.ledgerSet(sourceId, ledgerValue(frame, file, text));
      plan.applied++;
    }
    for (const attachment of candidate.attachments ?? []) store.addAttachment(attachment.path, attachment.bytes);
    return 'new';
  }
  // An item an earlier record of this import replaced is compared as replaced.
  const at = `${found.file}\u0000${found.entry}`;
  const hashes = found.entry !== null && replaced.has(at) ? itemHashes(store.replacementOf(found.file, found.entry)!) : found.hashes;
  const owned = sourceId !== undefined ? ledgerEntry(store.ledgerGet(sourceId)) : undefined;
  const hash = revisionOf(text);
  if (hashes && (hashes.whole === hash || hashes.revision === hash)) return 'same';
  if (!hashes || !owned || owned.file !== `${declaration.name}/${found.file}`) return 'kept';
  if (hashes.revision !== owned.revision) return 'conflict';
  if (options.update) {
    store.addReplacement(found.file, found.entry!, text);
    replaced.add(at);
    plan.touched.add(found.file);
    store.ledgerSet(sourceId!, ledgerValue(frame, found.file, text));
    plan.applied++;
  }
  return 'changed';
}

/** Validates every candidate as the build does (all problems at once) and matches each; the plan is in the store. */
function validateAndMatch(frame: Frame, lists: Set<string>): Plan {
  const { declaration, options, store, report } = frame;
  const check = recordChecker(declaration, 0, store.seen);
  const problems: LoadProblem[] = [];
  const plan: Plan = { lists, touched: new Set(), insertFiles: new Set(), applied: 0 };
  const replaced = new Set<string>();
  for (const candidate of store.candidates()) {
    const checked = check({ origin: candidate.origin, data: candidate.fields });
    if (options.mode === 'skip-and-report' && checked.problems.length) {
      // A sync leaves the bad record out and says so; the others land.
      report.skipped.push(...checked.problems.map((p) => ({ origin: p.origin, field: p.field, reason: p.reason })));
      continue;
    }
    problems.push(...checked.problems);
    // Once one record is refused the import is, and only the problems are still wanted.
    if (problems.length) continue;
    const outcome = matchOne(frame, plan, candidate, checked.parsed!, replaced);
    report.counts[outcome]++;
    if (outcome !== 'same') {
      const note =
        outcome === 'changed' && !options.update
          ? ' (not applied: pass --update)'
          : outcome === 'conflict'
            ? ' (edited by you since the last import: left as is)'
            : outcome === 'kept'
              ? ' (your own record: left as is)'
              : '';
      store.addLine(`${outcome.padEnd(8)} ${describe(declaration, candidate)}${note}`);
    }
  }
  if (problems.length) {
    throw new ImportRefused(
      `${problems.length} problem(s) in the export against the ${declaration.name} schema; nothing was written.`,
      problems.map((p) => ({ origin: p.origin, field: p.field, reason: p.reason })),
    );
  }
  return plan;
}

/**
 * Runs one import; throws ImportRefused (nothing written) or returns what it did. `from`
 * is an export's path, or an input the caller opened: a sync hands the bodies it fetched
 * as the entries of an `ExportInput` (src/import/archive.ts), read by the same source
 * module and written by the same frame. The frame closes the input.
 */
export async function runImport(source: ImportSource, from: string | ExportInput, options: ImportOptions): Promise<ImportReport> {
  const declaration = collectionNamed(source.collection);
  if (!declaration) throw new Error(`no collection ${source.collection}`);
  const report: ImportReport = {
    source: source.name,
    collection: declaration.name,
    counts: { new: 0, same: 0, changed: 0, conflict: 0, kept: 0 },
    notices: [],
    dropped: {},
    written: [],
    skipped: [],
  };
  const dryRun = options.dryRun ?? false;
  const writer = dryRun ? undefined : (options.writer ?? ownWriter(source, options));
  // The journal names what wrote: an archive's import, or a sync (on the command line or the server's schedule).
  const by = options.via === 'sync' ? { client: 'sync', tool: `sync.${source.name}` } : { client: 'npm run import', tool: `import.${source.name}` };
  const meta = { ...by, collection: declaration.name, canonicalId: '', change: {}, revision: '' };
  const run = async () => {
    const store = new ImportStore();
    try {
      const frame: Frame = { declaration, source, options, radius: options.privacyRadiusMeters ?? LIMITS.importPrivacyRadiusMeters, store, report };
      await loadLedger(options.contentDir, source.name, store);
      const lists = indexExisting(options.contentDir, declaration, source, store);
      await readCandidates(frame, from);
      const plan = validateAndMatch(frame, lists);
      report.written = await writePlan(options.contentDir, declaration, source, store, plan, writer ? { writer, meta } : undefined);
      if (options.onLine) for (const line of store.lines()) await options.onLine(line);
      return report;
    } finally {
      store.close();
    }
  };
  // A dry run writes nothing, so it takes no lock and never makes a server's write wait.
  return writer ? writer.exclusive(run) : run();
}

/** The content writer of a command-line import: the lock and journal of `stateDir`, no rebuild (a running server rebuilds at its next write). */
function ownWriter(source: ImportSource, options: ImportOptions): ContentWriter {
  if (!options.stateDir) throw new Error('runImport: stateDir (the content lock and journal) is required to write');
  return new ContentWriter({ contentDir: options.contentDir, stateDir: options.stateDir, holder: `npm run import ${source.name}`, onWait: options.onWait });
}
