/**
 * The import frame, the same for every source, in this order:
 *
 * 1. read the export into candidate records (the source's module), with `--since`;
 * 2. validate every candidate with its collection's schema and rules, as the build does,
 *    and refuse with every problem at once (file, row, field);
 * 3. match each against the owner's files: by the source's own ID, else by the
 *    collection's identity — and sort it: new, same (not a byte would change), changed
 *    (the importer wrote it and the owner has not edited it since: the revision the
 *    ledger holds is the one the owner lane checks, src/owner/edit.ts), conflict (changed
 *    in the export and edited by the owner) or kept (the owner's own record);
 * 4. plan the files: new records at their sorted place in the source's files, changed
 *    ones (with `--update`) in place, every other byte as it was; check the collection as
 *    the build will read it (one record per identity);
 * 5. unless `--dry-run`: stage every file, then put them all in place (src/import/commit.ts).
 *
 * The ledger (`<CONTENT_DIR>/.import/<source>.json`) remembers, per source ID, the file
 * and the revision the importer last wrote, which is how a later `--update` tells its own
 * records from the owner's edits. The build reads only `.md` and `.yaml` files under each
 * collection's folder, so the ledger is never content.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { collection as collectionNamed } from '../collections/index.ts';
import type { CollectionDeclaration } from '../collections/define.ts';
import { buildRecords, canonicalIdOf } from '../compile/records.ts';
import { contentFiles, loadFile, type SourceEntry } from '../compile/load.ts';
import { LIMITS } from '../core/limits.ts';
import { blockRevision } from '../owner/edit.ts';
import { openExport } from './archive.ts';
import { commitFiles } from './commit.ts';
import { ImportRefused, type ImportProblem } from './problems.ts';
import type { Candidate, ImportSource } from './source.ts';
import { itemCore, joinList, renderItem, splitList, type ListText } from './yaml-file.ts';

export type Outcome = 'new' | 'same' | 'changed' | 'conflict' | 'kept';

export interface ImportOptions {
  contentDir: string;
  dryRun?: boolean;
  update?: boolean;
  /** `YYYY-MM-DD`: records dated before it are left out. */
  since?: string;
  privacyRadiusMeters?: number;
}

export interface ImportReport {
  source: string;
  collection: string;
  counts: Record<Outcome, number>;
  /** One line per record that is not `same`: `new  letterboxd-2024.yaml  Aftersun (diary.csv row 3)`. */
  lines: string[];
  notices: string[];
  dropped: Record<string, number>;
  /** Files written (relative to the content folder), none on a dry run. */
  written: string[];
}

interface Ledger {
  source: string;
  records: Record<string, { file: string; revision: string }>;
}

interface Existing {
  file: string;
  /** Index in a YAML list file, null for a one-record file. */
  entry: number | null;
}

const ledgerPath = (contentDir: string, source: string) => join(contentDir, '.import', `${source}.json`);

function readLedger(contentDir: string, source: string): Ledger {
  const path = ledgerPath(contentDir, source);
  if (!existsSync(path)) return { source, records: {} };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Ledger;
  return { source, records: parsed.records ?? {} };
}

function renderLedger(ledger: Ledger): string {
  const records = Object.fromEntries(Object.keys(ledger.records).sort().map((k) => [k, ledger.records[k]]));
  return `${JSON.stringify({ source: ledger.source, records }, null, 2)}\n`;
}

async function readCandidates(source: ImportSource, path: string, options: ImportOptions, report: ImportReport): Promise<Candidate[]> {
  const input = await openExport(path);
  const problems: ImportProblem[] = [];
  const bySourceId = new Map<string, Candidate>();
  const unkeyed: Candidate[] = [];
  try {
    const context = {
      input,
      privacyRadiusMeters: options.privacyRadiusMeters ?? LIMITS.importPrivacyRadiusMeters,
      problem: (p: ImportProblem) => void problems.push(p),
      notice: (m: string) => void report.notices.push(m),
      dropped: (what: string) => void (report.dropped[what] = (report.dropped[what] ?? 0) + 1),
    };
    for await (const candidate of source.read(context)) {
      if (bySourceId.size + unkeyed.length >= LIMITS.importRecordsMax) throw new ImportRefused(`${input.shown} holds more than ${LIMITS.importRecordsMax} records, the limit importRecordsMax.`);
      const date = source.dateOf(candidate.fields);
      if (options.since && date !== undefined && date.slice(0, 10) < options.since) continue;
      const id = source.sourceIdOf(candidate.fields);
      // A later row of the same record supersedes an earlier one (the export's own order).
      if (id === undefined) unkeyed.push(candidate);
      else bySourceId.set(id, candidate);
    }
  } finally {
    input.close();
  }
  if (problems.length) throw new ImportRefused(`${input.shown}: ${problems.length} row(s) cannot be imported; nothing was written.`, problems);
  return [...bySourceId.values(), ...unkeyed];
}

