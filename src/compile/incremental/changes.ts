/**
 * What a set of edited content files changes, found without reading any other file: the
 * edited files are loaded and checked by the same steps as a full build (`loadFile`,
 * `buildRecords`, the collections' `compose`), the records they held before are read
 * back from the image (its sources table says which records each file held), and the
 * two are compared record by record. The result lists, per collection, each record that
 * was added, removed or changed — composed lists included — and, per content collection,
 * the same for the search index. A duplicate identity against a record of an unedited
 * file is reported at the origin a full build would name. Any problem throws a
 * ContentError listing all of them; nothing is written here.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CollectionDeclaration } from '../../collections/define.ts';
import { collections, contentCollections } from '../../collections/index.ts';
import { recordsTable, SOURCES_TABLE, type Image } from '../../core/image.ts';
import { ContentError, deriveContext, entryIndexOf, provenanceWarning, shownRootOf, sourceFileOf, type ContentOptions } from '../compile.ts';
import { lacksProvenance, type SourceRow } from '../artifacts/image.ts';
import { contentFiles, isContentFile, loadFile, type LoadProblem, type SourceEntry } from '../content/load.ts';
import { buildRecords, sameRecord, sharedCanonicalIds, sharedIdReason, type PublishedRecord } from '../content/records.ts';

type Fields = Record<string, unknown>;

/** One record's change: `before` absent when it was added, `after` absent when it was removed. */
export interface RecordChange {
  cid: string;
  before?: Fields;
  after?: Fields;
}

export interface ContentChanges {
  /** Per collection (composed lists included), the records that differ, by canonicalId. */
  records: Map<string, Map<string, RecordChange>>;
  /** Per content collection, the records as loaded (before composition) that differ: the search index's rows. */
  searched: Map<string, Map<string, RecordChange>>;
  /** The content files read (relative to the content folder): their source rows are replaced by `sources`. */
  files: string[];
  sources: SourceRow[];
  /** Whether `sources` differs from the rows they replace (records moved between the files, or within one). */
  sourcesMoved: boolean;
  /** Provenance warnings of the changed records. */
  warnings: string[];
}

/** Whether nothing a reader can see changed (the sources may still move between files). */
export const unchanged = (changes: ContentChanges) => [...changes.records.values()].every((m) => m.size === 0);

/** Parameters per statement when reading records back by canonicalId. */
const BATCH = 500;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/**
 * The content files a list of changed paths stands for, relative to the content folder:
 * a changed file, or every file that is or was under a changed folder (a folder renamed
 * or deleted as a whole), restricted to the collections' folders and content extensions.
 */
export function changedFiles(image: Image, contentDir: string, paths: readonly string[]): string[] {
  const known = collections.map((c) => c.name);
  const files = new Set<string>();
  for (const path of paths) {
    const file = sourceFileOf(contentDir, resolve(contentDir, path));
    if (file.startsWith('../') || !known.includes(file.split('/')[0]!)) continue;
    const absolute = join(contentDir, file);
    if (existsSync(absolute) && statSync(absolute).isDirectory()) {
      for (const f of contentFiles(absolute)) files.add(sourceFileOf(contentDir, f));
    }
    if (isContentFile(file)) files.add(file);
    // Files the image knows under a folder that changed (a deleted folder is no longer on disk to list).
    const rows = image.db.prepare(`SELECT DISTINCT file FROM ${SOURCES_TABLE} WHERE file > ? AND file < ?`).all(`${file}/`, `${file}/\uffff`) as {
      file: string;
    }[];
    for (const row of rows) files.add(row.file);
  }
  return [...files].sort();
}

/** The records a file held at the last build: canonicalId, place in the file, published fields. */
function previousRecords(image: Image, collectionName: string, files: readonly string[]): Map<string, { row: SourceRow; fields: Fields }> {
  const sources: SourceRow[] = [];
  for (const batch of batches(files)) {
    const marks = batch.map(() => '?').join(', ');
    sources.push(
      ...(image.db
        .prepare(`SELECT file, entry, collection, cid FROM ${SOURCES_TABLE} WHERE collection = ? AND file IN (${marks})`)
        .all(collectionName, ...batch) as unknown as SourceRow[]),
    );
  }
  const previous = new Map<string, { row: SourceRow; fields: Fields }>();
  for (const batch of batches(sources)) {
    const marks = batch.map(() => '?').join(', ');
    const rows = image.db.prepare(`SELECT cid, json FROM ${recordsTable(collectionName)} WHERE cid IN (${marks})`).all(...batch.map((s) => s.cid)) as {
      cid: string;
      json: string;
    }[];
    const json = new Map(rows.map((r) => [r.cid, r.json]));
    for (const row of batch) previous.set(row.cid, { row, fields: JSON.parse(json.get(row.cid)!) as Fields });
  }
  return previous;
}

