/**
 * The compiler: content files → validated records → the image → static artifacts (page
 * one of every collection, with its precomputed headers in the manifest). Every content
 * problem of every collection is collected and reported together as `path: field:
 * reason`; any problem fails the build before anything is written.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { collection, collections, contentCollections } from '../collections/index.ts';
import { sqlImageBytes } from '../sql/image.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import { groupsReading, type Artifact } from './artifacts.ts';
import { missingProvenance, writeImage, type CollectionRecords, type SourceRow } from './image.ts';
import { contentFiles, loadFile, type LoadProblem, type SourceEntry } from './load.ts';
import { missingMedia } from './media.ts';
import { buildNow } from './now.ts';
import type { MediaIndex } from '../site/media.ts';
import { buildRecords, sharedCanonicalIds, type BuildContext, type PublishedRecord } from './records.ts';
import type { SearchSource } from './search-index.ts';

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
  /** The owner's name, as the feeds' author. */
  siteAuthor?: string;
  /** The build's present, for the content rules that read dates against it; default `buildNow()` (SOURCE_DATE_EPOCH, else the clock). */
  now?: Date;
  /** The image files published from `content/media/` (src/compile/media.ts), for pages to draw; none when omitted. */
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
  /**
   * `origin: reason` of every located record whose coordinates lack provenance (its
   * collection's geographic formats answer 503), and of every record naming a site image
   * that `content/media/` lacks (when the build publishes media).
   */
  warnings: string[];
}

export class ContentError extends Error {
  readonly problems: readonly LoadProblem[];
  constructor(problems: readonly LoadProblem[]) {
    super(`${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p.origin}: ${p.field}: ${p.reason}`).join('\n')}`);
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

export interface LoadedContent {
  /** Every collection's records, the composed lists' included. */
  compiled: CollectionRecords[];
  /** The content collections' records as loaded (before composition), which search indexes. */
  searched: SearchSource[];
  /** Where each published content record came from. */
  sources: SourceRow[];
}

/**
 * Composes the cross-collection lists: each composing collection's records are followed
 * by what its `compose` makes of the `loaded` records (content records as loaded, before
 * any composition, so a blog post composed into writing is not fed to the feed twice).
 */
export function composeInto(compiled: CollectionRecords[], loaded: (name: string) => readonly PublishedRecord[], siteUrl: string): void {
  const sources = { records: loaded, siteUrl };
  for (const [i, entry] of compiled.entries()) {
    if (entry.collection.compose) compiled[i] = { ...entry, records: [...entry.records, ...entry.collection.compose(sources)] };
  }
}

/** Reads and checks every content file; a ContentError lists every problem of every collection. */
export function loadContent(options: CompileOptions): LoadedContent {
  const problems: LoadProblem[] = [];
  const compiled: CollectionRecords[] = [];
  const sources: SourceRow[] = [];
  const shownRoot = shownRootOf(options.contentDir);
  // One present for the whole build, so every collection settles statuses against the same instant.
  const context = deriveContext(options);
  for (const collection of collections) {
    const entries: SourceEntry[] = [];
    const loadProblems: LoadProblem[] = [];
    const where = new Map<string, { file: string; entry: number | null }>();
    for (const path of contentFiles(join(options.contentDir, collection.name))) {
      const file = sourceFileOf(options.contentDir, path);
      const read = loadFile(options.contentDir, path, shownRoot);
      loadProblems.push(...read.problems);
      read.entries.forEach((entry, i) => {
        entries.push(entry);
        where.set(entry.origin, { file, entry: entryIndexOf(entry.origin, i) });
      });
    }
    const built = buildRecords(collection, entries, context);
    problems.push(...loadProblems, ...built.problems);
    for (const record of built.records) sources.push({ ...where.get(record.origin)!, collection: collection.name, cid: record.canonicalId });
    compiled.push({ collection, records: built.records });
  }
  problems.push(...sharedCanonicalIds(compiled));
  if (problems.length) throw new ContentError(problems);
  const loaded = new Map(compiled.map((c) => [c.collection.name, c.records]));
  const searched = contentCollections.map((collection) => ({ collection, records: loaded.get(collection.name) ?? [] }));
  composeInto(compiled, (name) => loaded.get(name) ?? [], siteUrlOf(options));
  return { compiled, searched, sources };
}

/** The warning of a located record whose coordinates lack provenance. */
export const provenanceWarning = (collectionName: string, origin: string) =>
  `${origin}: coordinatesSource: coordinates without a source (or a geocoded source without coordinatesLicense); ${collectionName} geographic formats are off`;

/** `origin: reason` of every located record of `c` whose coordinates lack provenance. */
export const provenanceWarnings = (c: CollectionRecords) => missingProvenance(c).map((r) => provenanceWarning(c.collection.name, r.origin));

/** The SQL surface's image: the writing relation as the image holds it. */
export const sqlImageOf = (core: QueryCore) => sqlImageBytes(core.records(collection('writing')!));

export const sqlImagePathOf = (options: Pick<CompileOptions, 'imagePath' | 'sqlImagePath'>) => options.sqlImagePath ?? join(dirname(options.imagePath), 'sql.db');

export function writeArtifact(clientDir: string, artifact: Artifact): void {
  mkdirSync(dirname(join(clientDir, artifact.file)), { recursive: true });
  writeFileSync(join(clientDir, artifact.file), artifact.body);
}

export function compile(options: CompileOptions): CompileResult {
  const content = loadContent(options);
  const siteUrl = siteUrlOf(options);
  writeImage(options.imagePath, content.compiled, cursorKey(options.secret), siteUrl, content.searched, content.sources, options.media);
  const counts = Object.fromEntries(content.compiled.map((c) => [c.collection.name, c.records.length]));
  const warnings = [...content.compiled.flatMap(provenanceWarnings), ...(options.media ? missingMedia(content.compiled, options.media) : [])];
  // Everything below reads the image; let the in-memory records go before it renders.
  content.compiled.length = 0;
  content.searched.length = 0;
  content.sources.length = 0;
  const image = new Image(options.imagePath);
  try {
    const core = new QueryCore(image);
    const manifest: Manifest = {};
    for (const group of groupsReading()) {
      for (const artifact of group.render(core, options)) {
        writeArtifact(options.clientDir, artifact);
        manifest[artifact.path] = { file: artifact.file, headers: artifact.headers };
      }
    }
    writeFileSync(sqlImagePathOf(options), sqlImageOf(core));
    return { counts, manifest, warnings };
  } finally {
    image.close();
  }
}