/** Every candidate checked as the build checks a record; all problems at once. */
function validate(declaration: CollectionDeclaration, candidates: readonly Candidate[]): void {
  const entries: SourceEntry[] = candidates.map((c) => ({ origin: c.origin, data: c.fields }));
  const { problems } = buildRecords(declaration, entries, { siteUrl: 'http://localhost:4321', now: 0 });
  if (problems.length) {
    throw new ImportRefused(`${problems.length} problem(s) in the export against the ${declaration.name} schema; nothing was written.`, problems.map((p) => ({ origin: p.origin, field: p.field, reason: p.reason })));
  }
}

/** The owner's files of the collection: each YAML list's text, and every record's source ID and canonicalId. */
function readExisting(contentDir: string, declaration: CollectionDeclaration, source: ImportSource) {
  const folder = join(contentDir, declaration.name);
  const lists = new Map<string, ListText>();
  const bySourceId = new Map<string, Existing>();
  const byIdentity = new Map<string, Existing>();
  for (const path of contentFiles(folder)) {
    const file = path.slice(folder.length + 1).split('\\').join('/');
    const { entries } = loadFile(contentDir, path, '.');
    const list = !path.endsWith('.md') && entries.length > 0 && entries[0]!.origin.endsWith(']');
    if (list || (!path.endsWith('.md') && entries.length === 0)) lists.set(file, splitList(readFileSync(path, 'utf8')));
    entries.forEach((e, i) => {
      if (typeof e.data !== 'object' || e.data === null) return;
      const at: Existing = { file, entry: list ? i : null };
      const { id, ...data } = e.data as Record<string, unknown>;
      const sourceId = source.sourceIdOf(data);
      if (sourceId !== undefined && !bySourceId.has(sourceId)) bySourceId.set(sourceId, at);
      const parsed = declaration.schema.safeParse(e.body !== undefined ? { ...data, [declaration.bodyField]: e.body } : data);
      if (parsed.success) byIdentity.set(canonicalIdOf(declaration, typeof id === 'string' ? id : undefined, parsed.data as Record<string, unknown>), at);
    });
  }
  return { lists, bySourceId, byIdentity };
}

/** An item's revision: the owner lane's (src/owner/edit.ts), the hash of the record's own lines. */
function itemRevision(item: string): string {
  const core = itemCore(item);
  return blockRevision(core, { start: 0, end: core.length, indent: 2 });
}

function describe(declaration: CollectionDeclaration, c: Candidate): string {
  const label = declaration.identity.map((f) => c.fields[f]).filter((v) => v !== undefined).join(', ');
  return `${label} (${c.origin})`;
}