/** Full builds read files in sorted path order and entries in file order; the later of two duplicates is the one reported. */
const laterThan = (a: { file: string; entry: number | null }, b: { file: string; entry: number | null }) =>
  a.file !== b.file ? a.file > b.file : (a.entry ?? -1) > (b.entry ?? -1);

const originOf = (shownRoot: string, row: { file: string; entry: number | null }) =>
  `${join(shownRoot, row.file)}${row.entry === null ? '' : `[${row.entry}]`}`;

const hasExplicitId = (entry: SourceEntry | undefined) => typeof entry?.data === 'object' && entry.data !== null && (entry.data as Fields).id !== undefined;

/**
 * A record of an edited file whose canonicalId a record of an unedited file already has:
 * the problem a full build would report, at the later of the two origins.
 */
function duplicateProblem(
  options: ContentOptions,
  declaration: CollectionDeclaration,
  mine: { row: SourceRow; entry: SourceEntry | undefined },
  other: SourceRow,
): LoadProblem {
  const shownRoot = shownRootOf(options.contentDir);
  const theirs = loadFile(options.contentDir, join(options.contentDir, other.file), shownRoot).entries[other.entry ?? 0];
  const idOf = (entry: SourceEntry | undefined) => (hasExplicitId(entry) ? (entry!.data as Fields).id : undefined);
  // The same words as a full build (src/compile/content/records.ts), at the later of the two origins.
  const [later, earlier] = laterThan(mine.row, other)
    ? [
        { row: mine.row, entry: mine.entry },
        { row: other, entry: theirs },
      ]
    : [
        { row: other, entry: theirs },
        { row: mine.row, entry: mine.entry },
      ];
  return {
    origin: originOf(shownRoot, later.row),
    ...sameRecord(declaration, idOf(later.entry), { origin: originOf(shownRoot, earlier.row), id: idOf(earlier.entry) }),
  };
}

/**
 * The edited records whose canonicalId a record of another collection, in a file not
 * edited now, already has (records of edited files are checked against each other by
 * `sharedCanonicalIds`, as a full build checks all of them).
 */
function idsOfOtherCollections(
  image: Image,
  shownRoot: string,
  files: readonly string[],
  planned: readonly { collection: CollectionDeclaration; records: readonly PublishedRecord[] }[],
): LoadProblem[] {
  const edited = new Set(files);
  const names = contentCollections.map((c) => c.name);
  const others = image.db.prepare(
    `SELECT file, entry, collection, cid FROM ${SOURCES_TABLE} WHERE collection IN (${names.map(() => '?').join(', ')}) AND cid = ?`,
  );
  const problems: LoadProblem[] = [];
  for (const { collection, records } of planned) {
    for (const { canonicalId, origin } of records) {
      const rows = others.all(...names, canonicalId) as unknown as SourceRow[];
      const other = rows.find((row) => row.collection !== collection.name && !edited.has(row.file));
      if (other !== undefined) problems.push({ origin, field: 'id', reason: sharedIdReason(canonicalId, originOf(shownRoot, other)) });
    }
  }
  return problems;
}

/** Adds to `into` the changes between `before` and `after` records (by canonicalId), skipping records whose fields are the same. */
function diff(into: Map<string, RecordChange>, before: ReadonlyMap<string, Fields>, after: ReadonlyMap<string, Fields>): void {
  for (const [cid, fields] of after) {
    const old = before.get(cid);
    if (old === undefined) into.set(cid, { cid, after: fields });
    else if (JSON.stringify(old) !== JSON.stringify(fields)) into.set(cid, { cid, before: old, after: fields });
  }
  for (const [cid, fields] of before) if (!after.has(cid)) into.set(cid, { cid, before: fields });
}

const asRecords = (fields: ReadonlyMap<string, Fields>): PublishedRecord[] => [...fields].map(([canonicalId, f]) => ({ canonicalId, origin: '', fields: f }));

