/**
 * The compiler: content files → validated records → the image → static artifacts (page
 * one of every collection, with its precomputed headers in the manifest). Every content
 * problem of every collection is collected and reported together as `path: field:
 * reason`; any problem fails the build before anything is written.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { collection, collections, contentCollections } from '../collections/index.ts';
import { sqlImageBytes } from '../sql/image.ts';
import { tasteProfile } from '../taste/profile.ts';
import { parseQuery } from '../core/params.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import { collectionPath } from '../formats/json.ts';
import { documentHeaders } from '../http/headers.ts';
import { listAnswer } from '../http/list.ts';
import { documents } from './documents.ts';
import { calendarDocuments, exportDocuments } from './exports.ts';
import { feedDocuments } from './feeds.ts';
import { missingProvenance, writeImage, type CollectionRecords } from './image.ts';
import { loadCollection, type LoadProblem } from './load.ts';
import { buildNow } from './now.ts';
import { buildRecords, sharedCanonicalIds } from './records.ts';

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
    super(`${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p.origin}: ${p.field}: ${p.reason}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Where the demo runs; set SITE_URL when building a real site. */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

export function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('collections cursor key v1').digest();
}

export function compile(options: CompileOptions): CompileResult {
  const problems: LoadProblem[] = [];
  const compiled: CollectionRecords[] = [];
  const shownRoot = relative(process.cwd(), options.contentDir) || '.';
  const siteUrl = (options.siteUrl ?? DEFAULT_SITE_URL).replace(/\/+$/, '');
  const now = options.now?.getTime() ?? buildNow();
  for (const collection of collections) {
    const loaded = loadCollection(options.contentDir, collection.name, shownRoot);
    const built = buildRecords(collection, loaded.entries, { siteUrl, now });
    problems.push(...loaded.problems, ...built.problems);
    compiled.push({ collection, records: built.records });
  }
  problems.push(...sharedCanonicalIds(compiled));
  if (problems.length) throw new ContentError(problems);
  // Composed lists read the content records as loaded (before any composition), so a
  // blog post composed into writing is not fed to the feed a second time.
  const loaded = new Map(compiled.map((c) => [c.collection.name, c.records]));
  const searched = contentCollections.map((collection) => ({ collection, records: loaded.get(collection.name) ?? [] }));
  const sources = { records: (name: string) => loaded.get(name) ?? [], siteUrl };
  for (const [i, entry] of compiled.entries()) {
    if (entry.collection.compose) compiled[i] = { ...entry, records: [...entry.records, ...entry.collection.compose(sources)] };
  }

  writeImage(options.imagePath, compiled, cursorKey(options.secret), siteUrl, searched);
  const counts = Object.fromEntries(compiled.map((c) => [c.collection.name, c.records.length]));
  const warnings = compiled.flatMap((c) =>
    missingProvenance(c).map((r) => `${r.origin}: coordinatesSource: coordinates without a source (or a geocoded source without coordinatesLicense); ${c.collection.name} geographic formats are off`),
  );
  // Everything below reads the image; let the in-memory records go before it renders.
  compiled.length = 0;
  searched.length = 0;
  loaded.clear();
  const image = new Image(options.imagePath);
  try {
    const core = new QueryCore(image);
    const manifest: Manifest = {};
    for (const collection of collections.filter((c) => c.rest)) {
      const answer = listAnswer(core, parseQuery(collection, new URLSearchParams()));
      const path = collectionPath(collection.name);
      const file = path.slice(1);
      mkdirSync(dirname(join(options.clientDir, file)), { recursive: true });
      writeFileSync(join(options.clientDir, file), answer.body);
      manifest[path] = { file, headers: answer.headers };
    }
    const writing = core.records(collection('writing')!);
    writeFileSync(options.sqlImagePath ?? join(dirname(options.imagePath), 'sql.db'), sqlImageBytes(writing));
    const music = core.records(collection('music')!);
    const profile = tasteProfile(music, image.asOf('music'));
    for (const document of [...documents(image, profile), ...exportDocuments(core), ...calendarDocuments(core), ...feedDocuments(core, options.siteAuthor)]) {
      const body = Buffer.from(document.body);
      mkdirSync(dirname(join(options.clientDir, document.file)), { recursive: true });
      writeFileSync(join(options.clientDir, document.file), body);
      manifest[document.path] = { file: document.file, headers: documentHeaders(document.contentType, body, document.asOf) };
    }
    return { counts, manifest, warnings };
  } finally {
    image.close();
  }
}
