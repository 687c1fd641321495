/**
 * The compiler: content files → validated records → the image → static artifacts (page
 * one of every collection, with its precomputed headers in the manifest). Every content
 * problem of every collection is collected and reported together as `path: field:
 * reason`; any problem fails the build before anything is written.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { CollectionDeclaration } from '../collections/define.ts';
import { collection, collections, contentCollections } from '../collections/index.ts';
import { sqlImageBytes } from '../sql/image.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import { groupsReading, type Artifact } from './artifacts/groups.ts';
import { ImageWriter, missingProvenance, type CollectionRecords, type SourceRow } from './artifacts/image.ts';
import { contentFiles, loadFile, type LoadProblem, type SourceEntry } from './content/load.ts';
import { loadProfile } from './content/profile.ts';
import { DEFAULT_SITE_AUTHOR } from '../collections/profile.ts';
import { buildNow } from './content/now.ts';
import { MissingMedia, type MediaIndex } from '../site/media.ts';
import { buildRecords, sharedIdReason, type BuildContext, type PublishedRecord } from './content/records.ts';
import type { SearchSource } from './artifacts/search-index.ts';

export interface CompileOptions {
  contentDir: string;
  imagePath: string;
  /** The SQL surface's own image (only its relations); defaults to `sql.db` beside the image. */
  sqlImagePath?: string;
  clientDir: string;
  /** Secret from which the cursor signing key is derived; fixed per site so cursors survive rebuilds. */
  secret: string;
  /** The site's absolute URL (no trailing slash), for links that leave the site: KML, GPX, iCalendar. */
  siteUrl?: string;
  /** The owner's name where `content/site.yaml` does not give one (`SITE_AUTHOR`). */
  siteAuthor?: string;
  /** The build's present, for the content rules that read dates against it; default `buildNow()` (SOURCE_DATE_EPOCH, else the clock). */
  now?: Date;
  /** The image files published from `content/media/` (src/compile/content/media.ts), for pages to draw; none when omitted. */
  media?: MediaIndex;
}

export interface StaticFile {
  /** Path relative to the client directory. */
  file: string;
  headers: Record<string, string>;
}
/** URL path → static file and the headers to serve it with. */
export type Manifest = Record<string, StaticFile>;

export interface CompileResult {
  counts: Record<string, number>;
  manifest: Manifest;
  /** `origin: reason` of every located record whose coordinates lack provenance (its collection's geographic formats answer 503). */
  warnings: string[];
}