/**
 * The changes the edited `files` (relative to the content folder) make to the build the
 * image holds. Every composing collection's `compose` must make each of its records from
 * one source record (as writing and feed-items do), so composing the changed records'
 * old and new versions gives exactly the composed records that change.
 */
export function planChanges(image: Image, options: ContentOptions, files: readonly string[]): ContentChanges {
  const shownRoot = shownRootOf(options.contentDir);
  const problems: LoadProblem[] = [];
  const records = new Map<string, Map<string, RecordChange>>(collections.map((c) => [c.name, new Map()]));
  const searched = new Map<string, Map<string, RecordChange>>();
  const sources: SourceRow[] = [];
  const warnings: string[] = [];
  const before = new Map<string, Map<string, Fields>>();
  const after = new Map<string, Map<string, Fields>>();
  const planned: { collection: CollectionDeclaration; records: readonly PublishedRecord[] }[] = [];
  let sourcesMoved = false;
  const sourceKey = (row: SourceRow) => `${row.file}\u0000${row.entry}\u0000${row.cid}`;
  for (const declaration of collections) {
    const mine = files.filter((f) => f.startsWith(`${declaration.name}/`));
    if (mine.length === 0) continue;
    const entries: SourceEntry[] = [];
    const loadProblems: LoadProblem[] = [];
    const where = new Map<string, { row: Omit<SourceRow, 'cid'>; entry: SourceEntry }>();
    for (const file of mine) {
      const absolute = join(options.contentDir, file);
      if (!existsSync(absolute) || !statSync(absolute).isFile()) continue;
      const read = loadFile(options.contentDir, absolute, shownRoot);
      loadProblems.push(...read.problems);
      read.entries.forEach((entry, i) => {
        entries.push(entry);
        where.set(entry.origin, { row: { file, entry: entryIndexOf(entry.origin, i), collection: declaration.name }, entry });
      });
    }
    const built = buildRecords(declaration, entries, deriveContext(options));
    problems.push(...loadProblems, ...built.problems);
    planned.push({ collection: declaration, records: built.records });
    const previous = previousRecords(image, declaration.name, mine);
    const lookup = image.db.prepare(`SELECT file, entry, collection, cid FROM ${SOURCES_TABLE} WHERE collection = ? AND cid = ?`);
    for (const record of built.records) {
      const { row, entry } = where.get(record.origin)!;
      const source = { ...row, cid: record.canonicalId };
      if (!previous.has(record.canonicalId)) {
        const other = lookup.get(declaration.name, record.canonicalId) as SourceRow | undefined;
        if (other !== undefined) {
          problems.push(duplicateProblem(options, declaration, { row: source, entry }, other));
          continue;
        }
      }
      sources.push(source);
      if (lacksProvenance(record.fields)) warnings.push(provenanceWarning(declaration.name, record.origin));
    }
    const kept = new Set(sources.filter((r) => r.collection === declaration.name).map(sourceKey));
    sourcesMoved ||= kept.size !== previous.size || [...previous.values()].some((p) => !kept.has(sourceKey(p.row)));
    before.set(declaration.name, new Map([...previous].map(([cid, p]) => [cid, p.fields])));
    after.set(declaration.name, new Map(built.records.map((r) => [r.canonicalId, r.fields])));
  }
  problems.push(...sharedCanonicalIds(planned), ...idsOfOtherCollections(image, shownRoot, files, planned));
  if (problems.length) throw new ContentError(problems);
  for (const [name, old] of before) {
    const changes = new Map<string, RecordChange>();
    diff(changes, old, after.get(name)!);
    if (contentCollections.some((c) => c.name === name)) searched.set(name, changes);
    for (const [cid, change] of changes) records.get(name)!.set(cid, change);
  }
  // Composed lists: compose the changed records' old and new versions.
  const changedOnly = (pick: 'before' | 'after') => (name: string) =>
    asRecords(new Map([...(searched.get(name)?.values() ?? [])].filter((c) => c[pick] !== undefined).map((c) => [c.cid, c[pick]!])));
  const siteUrl = deriveContext(options).siteUrl;
  for (const declaration of collections.filter((c) => c.compose)) {
    const composed = (pick: 'before' | 'after') => new Map(declaration.compose!({ records: changedOnly(pick), siteUrl }).map((r) => [r.canonicalId, r.fields]));
    diff(records.get(declaration.name)!, composed('before'), composed('after'));
  }
  return { records, searched, files: [...files], sources, sourcesMoved, warnings };
}