/** Runs one import; throws ImportRefused (nothing written) or returns what it did. */
export async function runImport(source: ImportSource, path: string, options: ImportOptions): Promise<ImportReport> {
  const declaration = collectionNamed(source.collection);
  if (!declaration) throw new Error(`no collection ${source.collection}`);
  const report: ImportReport = { source: source.name, collection: declaration.name, counts: { new: 0, same: 0, changed: 0, conflict: 0, kept: 0 }, lines: [], notices: [], dropped: {}, written: [] };
  const candidates = await readCandidates(source, path, options, report);
  validate(declaration, candidates);

  const { lists, bySourceId, byIdentity } = readExisting(options.contentDir, declaration, source);
  const ledger = readLedger(options.contentDir, source.name);
  const touched = new Set<string>();
  const inserts = new Map<string, { key: string; text: string; sourceId: string | undefined }[]>();
  const applied: { file: string; sourceId: string; text: string }[] = [];
  const attachments = new Map<string, Buffer>();

  for (const candidate of candidates) {
    const text = renderItem(declaration, candidate.fields);
    const sourceId = source.sourceIdOf(candidate.fields);
    const parsed = declaration.schema.parse(candidate.fields) as Record<string, unknown>;
    const found = (sourceId !== undefined ? bySourceId.get(sourceId) : undefined) ?? byIdentity.get(canonicalIdOf(declaration, undefined, parsed));
    let outcome: Outcome;
    if (!found) {
      outcome = 'new';
      const file = source.fileOf(candidate.fields);
      const list = inserts.get(file) ?? [];
      list.push({ key: source.sortKeyOf(candidate.fields), text, sourceId });
      inserts.set(file, list);
      for (const attachment of candidate.attachments ?? []) attachments.set(attachment.path, attachment.bytes);
    } else {
      const list = found.entry === null ? undefined : lists.get(found.file);
      const current = list?.items[found.entry!];
      const owned = sourceId !== undefined ? ledger.records[sourceId] : undefined;
      if (current !== undefined && (current === text || itemCore(current) === text)) outcome = 'same';
      else if (current === undefined || !owned || owned.file !== `${declaration.name}/${found.file}`) outcome = 'kept';
      else if (itemRevision(current) !== owned.revision) outcome = 'conflict';
      else {
        outcome = 'changed';
        if (options.update) {
          list!.items[found.entry!] = text + (current.startsWith(itemCore(current)) ? current.slice(itemCore(current).length) : '');
          touched.add(found.file);
          applied.push({ file: found.file, sourceId: sourceId!, text });
        }
      }
    }
    report.counts[outcome]++;
    if (outcome !== 'same') {
      const note = outcome === 'changed' && !options.update ? ' (not applied: pass --update)' : outcome === 'conflict' ? ' (edited by you since the last import: left as is)' : outcome === 'kept' ? ' (your own record: left as is)' : '';
      report.lines.push(`${outcome.padEnd(8)} ${describe(declaration, candidate)}${note}`);
    }
  }

  for (const [file, items] of inserts) {
    const list = lists.get(file) ?? { head: '', items: [] };
    if (!lists.has(file) && existsSync(join(options.contentDir, declaration.name, file))) {
      throw new ImportRefused(`${declaration.name}/${file} exists but is not a YAML list; move it aside and import again.`);
    }
    lists.set(file, list);
    touched.add(file);
    const keys = list.items.map((item) => {
      const data = (yaml.load(item, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>[] | undefined)?.[0] ?? {};
      return source.sortKeyOf(data);
    });
    // One merge of the sorted new items into the file's items: each new one goes before the first existing item with a greater key.
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const merged: string[] = [];
    let next = 0;
    list.items.forEach((existing, i) => {
      for (; next < items.length && items[next]!.key < keys[i]!; next++) merged.push(items[next]!.text);
      merged.push(existing);
    });
    for (; next < items.length; next++) merged.push(items[next]!.text);
    list.items = merged;
    for (const item of items) if (item.sourceId !== undefined) applied.push({ file, sourceId: item.sourceId, text: item.text });
  }

  const files = new Map<string, string>();
  for (const file of [...touched].sort()) files.set(`${declaration.name}/${file}`, joinList(lists.get(file)!));
  checkCollection(options.contentDir, declaration, files);
  const written = new Map<string, string | Buffer>(files);
  for (const [path, bytes] of [...attachments].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const target = join(options.contentDir, path);
    if (existsSync(target)) {
      if (readFileSync(target).equals(bytes)) continue;
      throw new ImportRefused(`${path} already exists with other content; move it aside and import again. Nothing was written.`);
    }
    written.set(path, bytes);
  }

  for (const { file, sourceId, text } of applied) ledger.records[sourceId] = { file: `${declaration.name}/${file}`, revision: itemRevision(text) };
  if (applied.length) written.set(`.import/${source.name}.json`, renderLedger(ledger));
  if (!options.dryRun && written.size) {
    commitFiles(options.contentDir, written);
    report.written = [...written.keys()];
  }
  return report;
}

/** The collection as the build will read it after the import: every record once (a second record with one identity is refused). */
function checkCollection(contentDir: string, declaration: CollectionDeclaration, files: ReadonlyMap<string, string>): void {
  if (files.size === 0) return;
  const entries: SourceEntry[] = [];
  const folder = join(contentDir, declaration.name);
  const planned = new Set(files.keys());
  for (const path of contentFiles(folder)) {
    const file = `${declaration.name}/${path.slice(folder.length + 1).split('\\').join('/')}`;
    if (!planned.has(file)) entries.push(...loadFile(contentDir, path, '.').entries);
  }
  for (const [file, text] of files) {
    const data = yaml.load(text, { schema: yaml.CORE_SCHEMA });
    (Array.isArray(data) ? data : [data]).forEach((item, i) => entries.push({ origin: `${file}[${i}]`, data: item }));
  }
  const { problems } = buildRecords(declaration, entries, { siteUrl: 'http://localhost:4321', now: 0 });
  const ours = problems.filter((p) => planned.has(p.origin.replace(/^\.\//, '').replace(/\[\d+\]$/, '')));
  if (ours.length) throw new ImportRefused(`The ${declaration.name} collection would not build after this import; nothing was written.`, ours);
}