export class ContentError extends Error {
  readonly problems: readonly LoadProblem[];
  constructor(problems: readonly LoadProblem[]) {
    super(
      `${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p.origin}: ${p.field}: ${p.reason}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/** Where the demo runs; set SITE_URL when building a real site. */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

export function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('collections cursor key v1').digest();
}

/** The site URL of a build, without a trailing slash. */
export const siteUrlOf = (options: Pick<CompileOptions, 'siteUrl'>) => (options.siteUrl ?? DEFAULT_SITE_URL).replace(/\/+$/, '');

/** The options that decide what records a content folder gives (full and incremental builds alike). */
export type ContentOptions = Pick<CompileOptions, 'contentDir' | 'siteUrl' | 'now'>;

/** What a record's derived fields may read; one place, so full and incremental builds derive alike. */
export const deriveContext = (options: ContentOptions): BuildContext => ({ siteUrl: siteUrlOf(options), now: options.now?.getTime() ?? buildNow() });

/** The content folder as origins show it: relative to the working directory. */
export const shownRootOf = (contentDir: string) => relative(process.cwd(), contentDir) || '.';

/** A content file's name in the sources table: relative to the content folder, with `/`. */
export const sourceFileOf = (contentDir: string, file: string) => relative(contentDir, file).split(sep).join('/');

/**
 * Where an entry of a loaded file sits: its index when the file holds a YAML sequence
 * (its origin ends in `[i]`), NULL when the file is one record.
 */
export const entryIndexOf = (origin: string, index: number) => (origin.endsWith(']') ? index : null);

/** Where the compile sends each collection as soon as it is built (the image writer, in a full build). */
export interface ContentSink {
  /** A collection's records, the composed lists' included. */
  collection(entry: CollectionRecords): void;
  /** A content collection's records as loaded (before composition), which search indexes. */
  searched(source: SearchSource): void;
  /** Where each published record of a content collection came from. */
  sources(rows: readonly SourceRow[]): void;
}

/** What the whole content gave, once it has streamed through a sink. */
export interface StreamedContent {
  counts: Record<string, number>;
  /** Provenance warnings, collection by collection. */
  warnings: string[];
}

/**
 * Reads and checks the content collection by collection, handing each to `sink` as soon as
 * it is built and letting it go, so the compile holds one collection at a time. A list that
 * composes records from others (`compose`) is handed over after every content collection,
 * its composed records gathered meanwhile: `compose` is called once per content
 * collection, in the registry's order, with that collection's records alone, and what it
 * returns is concatenated — composition is per record, as the incremental rebuild also
 * relies on. A ContentError lists every problem of every collection; after the first, the
 * sink is fed nothing more (the caller abandons what it wrote).
 */
export function streamContent(options: ContentOptions, sink: ContentSink, earlier: readonly LoadProblem[] = []): StreamedContent {
  // Problems found before the records (the profile's) are listed with theirs, and feed the sink nothing.
  const problems: LoadProblem[] = [...earlier];
  const shared: LoadProblem[] = [];
  const owners = new Map<string, string>();
  const shownRoot = shownRootOf(options.contentDir);
  const siteUrl = siteUrlOf(options);
  // One present for the whole build, so every collection settles statuses against the same instant.
  const context = deriveContext(options);
  const composing = collections.filter((c) => c.compose);
  const composed = new Map<string, PublishedRecord[]>(composing.map((c) => [c.name, []]));
  const deferred = new Map<string, PublishedRecord[]>();
  const counts: Record<string, number> = {};
  const warnings = new Map<string, string[]>();
  const hand = (collection: CollectionDeclaration, records: readonly PublishedRecord[]) => {
    counts[collection.name] = records.length;
    if (problems.length || shared.length) return;
    const entry = { collection, records };
    warnings.set(collection.name, provenanceWarnings(entry));
    sink.collection(entry);
  };
  for (const collection of collections) {
    const entries: SourceEntry[] = [];
    const where = new Map<string, { file: string; entry: number | null }>();
    for (const path of contentFiles(join(options.contentDir, collection.name))) {
      const file = sourceFileOf(options.contentDir, path);
      const read = loadFile(options.contentDir, path, shownRoot);
      problems.push(...read.problems);
      read.entries.forEach((entry, i) => {
        entries.push(entry);
        where.set(entry.origin, { file, entry: entryIndexOf(entry.origin, i) });
      });
    }
    const built = buildRecords(collection, entries, context);
    problems.push(...built.problems);
    entries.length = 0;
    for (const { canonicalId, origin } of built.records) {
      const other = owners.get(canonicalId);
      if (other === undefined) owners.set(canonicalId, origin);
      else shared.push({ origin, field: 'id', reason: sharedIdReason(canonicalId, other) });
    }
    if (!problems.length && !shared.length && contentCollections.includes(collection)) {
      sink.sources(built.records.map((record) => ({ ...where.get(record.origin)!, collection: collection.name, cid: record.canonicalId })));
      sink.searched({ collection, records: built.records });
      const loaded = (name: string) => (name === collection.name ? built.records : []);
      // One push per record: a collection composes into hundreds of thousands, too many to spread as arguments.
      for (const c of composing) for (const record of c.compose!({ records: loaded, siteUrl })) composed.get(c.name)!.push(record);
    }
    if (collection.compose) deferred.set(collection.name, built.records);
    else hand(collection, built.records);
  }
  for (const collection of composing) hand(collection, [...deferred.get(collection.name)!, ...composed.get(collection.name)!]);
  problems.push(...shared);
  if (problems.length) throw new ContentError(problems);
  // Warnings and counts in the registry's order, whatever order the lists were handed over in.
  return {
    counts: Object.fromEntries(collections.map((c) => [c.name, counts[c.name]!])),
    warnings: collections.flatMap((c) => warnings.get(c.name) ?? []),
  };
}

/** The warning of a located record whose coordinates lack provenance. */
export const provenanceWarning = (collectionName: string, origin: string) =>
  `${origin}: coordinatesSource: coordinates without a source (or a geocoded source without coordinatesLicense); ${collectionName} geographic formats are off`;

/** `origin: reason` of every located record of `c` whose coordinates lack provenance. */
export const provenanceWarnings = (c: CollectionRecords) => missingProvenance(c).map((r) => provenanceWarning(c.collection.name, r.origin));

/** The SQL surface's image: the writing relation as the image holds it. */
export const sqlImageOf = (core: QueryCore) => sqlImageBytes(core.records(collection('writing')!));

export const sqlImagePathOf = (options: Pick<CompileOptions, 'imagePath' | 'sqlImagePath'>) =>
  options.sqlImagePath ?? join(dirname(options.imagePath), 'sql.db');

export function writeArtifact(clientDir: string, artifact: Artifact): void {
  mkdirSync(dirname(join(clientDir, artifact.file)), { recursive: true });
  writeFileSync(join(clientDir, artifact.file), artifact.body);
}

/**
 * A full garbage collection, where the caller can run one (the compile thread, compile-thread.ts);
 * absent, the compile leaves collection to V8.
 */
export type CollectGarbage = () => void;

/**
 * How far the compile's heap may grow past what the last collection left before the compile
 * collects again, between collections. V8 collects its old generation only as it nears a limit
 * it raises with the heap, so each collection's records, promoted while they were built, stayed
 * as garbage: at 100k records the compile thread's heap reached 330 MB over 75 MB live, on top of
 * the rest of `astro build`, and that set the build's peak RSS. Collecting at this allowance, after
 * each artifact group and before the first, took that peak from 909–939 MB to 746–791 MB
 * (docs/performance.md); 96 MB without the collections between groups gave 821 MB.
 */
const GARBAGE_ALLOWANCE = 64 * 2 ** 20;

export function compile(options: CompileOptions, collectGarbage?: CollectGarbage): CompileResult {
  // One present for the content rules and the image's as-of times (which never pass it).
  const now = options.now?.getTime() ?? buildNow();
  options = { ...options, now: new Date(now) };
  const {
    profile,
    url,
    problems: profileProblems,
  } = loadProfile(options.contentDir, shownRootOf(options.contentDir), options.siteAuthor ?? DEFAULT_SITE_AUTHOR);
  // SITE_URL (a deployment setting) wins; else the address the profile gives.
  if (options.siteUrl === undefined && url !== undefined) options = { ...options, siteUrl: url };
  const writer = new ImageWriter(options.imagePath, cursorKey(options.secret), siteUrlOf(options), options.media, now, profile);
  const missing = options.media ? new MissingMedia(options.media) : undefined;
  let collected = 0;
  const collect = (force: boolean) => {
    if (!collectGarbage || (!force && getHeapStatistics().used_heap_size - collected < GARBAGE_ALLOWANCE)) return;
    collectGarbage();
    collected = getHeapStatistics().used_heap_size;
  };
  // The writer's sink, with each collection checked for image files on the way when the build publishes them.
  const sink: ContentSink = {
    collection: (entry) => {
      missing?.check(entry);
      writer.collection(entry);
      collect(false);
    },
    searched: (source) => writer.searched(source),
    sources: (rows) => writer.sources(rows),
  };
  try {
    const { counts, warnings } = streamContent(options, sink, profileProblems);
    // What the content left is garbage now; the exports and calendars read every record again.
    collect(true);
    const image = new Image(writer.readable());
    const manifest: Manifest = {};
    try {
      const core = new QueryCore(image);
      for (const group of groupsReading()) {
        for (const artifact of group.render(core, options)) {
          writeArtifact(options.clientDir, artifact);
          manifest[artifact.path] = { file: artifact.file, headers: artifact.headers };
        }
        // The exports and the calendars read every record of their collections.
        collect(false);
      }
      writeFileSync(sqlImagePathOf(options), sqlImageOf(core));
    } finally {
      image.close();
    }
    writer.finish();
    return { counts, manifest, warnings: [...warnings, ...(missing?.warnings ?? [])] };
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
